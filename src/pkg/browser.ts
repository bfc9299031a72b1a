// `opalite/browser`: run the Opalite sandbox in another web app. `startSandbox()` registers the
// worker that `npx opalite init <static folder>` copied into the app, waits until it controls the
// page, checks that it is the worker of this package's version, and resolves to
// `<origin>/sandbox/v1`, the REST API that worker answers from a ledger in the app's own
// IndexedDB. It never replaces another service worker of the app. Self-contained (its only import
// is the package's version), so its types stand alone in the package.
import { version as PACKAGE_VERSION } from '../../package.json';

/** Where `npx opalite init` puts the worker, relative to the app's static root. */
export const DEFAULT_SCRIPT_URL = '/opalite-sandbox-worker.js';

/** @internal What a page posts to an active sandbox worker that does not control it yet; the worker claims the page. */
export const SANDBOX_CLAIM_MESSAGE = 'opalite-sandbox:claim';

/**
 * @internal What a page posts, with a MessagePort, to ask the sandbox worker its version; the
 * worker answers on the port with `{ type, v, version }` (`version`: the opalite package's).
 */
export const SANDBOX_VERSION_MESSAGE = 'opalite-sandbox:version';

/** @internal The version of the question and answer's shape. */
export const SANDBOX_MESSAGE_VERSION = 1;

const DEFAULT_TIMEOUT_MS = 15_000;

/** How long a worker that controls the page gets to answer the version question (a stopped one starts first). */
const VERSION_ANSWER_MS = 5_000;

export interface StartSandboxOptions {
  /** The worker script's URL; default `/opalite-sandbox-worker.js`. */
  scriptUrl?: string;
  /** The pages the worker controls; default `/` (the whole origin). */
  scope?: string;
  /** How long to wait for the worker to take control of this page and tell its version; default 15 000 ms. */
  timeoutMs?: number;
  /**
   * How the browser runs the script: `'module'` by default for the package's worker at the default
   * `scriptUrl` (it runs either way, and a module worker starts sooner in a fresh context), else
   * `'classic'` (your own worker may call `importScripts`, which a module worker cannot). A browser
   * that refuses a module worker gets the classic one.
   */
  type?: 'module' | 'classic';
}

export type SandboxErrorCode =
  /** Not a secure context: service workers need https or localhost. */
  | 'insecure-context'
  /** This browser context has no service workers (e.g. a Firefox private window). */
  | 'unsupported'
  /** The page's URL is outside the scope asked for. */
  | 'out-of-scope'
  /** Another service worker of the app holds the scope (or a narrower one over this page); it was left as it is. */
  | 'scope-taken'
  /** The worker script is not served (404, or a fallback page instead of JavaScript). */
  | 'script-missing'
  /** The browser refused the registration for another reason (its message is quoted). */
  | 'register-failed'
  /** The worker script ran and failed while installing. */
  | 'install-failed'
  /** The worker is from another opalite version than this page's `opalite/browser`: rerun `npx opalite init`. */
  | 'version-mismatch'
  /** The worker did not take control of the page (or tell its version) in time. */
  | 'timeout';

export class SandboxError extends Error {
  override readonly name = 'SandboxError';
  constructor(
    readonly code: SandboxErrorCode,
    message: string,
    options?: { cause?: unknown }
  ) {
    super(message, options);
  }
}

const INIT_HINT = 'Run `npx opalite init <your static folder>` (public/ for Vite) so the app serves it, or pass its URL as `scriptUrl`.';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The page's service worker container, or why there is none. */
function serviceWorkers(): ServiceWorkerContainer {
  const container = (globalThis.navigator as Navigator | undefined)?.serviceWorker;
  if (container) return container;
  if (globalThis.isSecureContext === false) {
    throw new SandboxError(
      'insecure-context',
      `Service workers need a secure context: open the app over https, or on localhost / 127.0.0.1 (this page is ${globalThis.location?.origin}).`
    );
  }
  throw new SandboxError(
    'unsupported',
    'This browser context has no service workers (Firefox private windows, some embedded web views and browsers with them disabled offer none); the Opalite sandbox needs one.'
  );
}

/** The registration's workers, newest first. */
function workersOf(registration: ServiceWorkerRegistration): ServiceWorker[] {
  return [registration.installing, registration.waiting, registration.active].filter((w): w is ServiceWorker => w !== null);
}

/** A registration with no worker yet is a register() under way: its script is known once the browser has fetched it. */
function firstWorker(registration: ServiceWorkerRegistration): Promise<ServiceWorker> {
  return new Promise((resolve) => {
    const check = () => {
      const [worker] = workersOf(registration);
      if (!worker) return;
      registration.removeEventListener('updatefound', check);
      resolve(worker);
    };
    registration.addEventListener('updatefound', check);
    check();
  });
}

function scopeTaken(held: string, scriptUrl: string): SandboxError {
  const own = new URL(scriptUrl);
  const path = own.origin === location.origin ? own.pathname : scriptUrl;
  return new SandboxError(
    'scope-taken',
    `${held}; the sandbox was not registered and that worker was left as it is. Either start the sandbox at a scope of its own for the pages that use it ` +
      `(e.g. startSandbox({ scope: '/opalite/' }) from a page under /opalite/), or import the sandbox into that worker ` +
      `(importScripts('${path}')) and pass that worker's URL: startSandbox({ scriptUrl }).`
  );
}

/**
 * The registration at exactly `scope` if it holds the sandbox script; refuses when it holds
 * another one (registering would replace it), or when a narrower scope over this page does (that
 * worker keeps the page). Another app's worker at a wider scope is no obstacle: it stays
 * registered, and the sandbox's narrower scope controls its own pages.
 */
async function sandboxRegistration(container: ServiceWorkerContainer, scope: string, scriptUrl: string): Promise<ServiceWorkerRegistration | undefined> {
  const registrations = await container.getRegistrations();
  const atScope = registrations.find((r) => r.scope === scope);
  if (atScope) {
    const workers = workersOf(atScope);
    const other = (workers.length > 0 ? workers : [await firstWorker(atScope)]).find((w) => w.scriptURL !== scriptUrl);
    if (other) throw scopeTaken(`The scope ${scope} is registered to another service worker, ${other.scriptURL}`, scriptUrl);
  }
  const nearest = registrations
    .filter((r) => r.scope.length > scope.length && location.href.startsWith(r.scope))
    .sort((a, b) => b.scope.length - a.scope.length)[0];
  const keeper = nearest && workersOf(nearest).find((w) => w.scriptURL !== scriptUrl);
  if (keeper) {
    throw scopeTaken(`This page is under the scope ${nearest.scope} of another service worker, ${keeper.scriptURL}, which keeps control of it`, scriptUrl);
  }
  return atScope;
}

/** The registration failed: fetch the script to tell a missing file from other refusals. */
async function registrationError(scriptUrl: string, error: unknown): Promise<SandboxError> {
  let response: Response;
  try {
    response = await fetch(scriptUrl, { cache: 'no-store' });
  } catch {
    return new SandboxError('register-failed', `Could not register the sandbox worker ${scriptUrl}: ${messageOf(error)}`, { cause: error });
  }
  if (!response.ok) {
    return new SandboxError('script-missing', `The sandbox worker ${scriptUrl} answered HTTP ${response.status}. ${INIT_HINT}`, { cause: error });
  }
  const type = response.headers.get('content-type') ?? '';
  if (!/javascript|ecmascript/i.test(type)) {
    // A single-page app's host answers a missing file with its index.html.
    return new SandboxError('script-missing', `The sandbox worker ${scriptUrl} was answered with ${type || 'no content type'}, not JavaScript: the file is missing. ${INIT_HINT}`, {
      cause: error
    });
  }
  return new SandboxError('register-failed', `The browser refused to register the sandbox worker ${scriptUrl}: ${messageOf(error)}`, { cause: error });
}

async function register(container: ServiceWorkerContainer, scriptUrl: string, scope: string, type: 'module' | 'classic'): Promise<ServiceWorkerRegistration> {
  // The worker script never comes from the HTTP cache, so a new `opalite init` is seen at once.
  const as = (kind: 'module' | 'classic') => container.register(scriptUrl, { scope, type: kind, updateViaCache: 'none' });
  try {
    // Refused as a module (a browser without module service workers): the same file as a classic
    // script; a script that fails either way fails the classic registration too, which says why.
    return await (type === 'module' ? as('module').catch(() => as('classic')) : as('classic'));
  } catch (error) {
    throw await registrationError(scriptUrl, error);
  }
}

/** Rejects when the worker being installed turns redundant (its script threw, or install failed). */
function installFailure(registration: ServiceWorkerRegistration, scriptUrl: string): Promise<never> {
  return new Promise((_, reject) => {
    const worker = registration.installing;
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'redundant' && !registration.active) {
        reject(new SandboxError('install-failed', `The sandbox worker ${scriptUrl} failed to install; the browser console of the worker says why.`));
      }
    });
  });
}

/**
 * Resolves once the registration's newest worker controls this page: an install or update under
 * way is waited for (the sandbox worker takes over by itself), and an active worker that does not
 * control the page (loaded past it, as by shift+reload) is asked to claim it.
 */
function controlledByNewest(container: ServiceWorkerContainer, registration: ServiceWorkerRegistration): Promise<ServiceWorker> {
  return new Promise((resolve) => {
    const watched = new Set<ServiceWorker>();
    let askedToClaim: ServiceWorker | null = null;
    const stop = () => {
      container.removeEventListener('controllerchange', check);
      registration.removeEventListener('updatefound', check);
      for (const worker of watched) worker.removeEventListener('statechange', check);
    };
    function check(): void {
      for (const worker of workersOf(registration)) {
        if (watched.has(worker)) continue;
        watched.add(worker);
        worker.addEventListener('statechange', check);
      }
      const active = registration.active;
      // An install or update under way takes over by itself (the sandbox worker skips waiting).
      if (!active || active.state === 'redundant' || registration.installing || registration.waiting) return;
      // One ServiceWorker object per worker and page: identity tells the newest from an older one of the same script.
      if (container.controller === active) {
        stop();
        resolve(active);
      } else if (active.state === 'activated' && askedToClaim !== active) {
        // (An activating sandbox worker claims the page by itself.)
        askedToClaim = active;
        active.postMessage({ type: SANDBOX_CLAIM_MESSAGE });
      }
    }
    container.addEventListener('controllerchange', check);
    registration.addEventListener('updatefound', check);
    check();
  });
}

/** The version the worker reports, or null when it does not answer (a worker copied before workers told it). */
function reportedVersion(worker: ServiceWorker, waitMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const done = (version: string | null) => {
      clearTimeout(timer);
      channel.port1.close();
      resolve(version);
    };
    const timer = setTimeout(() => done(null), waitMs);
    channel.port1.onmessage = (event: MessageEvent) => {
      const answer = event.data as { type?: unknown; version?: unknown } | null;
      if (answer?.type === SANDBOX_VERSION_MESSAGE && typeof answer.version === 'string') done(answer.version.slice(0, 64));
    };
    worker.postMessage({ type: SANDBOX_VERSION_MESSAGE, v: SANDBOX_MESSAGE_VERSION }, [channel.port2]);
  });
}

function versionMismatch(scriptUrl: string, reported: string | null): SandboxError {
  const worker = reported === null ? `did not tell its version (a worker copied by an older opalite does not)` : `is from opalite ${reported}`;
  return new SandboxError(
    'version-mismatch',
    `The sandbox worker ${scriptUrl} ${worker}, but this page's opalite/browser is ${PACKAGE_VERSION}. ` +
      'Rerun `npx opalite init <your static folder>` so the app serves the worker of the installed package, then reload.'
  );
}

function timeout(ms: number, error: () => SandboxError): { promise: Promise<never>; clear(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  return { promise, clear: () => clearTimeout(timer) };
}

/**
 * Register the sandbox worker, wait until it controls this page, check that it is of this
 * package's version, and resolve to the REST API's base URL, `<origin>/sandbox/v1` (for
 * `new Sdk({ baseUrl })`). Calling it again is harmless. Rejects with a `SandboxError` saying what
 * to do when the sandbox cannot run here; another service worker of the app is never replaced
 * (`scope-taken`).
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<string> {
  const container = serviceWorkers();
  const scriptUrl = new URL(options.scriptUrl ?? DEFAULT_SCRIPT_URL, location.href).href;
  const scope = new URL(options.scope ?? '/', location.href).href;
  if (!location.href.startsWith(scope)) {
    throw new SandboxError('out-of-scope', `This page (${location.href}) is outside the scope ${scope} asked for: the worker could never control it.`);
  }
  const ms = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Chromium compiles a classic service worker whole when installing it (decision 0016); the
  // package's worker is one script with no imports or exports, valid as either.
  const type = options.type ?? (options.scriptUrl === undefined ? 'module' : 'classic');
  if (type !== 'module' && type !== 'classic') throw new TypeError(`type must be "module" or "classic", not ${JSON.stringify(String(type)).slice(0, 40)}`);
  // What start() is waiting for, for the timeout's message.
  const steps = {
    registration: `The registration under way at ${scope} did not name its worker`,
    control: `The sandbox worker ${scriptUrl} did not take control of this page`,
    version: `The sandbox worker ${scriptUrl} did not tell its version (a worker copied by an older opalite does not: rerun \`npx opalite init <your static folder>\`)`
  };
  let step = steps.control;

  /** The newest worker of the registration, once it controls this page, and the version it tells. */
  async function controllingWorker(registration: ServiceWorkerRegistration): Promise<string | null> {
    step = steps.control;
    const worker = await Promise.race([controlledByNewest(container, registration), installFailure(registration, scriptUrl)]);
    step = steps.version;
    return reportedVersion(worker, VERSION_ANSWER_MS);
  }

  async function start(): Promise<string> {
    step = steps.registration;
    const existing = await sandboxRegistration(container, scope, scriptUrl);
    step = steps.control;
    // A registration that already holds the sandbox is used as it is (register() with other options would update it).
    const registration = existing ?? (await register(container, scriptUrl, scope, type));
    if ((await controllingWorker(registration)) === PACKAGE_VERSION) return `${location.origin}/sandbox/v1`;
    // The script served may be newer than the worker running (`opalite init` rerun, its update not checked yet).
    await registration.update().catch(() => {});
    const reported = await controllingWorker(registration);
    if (reported !== PACKAGE_VERSION) throw versionMismatch(scriptUrl, reported);
    return `${location.origin}/sandbox/v1`;
  }

  const limit = timeout(ms, () => new SandboxError('timeout', `${step} within ${ms} ms.`));
  try {
    return await Promise.race([start(), limit.promise]);
  } finally {
    limit.clear();
  }
}

/**
 * Unregister the sandbox worker; true if one was registered. The page stays controlled until it
 * is reloaded or closed, and the ledger stays in IndexedDB for the next `startSandbox()`. (When
 * the app's own worker imports the sandbox, do not call it with that worker's URL: it would
 * unregister the app's worker.)
 */
export async function stopSandbox(options: Pick<StartSandboxOptions, 'scriptUrl'> = {}): Promise<boolean> {
  const container = (globalThis.navigator as Navigator | undefined)?.serviceWorker;
  if (!container) return false;
  const scriptUrl = new URL(options.scriptUrl ?? DEFAULT_SCRIPT_URL, location.href).href;
  let removed = false;
  for (const registration of await container.getRegistrations()) {
    const worker = registration.active ?? registration.waiting ?? registration.installing;
    if (worker?.scriptURL === scriptUrl) removed = (await registration.unregister()) || removed;
  }
  return removed;
}
