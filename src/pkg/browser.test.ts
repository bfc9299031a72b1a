// startSandbox()/stopSandbox() against a fake navigator.serviceWorker: every way the sandbox can
// fail to start gives a SandboxError that says why, and each way a page comes under the worker's
// control (first install, an earlier visit, a page loaded past the worker) resolves.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SANDBOX_CLAIM_MESSAGE, SandboxError, startSandbox, stopSandbox, type SandboxErrorCode } from './browser';

const ORIGIN = 'https://dapp.example';
const SCRIPT = `${ORIGIN}/opalite-sandbox-worker.js`;

class FakeWorker extends EventTarget {
  readonly posted: unknown[] = [];
  onPost: (message: unknown) => void = () => {};
  constructor(
    readonly scriptURL: string,
    public state: string = 'installing'
  ) {
    super();
  }
  postMessage(message: unknown): void {
    this.posted.push(message);
    this.onPost(message);
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
  constructor(readonly scope = `${ORIGIN}/`) {
    super();
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

describe('startSandbox: taking control', () => {
  it('registers the script as a classic worker for the whole origin and resolves once the new worker claims the page', async () => {
    // Install, skipWaiting, activate, clients.claim(): what the sandbox worker does.
    const { container, registration, worker } = registered('installing', {
      then: () => {
        registration.installing = null;
        registration.active = worker;
        worker.becomes('activated');
        container.controlledBy(worker);
      }
    });
    browserWith({ container });
    await expect(startSandbox()).resolves.toBe(`${ORIGIN}/sandbox/v1`);
    expect(container.register).toHaveBeenCalledWith(SCRIPT, { scope: `${ORIGIN}/`, type: 'classic', updateViaCache: 'none' });
  });

  it('resolves at once when the worker already controls the page', async () => {
    const { container, worker } = registered('active');
    container.controller = worker;
    browserWith({ container, href: `${ORIGIN}/deep/page?x=1` });
    await expect(startSandbox({ timeoutMs: 30 })).resolves.toBe(`${ORIGIN}/sandbox/v1`);
    expect(worker.posted).toEqual([]);
  });

  it('asks an active worker to claim a page loaded past it (shift+reload)', async () => {
    const { container, worker } = registered('active');
    worker.onPost = (message) => {
      if ((message as { type?: unknown }).type === SANDBOX_CLAIM_MESSAGE) container.controlledBy(worker);
    };
    browserWith({ container });
    await expect(startSandbox({ timeoutMs: 1_000 })).resolves.toBe(`${ORIGIN}/sandbox/v1`);
    expect(worker.posted).toEqual([{ type: SANDBOX_CLAIM_MESSAGE }]);
  });

  it('takes a script URL and scope relative to the page', async () => {
    const { container, worker } = registered('active', { script: `${ORIGIN}/app/static/sw.js`, scope: `${ORIGIN}/app/` });
    container.controller = worker;
    browserWith({ container, href: `${ORIGIN}/app/home` });
    await expect(startSandbox({ scriptUrl: 'static/sw.js', scope: './' })).resolves.toBe(`${ORIGIN}/sandbox/v1`);
    expect(container.register).toHaveBeenCalledWith(`${ORIGIN}/app/static/sw.js`, expect.objectContaining({ scope: `${ORIGIN}/app/` }));
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
