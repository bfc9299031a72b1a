// `opalite/browser`: run the Opalite sandbox in another web app. `startSandbox()` registers the
// worker that `npx opalite init <static folder>` copied into the app, waits until it controls the
// page and resolves to `<origin>/sandbox/v1`, the REST API that worker answers from a ledger in
// the app's own IndexedDB. Self-contained (no imports), so its types stand alone in the package.

/** Where `npx opalite init` puts the worker, relative to the app's static root. */
export const DEFAULT_SCRIPT_URL = '/opalite-sandbox-worker.js';

/** @internal What a page posts to an active sandbox worker that does not control it yet; the worker claims the page. */
export const SANDBOX_CLAIM_MESSAGE = 'opalite-sandbox:claim';

const DEFAULT_TIMEOUT_MS = 15_000;

export interface StartSandboxOptions {
  /** The worker script's URL; default `/opalite-sandbox-worker.js`. */
  scriptUrl?: string;
  /** The pages the worker controls; default `/` (the whole origin). */
  scope?: string;
  /** How long to wait for the worker to take control of this page; default 15 000 ms. */
  timeoutMs?: number;
}

export type SandboxErrorCode =
  /** Not a secure context: service workers need https or localhost. */
  | 'insecure-context'
  /** This browser context has no service workers (e.g. a Firefox private window). */
  | 'unsupported'
  /** The page's URL is outside the scope asked for. */
  | 'out-of-scope'
  /** The worker script is not served (404, or a fallback page instead of JavaScript). */
  | 'script-missing'
  /** The browser refused the registration for another reason (its message is quoted). */
  | 'register-failed'
  /** The worker script ran and failed while installing. */
  | 'install-failed'
  /** The worker did not take control of the page in time. */
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

/** Resolves once the sandbox worker controls this page; asks an active one that does not to claim it. */
async function controlled(container: ServiceWorkerContainer, registration: ServiceWorkerRegistration, scriptUrl: string): Promise<void> {
  const isOurs = () => container.controller?.scriptURL === scriptUrl;
  if (isOurs()) return;
  const changed = new Promise<void>((resolve) => {
    const listener = () => {
      if (!isOurs()) return;
      container.removeEventListener('controllerchange', listener);
      resolve();
    };
    container.addEventListener('controllerchange', listener);
  });
  // A first install claims every page when it activates; an active worker (installed on an
  // earlier visit) does not control a page loaded past it, such as after a shift+reload.
  const active = await activeWorker(registration);
  if (!isOurs()) active.postMessage({ type: SANDBOX_CLAIM_MESSAGE });
  await changed;
}

/** The registration's active worker, once there is one. */
function activeWorker(registration: ServiceWorkerRegistration): Promise<ServiceWorker> {
  if (registration.active) return Promise.resolve(registration.active);
  return new Promise((resolve) => {
    const check = () => {
      if (registration.active) resolve(registration.active);
    };
    for (const worker of [registration.installing, registration.waiting]) worker?.addEventListener('statechange', check);
    registration.addEventListener('updatefound', () => registration.installing?.addEventListener('statechange', check));
  });
}

function timeout(ms: number, scriptUrl: string): { promise: Promise<never>; clear(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new SandboxError('timeout', `The sandbox worker ${scriptUrl} did not take control of this page within ${ms} ms.`)),
      ms
    );
  });
  return { promise, clear: () => clearTimeout(timer) };
}

/**
 * Register the sandbox worker, wait until it controls this page, and resolve to the REST API's
 * base URL, `<origin>/sandbox/v1` (for `new Sdk({ baseUrl })`). Calling it again is harmless.
 * Rejects with a `SandboxError` saying what to do when the sandbox cannot run here.
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<string> {
  const container = serviceWorkers();
  const scriptUrl = new URL(options.scriptUrl ?? DEFAULT_SCRIPT_URL, location.href).href;
  const scope = new URL(options.scope ?? '/', location.href).href;
  if (!location.href.startsWith(scope)) {
    throw new SandboxError('out-of-scope', `This page (${location.href}) is outside the scope ${scope} asked for: the worker could never control it.`);
  }
  let registration: ServiceWorkerRegistration;
  try {
    // The worker script never comes from the HTTP cache, so a new `opalite init` is seen at once.
    registration = await container.register(scriptUrl, { scope, type: 'classic', updateViaCache: 'none' });
  } catch (error) {
    throw await registrationError(scriptUrl, error);
  }
  const limit = timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, scriptUrl);
  try {
    await Promise.race([controlled(container, registration, scriptUrl), installFailure(registration, scriptUrl), limit.promise]);
  } finally {
    limit.clear();
  }
  return `${location.origin}/sandbox/v1`;
}

/**
 * Unregister the sandbox worker; true if one was registered. The page stays controlled until it
 * is reloaded or closed, and the ledger stays in IndexedDB for the next `startSandbox()`.
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
