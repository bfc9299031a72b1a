// The service worker: a thin relay. It precaches the app shell, answers the REST API and the
// file gateway with the shared LedgerHost, and speaks the versioned hello protocol with pages.
// Its globals vanish whenever the browser stops an idle worker, so the host is opened lazily on
// the first request that needs it, and again after the database connection closes.
import { ApiError, errorResponseFor } from '../api/errors';
import { ipfsPathCid } from '../api/routes/ipfs';
import { DB_SCHEMA_VERSION } from '../storage/schema';
import { openBrowserHost, type BrowserHost } from './browser-host';
import { isApiPath } from './paths';
import { hello, readHello } from './protocol';
import type { FetchEvent, ServiceWorkerScope } from './worker-types';

/** What SvelteKit's `$service-worker` module tells the worker about its build. */
export interface WorkerBuild {
  version: string;
  base: string;
  build: string[];
  files: string[];
  prerendered: string[];
}

const CACHE_PREFIX = 'opalite-shell-';

/** 503: the ledger cannot be opened here (the envelope every host builds, with this status). */
function errorEnvelope(status: number, message: string): Response {
  return errorResponseFor(new ApiError('SdkError', message, undefined, status));
}

/** Why the ledger could not be opened, in words a person can act on. */
function unavailable(error: unknown): Response {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'VersionError' || name === 'UpgradeError') {
    return errorEnvelope(503, 'A newer version of Opalite has upgraded the ledger database. Reload the page to update the app.');
  }
  const message = error instanceof Error ? error.message : String(error);
  return errorEnvelope(503, `The built-in ledger could not be opened in this browser: ${message}`);
}

export function startServiceWorker(scope: ServiceWorkerScope, app: WorkerBuild): void {
  const cacheName = `${CACHE_PREFIX}${app.version}`;
  const shell = `${app.base}/`;
  const assets = [...new Set([...app.build, ...app.files, ...app.prerendered, shell])];
  const precached = new Set(assets);
  let opened: Promise<BrowserHost> | null = null;

  function host(): Promise<BrowserHost> {
    opened ??= openBrowserHost({
      kind: 'service-worker',
      appVersion: app.version,
      onClosed: () => {
        // Deleted or upgraded under us: the next request opens the database afresh.
        const stale = opened;
        opened = null;
        void stale?.then((h) => h.close()).catch(() => {});
      }
    }).catch((error: unknown) => {
      opened = null;
      throw error;
    });
    return opened;
  }

  async function answer(request: Request): Promise<Response> {
    let open: BrowserHost;
    try {
      open = await host();
    } catch (error) {
      return unavailable(error);
    }
    try {
      return await open.host.handle(request);
    } catch (error) {
      // The handler answers its own errors; this is the host failing around it.
      return errorResponseFor(error);
    }
  }

  async function fromShell(request: Request): Promise<Response> {
    const cached = await (await caches.open(cacheName)).match(shell);
    return cached ?? fetch(request);
  }

  async function fromCache(request: Request): Promise<Response> {
    const cached = await (await caches.open(cacheName)).match(request);
    return cached ?? fetch(request);
  }

  scope.addEventListener('install', (event) => {
    // A new version installs in the background; it waits until the page asks it to take over.
    event.waitUntil(
      caches.open(cacheName).then((cache) => cache.addAll(assets.map((url) => new Request(url, { cache: 'reload' }))))
    );
  });

  scope.addEventListener('activate', (event) => {
    event.waitUntil(
      (async () => {
        for (const key of await caches.keys()) if (key.startsWith(CACHE_PREFIX) && key !== cacheName) await caches.delete(key);
        // Take the pages opened before this worker (first visit), so their requests come here.
        await scope.clients.claim();
      })()
    );
  });

  scope.addEventListener('fetch', (event: FetchEvent) => {
    const { request } = event;
    const url = new URL(request.url);
    // Other origins (a remote base_url, anything else): the network's business.
    if (url.origin !== scope.location.origin) return;
    // The REST API of the built-in ledger.
    if (isApiPath(url.pathname)) return event.respondWith(answer(request));
    // Uploaded files, served by CID from the ledger database.
    if (ipfsPathCid(url.pathname) !== null) return event.respondWith(answer(request));
    // Nothing else of ours changes state.
    if (request.method !== 'GET') return;
    // Pages: the precached shell, so the app opens offline and always matches this worker's build.
    if (request.mode === 'navigate') return event.respondWith(fromShell(request));
    // The build's own files.
    if (precached.has(url.pathname)) return event.respondWith(fromCache(request));
  });

  scope.addEventListener('message', (event) => {
    const data = event.data as { type?: unknown } | null;
    // workbox-window's prompt flow: the person accepted the update.
    if (data?.type === 'SKIP_WAITING') return event.waitUntil(scope.skipWaiting());
    // A page asks who we are; the reply goes to its MessageChannel port when it sent one.
    if (readHello(data)) (event.ports[0] ?? event.source)?.postMessage(hello(app.version, DB_SCHEMA_VERSION));
    // 'keep-alive' needs no answer: receiving it is what keeps this worker from idling out.

  });
}
