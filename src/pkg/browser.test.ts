// startSandbox()/stopSandbox() against a fake navigator.serviceWorker: every way the sandbox can
// fail to start gives a SandboxError that says why, another app's worker is never replaced, a
// worker of another version is refused, and each way a page comes under the worker's control
// (first install, an earlier visit, a page loaded past the worker, an update) resolves.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SANDBOX_CLAIM_MESSAGE, SANDBOX_MESSAGE_VERSION, SANDBOX_VERSION_MESSAGE, SandboxError, startSandbox, stopSandbox, type SandboxErrorCode } from './browser';

const ORIGIN = 'https://dapp.example';
const SCRIPT = `${ORIGIN}/opalite-sandbox-worker.js`;
const APP_WORKER = `${ORIGIN}/sw.js`;
/** The version of this package, which the page's opalite/browser expects of its worker. */
const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const VERSION_QUESTION = { type: SANDBOX_VERSION_MESSAGE, v: SANDBOX_MESSAGE_VERSION };

class FakeWorker extends EventTarget {
  readonly posted: unknown[] = [];
  onPost: (message: unknown) => void = () => {};
  /** What it answers when asked its version (null: a worker that never answers). */
  version: string | null = PACKAGE_VERSION;
  constructor(
    readonly scriptURL: string,
    public state: string = 'installing'
  ) {
    super();
  }
  postMessage(message: unknown, transfer: Transferable[] = []): void {
    this.posted.push(message);
    this.onPost(message);
    const [port] = transfer as MessagePort[];
    if ((message as { type?: unknown }).type === SANDBOX_VERSION_MESSAGE && this.version !== null) {
      port.postMessage({ type: SANDBOX_VERSION_MESSAGE, v: SANDBOX_MESSAGE_VERSION, version: this.version });
    }
  }
  becomes(state: string): void {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  active: FakeWorker | null = null;
  readonly unregister = vi.fn(async () => true);
  /** The browser checks the script again; `onUpdate` plays what it finds. */
  onUpdate: () => void = () => {};
  readonly update = vi.fn(async () => {
    this.onUpdate();
    return this;
  });
  constructor(readonly scope = `${ORIGIN}/`) {
    super();
  }
  /** A new worker of the script installs, takes over (skipWaiting, activate) and claims the page. */
  replacedBy(worker: FakeWorker, container: FakeContainer): void {
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
    setTimeout(() => {
      this.installing = null;
      this.active?.becomes('redundant');
      this.active = worker;
      // The sandbox worker claims the page while it activates.
      worker.becomes('activating');
      container.controlledBy(worker);
      worker.becomes('activated');
    });
  }
}

class FakeContainer extends EventTarget {
  controller: FakeWorker | null = null;
  register = vi.fn(async (_url: string, _options: RegistrationOptions): Promise<FakeRegistration> => new FakeRegistration());
  getRegistrations = vi.fn(async (): Promise<FakeRegistration[]> => []);
  /** The worker takes control of the page, as clients.claim() makes it. */
  controlledBy(worker: FakeWorker): void {
    this.controller = worker;
    this.dispatchEvent(new Event('controllerchange'));
  }
}

/** A container whose register() resolves to a registration holding one worker, installing or active; `then` runs just after. */
function registered(slot: 'installing' | 'active', options: { script?: string; scope?: string; then?: () => void } = {}) {
  const container = new FakeContainer();
  const registration = new FakeRegistration(options.scope);
  const worker = new FakeWorker(options.script ?? SCRIPT, slot === 'active' ? 'activated' : 'installing');
  registration[slot] = worker;
  container.register.mockImplementation(async () => {
    if (options.then) setTimeout(options.then);
    return registration;
  });
  return { container, registration, worker };
}

function browserWith(options: { container?: FakeContainer; href?: string; secure?: boolean; fetch?: () => Promise<Response> } = {}): void {
  const href = options.href ?? `${ORIGIN}/`;
  vi.stubGlobal('navigator', options.container ? { serviceWorker: options.container } : {});
  vi.stubGlobal('location', { href, origin: new URL(href).origin });
  vi.stubGlobal('isSecureContext', options.secure ?? true);
  vi.stubGlobal('fetch', vi.fn(options.fetch ?? (async () => new Response('', { status: 599 }))));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

async function failure(promise: Promise<unknown>): Promise<SandboxError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e
  );
  if (!(error instanceof SandboxError)) throw new Error(`expected a SandboxError, got ${String(error)}`);
  return error;
}

async function expectFailure(promise: Promise<unknown>, code: SandboxErrorCode, message: RegExp): Promise<void> {
  const error = await failure(promise);
  expect(error.code).toBe(code);
  expect(error.message).toMatch(message);
}

describe('startSandbox: why it cannot start', () => {
  it('needs a secure context', async () => {
    browserWith({ secure: false, href: 'http://192.0.2.7:8080/' });
    await expectFailure(startSandbox(), 'insecure-context', /https.*localhost.*http:\/\/192\.0\.2\.7:8080/);
  });

  it('needs service workers (none in a Firefox private window)', async () => {
    browserWith({ secure: true });
    await expectFailure(startSandbox(), 'unsupported', /no service workers.*private/);
  });

  it('says to run `opalite init` when the script answers 404', async () => {
    const container = new FakeContainer();
    container.register.mockRejectedValue(new TypeError('A bad HTTP response code (404) was received when fetching the script.'));
    browserWith({ container, fetch: async () => new Response('Not found', { status: 404 }) });
    await expectFailure(startSandbox(), 'script-missing', /opalite-sandbox-worker\.js answered HTTP 404.*npx opalite init/);
  });

  it("says the file is missing when a single-page app's fallback page answers instead", async () => {
    const container = new FakeContainer();
    container.register.mockRejectedValue(new DOMException("The script has an unsupported MIME type ('text/html').", 'SecurityError'));
    browserWith({ container, fetch: async () => new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } }) });
    await expectFailure(startSandbox(), 'script-missing', /text\/html, not JavaScript: the file is missing.*npx opalite init/);
  });

  it("quotes the browser's refusal when the script is there", async () => {
    const container = new FakeContainer();
    container.register.mockRejectedValue(new DOMException('The operation is insecure.', 'SecurityError'));
    browserWith({ container, fetch: async () => new Response('1', { headers: { 'content-type': 'text/javascript' } }) });
    await expectFailure(startSandbox(), 'register-failed', /refused to register .*The operation is insecure\./);
  });

  it('quotes the browser when even fetching the script fails', async () => {
    const container = new FakeContainer();
    container.register.mockRejectedValue(new TypeError('Failed to register a ServiceWorker: An unknown error occurred when fetching the script.'));
    browserWith({ container, fetch: async () => Promise.reject(new TypeError('Failed to fetch')) });
    await expectFailure(startSandbox(), 'register-failed', /Could not register .*unknown error occurred/);
  });

  it('refuses a scope the page is outside of, before registering', async () => {
    const container = new FakeContainer();
    browserWith({ container, href: `${ORIGIN}/other/page` });
    await expectFailure(startSandbox({ scope: '/app/' }), 'out-of-scope', /outside the scope https:\/\/dapp\.example\/app\//);
    expect(container.register).not.toHaveBeenCalled();
  });

  it('reports a worker that fails to install', async () => {
    const { container, worker } = registered('installing', { then: () => worker.becomes('redundant') });
    browserWith({ container });
    await expectFailure(startSandbox(), 'install-failed', /failed to install/);
  });

  it('gives up when another worker keeps the page', async () => {
    const { container } = registered('active');
    container.controller = new FakeWorker(`${ORIGIN}/app-worker.js`, 'activated');
    browserWith({ container });
    await expectFailure(startSandbox({ timeoutMs: 30 }), 'timeout', /did not take control of this page within 30 ms/);
  });
});

/** A registration whose new worker installs, skips waiting, activates and claims the page: what the sandbox worker does. */
function takingOver() {
  const taken = registered('installing', {
    then: () => {
      taken.registration.installing = null;
      taken.registration.active = taken.worker;
      taken.worker.becomes('activated');
      taken.container.controlledBy(taken.worker);
    }
  });
  return taken;
}

describe('startSandbox: taking control', () => {
  it('registers the package worker as a module worker for the whole origin and resolves once the new worker claims the page', async () => {
    const { container } = takingOver();
    browserWith({ container });
    await expect(startSandbox()).resolves.toBe(`${ORIGIN}/sandbox/v1`);
    expect(container.register).toHaveBeenCalledWith(SCRIPT, { scope: `${ORIGIN}/`, type: 'module', updateViaCache: 'none' });
    expect(container.register).toHaveBeenCalledTimes(1);
  });

  it('registers the same script as a classic worker when the browser refuses a module service worker', async () => {
    const { container } = takingOver();
    const registers = container.register.getMockImplementation()!;
    container.register.mockImplementation(async (url, options) => {
      if (options.type === 'module') throw new TypeError('Module service workers are not supported');
      return registers(url, options);
    });
    browserWith({ container });
    await expect(startSandbox()).resolves.toBe(`${ORIGIN}/sandbox/v1`);
    expect(container.register.mock.calls.map(([, options]) => options.type)).toEqual(['module', 'classic']);
  });

  it('registers a worker of your own (a scriptUrl given) as classic, unless told otherwise; refuses an unknown type', async () => {
    for (const [options, type] of [[{ scriptUrl: '/my-worker.js' }, 'classic'], [{ scriptUrl: '/my-worker.js', type: 'module' as const }, 'module']] as const) {
      const { container, worker } = registered('active');
      container.controller = worker;
      browserWith({ container });
      await startSandbox(options).catch(() => {});
      expect(container.register).toHaveBeenCalledWith(`${ORIGIN}/my-worker.js`, expect.objectContaining({ type }));
    }
    const { container } = registered('active');
    browserWith({ container });
    await expect(startSandbox({ type: 'esm' as never })).rejects.toThrow(/type must be "module" or "classic"/);
    expect(container.register).not.toHaveBeenCalled();
  });

  it('resolves at once when the worker already controls the page', async () => {
    const { container, worker } = registered('active');
    container.controller = worker;
    browserWith({ container, href: `${ORIGIN}/deep/page?x=1` });
    await expect(startSandbox({ timeoutMs: 1_000 })).resolves.toBe(`${ORIGIN}/sandbox/v1`);
    // Only its version was asked: no claim, and no update checked.
    expect(worker.posted).toEqual([VERSION_QUESTION]);
  });

  it('asks an active worker to claim a page loaded past it (shift+reload)', async () => {
    const { container, worker } = registered('active');
    worker.onPost = (message) => {
      if ((message as { type?: unknown }).type === SANDBOX_CLAIM_MESSAGE) container.controlledBy(worker);
    };
    browserWith({ container });
    await expect(startSandbox({ timeoutMs: 1_000 })).resolves.toBe(`${ORIGIN}/sandbox/v1`);
    expect(worker.posted).toEqual([{ type: SANDBOX_CLAIM_MESSAGE }, VERSION_QUESTION]);
  });

  it('takes a script URL and scope relative to the page', async () => {
    const { container, worker } = registered('active', { script: `${ORIGIN}/app/static/sw.js`, scope: `${ORIGIN}/app/` });
    container.controller = worker;
    browserWith({ container, href: `${ORIGIN}/app/home` });
    await expect(startSandbox({ scriptUrl: 'static/sw.js', scope: './' })).resolves.toBe(`${ORIGIN}/sandbox/v1`);
    expect(container.register).toHaveBeenCalledWith(`${ORIGIN}/app/static/sw.js`, expect.objectContaining({ scope: `${ORIGIN}/app/` }));
  });
});

/** A container where `registrations` already exist (getRegistrations) and register() would add the sandbox's. */
function withRegistrations(...registrations: FakeRegistration[]) {
  const { container, registration, worker } = registered('active');
  container.getRegistrations.mockResolvedValue(registrations);
  container.controller = worker;
  return { container, registration, worker };
}

function holding(scope: string, slots: Partial<Record<'installing' | 'waiting' | 'active', string>>): FakeRegistration {
  const registration = new FakeRegistration(scope);
  for (const [slot, script] of Object.entries(slots) as ['installing' | 'waiting' | 'active', string][]) {
    registration[slot] = new FakeWorker(script, slot === 'active' ? 'activated' : slot === 'waiting' ? 'installed' : 'installing');
  }
  return registration;
}

describe("startSandbox: another app's service worker", () => {
  it("refuses a scope another script holds, and leaves that registration as it was", async () => {
    const theirs = holding(`${ORIGIN}/`, { active: APP_WORKER });
    const { container } = withRegistrations(theirs);
    container.controller = theirs.active;
    browserWith({ container });
    const error = await failure(startSandbox());
    expect(error.code).toBe('scope-taken');
    expect(error.message).toContain(`The scope ${ORIGIN}/ is registered to another service worker, ${APP_WORKER}`);
    // How to fix it: a scope of its own, or the app's worker importing the sandbox.
    expect(error.message).toContain("startSandbox({ scope: '/opalite/' })");
    expect(error.message).toContain("importScripts('/opalite-sandbox-worker.js')");
    expect(container.register).not.toHaveBeenCalled();
    expect(theirs.unregister).not.toHaveBeenCalled();
    expect(theirs.update).not.toHaveBeenCalled();
    expect(theirs.active?.posted).toEqual([]);
  });

  it('refuses when another script is installing or waiting at the scope, even over the sandbox', async () => {
    for (const slot of ['installing', 'waiting'] as const) {
      const mixed = holding(`${ORIGIN}/`, { active: SCRIPT, [slot]: APP_WORKER });
      const { container } = withRegistrations(mixed);
      browserWith({ container });
      await expectFailure(startSandbox(), 'scope-taken', new RegExp(`registered to another service worker, ${APP_WORKER}`));
      expect(container.register).not.toHaveBeenCalled();
    }
  });

  it("refuses when a narrower scope of another script is over this page (that worker would keep it)", async () => {
    const admin = holding(`${ORIGIN}/admin/`, { active: `${ORIGIN}/admin/sw.js` });
    const { container } = withRegistrations(admin);
    browserWith({ container, href: `${ORIGIN}/admin/page` });
    await expectFailure(startSandbox(), 'scope-taken', /This page is under the scope https:\/\/dapp\.example\/admin\/ of another service worker, https:\/\/dapp\.example\/admin\/sw\.js/);
    expect(container.register).not.toHaveBeenCalled();
  });

  it("starts at a scope of its own under the app's worker, which stays registered", async () => {
    const theirs = holding(`${ORIGIN}/`, { active: APP_WORKER });
    const other = holding(`${ORIGIN}/shop/`, { active: `${ORIGIN}/shop/sw.js` });
    const { container } = withRegistrations(theirs, other);
    browserWith({ container, href: `${ORIGIN}/opalite/index.html` });
    await expect(startSandbox({ scope: '/opalite/', timeoutMs: 1_000 })).resolves.toBe(`${ORIGIN}/sandbox/v1`);
    expect(container.register).toHaveBeenCalledWith(SCRIPT, expect.objectContaining({ scope: `${ORIGIN}/opalite/` }));
    expect(theirs.unregister).not.toHaveBeenCalled();
  });

  it("uses the app's worker that imports the sandbox as it is, without registering it again", async () => {
    const theirs = holding(`${ORIGIN}/`, { active: APP_WORKER });
    const { container } = withRegistrations(theirs);
    container.controller = theirs.active;
    browserWith({ container });
    await expect(startSandbox({ scriptUrl: '/sw.js', timeoutMs: 1_000 })).resolves.toBe(`${ORIGIN}/sandbox/v1`);
    expect(container.register).not.toHaveBeenCalled();
    expect(theirs.active?.posted).toEqual([VERSION_QUESTION]);
  });

  it('waits for a registration under way to name its script: another one is refused, its own is used', async () => {
    for (const [script, outcome] of [
      [APP_WORKER, 'scope-taken'],
      [SCRIPT, 'started']
    ] as const) {
      const pending = new FakeRegistration(`${ORIGIN}/`);
      const { container } = withRegistrations(pending);
      container.controller = null;
      setTimeout(() => pending.replacedBy(new FakeWorker(script), container), 5);
      browserWith({ container });
      const result = await startSandbox({ timeoutMs: 1_000 }).then(
        () => 'started',
        (e: SandboxError) => e.code
      );
      expect(result, script).toBe(outcome);
      expect(container.register).not.toHaveBeenCalled();
    }
  });
});

describe("startSandbox: the worker's version", () => {
  it('refuses a worker of another version, after checking the script for an update, and says to rerun `opalite init`', async () => {
    const { container, registration, worker } = registered('active');
    container.controller = worker;
    worker.version = '0.0.1';
    browserWith({ container });
    const error = await failure(startSandbox({ timeoutMs: 1_000 }));
    expect(error.code).toBe('version-mismatch');
    expect(error.message).toContain(`is from opalite 0.0.1, but this page's opalite/browser is ${PACKAGE_VERSION}`);
    expect(error.message).toContain('Rerun `npx opalite init <your static folder>`');
    expect(registration.update).toHaveBeenCalledTimes(1);
    expect(worker.posted).toEqual([VERSION_QUESTION, VERSION_QUESTION]);
  });

  it('refuses a worker that never tells its version (copied by an older opalite)', async () => {
    vi.useFakeTimers();
    try {
      const { container, worker } = registered('active');
      container.controller = worker;
      worker.version = null;
      browserWith({ container });
      const refused = failure(startSandbox({ timeoutMs: 60_000 }));
      await vi.advanceTimersByTimeAsync(20_000);
      const error = await refused;
      expect(error.code).toBe('version-mismatch');
      expect(error.message).toMatch(/did not tell its version.*older opalite.*Rerun `npx opalite init/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a short timeout while the worker is silent says what it waited for', async () => {
    const { container, worker } = registered('active');
    container.controller = worker;
    worker.version = null;
    browserWith({ container });
    await expectFailure(startSandbox({ timeoutMs: 30 }), 'timeout', /did not tell its version .*npx opalite init.* within 30 ms/);
  });

  it('takes the newer worker that an update brings (the script was copied again since the worker installed)', async () => {
    const { container, registration, worker } = registered('active');
    container.controller = worker;
    worker.version = '0.0.1';
    const newer = new FakeWorker(SCRIPT);
    registration.onUpdate = () => registration.replacedBy(newer, container);
    browserWith({ container });
    await expect(startSandbox({ timeoutMs: 1_000 })).resolves.toBe(`${ORIGIN}/sandbox/v1`);
    expect(newer.posted).toEqual([VERSION_QUESTION]);
  });

  it('waits for an update under way before asking (the old worker still controls the page)', async () => {
    const { container, registration, worker } = registered('active');
    container.controller = worker;
    worker.version = '0.0.1';
    const newer = new FakeWorker(SCRIPT);
    registration.installing = newer;
    container.register.mockImplementation(async () => {
      setTimeout(() => {
        registration.installing = null;
        registration.active = newer;
        newer.becomes('activated');
        container.controlledBy(newer);
      });
      return registration;
    });
    browserWith({ container });
    await expect(startSandbox({ timeoutMs: 1_000 })).resolves.toBe(`${ORIGIN}/sandbox/v1`);
    expect(worker.posted).toEqual([]);
    expect(registration.update).not.toHaveBeenCalled();
  });
});

describe('stopSandbox', () => {
  it("unregisters the sandbox worker only, not the app's own", async () => {
    const container = new FakeContainer();
    const ours = new FakeRegistration();
    ours.active = new FakeWorker(SCRIPT, 'activated');
    const theirs = new FakeRegistration(`${ORIGIN}/admin/`);
    theirs.active = new FakeWorker(`${ORIGIN}/admin/sw.js`, 'activated');
    container.getRegistrations.mockResolvedValue([theirs, ours]);
    browserWith({ container });
    await expect(stopSandbox()).resolves.toBe(true);
    expect(ours.unregister).toHaveBeenCalledTimes(1);
    expect(theirs.unregister).not.toHaveBeenCalled();
  });

  it('is false where there is nothing to stop', async () => {
    browserWith({});
    await expect(stopSandbox()).resolves.toBe(false);
    const container = new FakeContainer();
    browserWith({ container });
    await expect(stopSandbox()).resolves.toBe(false);
  });
});
