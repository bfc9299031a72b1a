// The service worker: a thin relay. It precaches the app shell, answers the REST API and the
// file gateway with the shared LedgerHost (ledger-responder.ts opens it lazily: the browser stops
// an idle worker and its globals vanish), and speaks the versioned hello protocol with pages.
import { DB_SCHEMA_VERSION } from '../storage/schema';
import { isLedgerRequest, ledgerResponder } from './ledger-responder';
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

export function startServiceWorker(scope: ServiceWorkerScope, app: WorkerBuild): void {
  const cacheName = `${CACHE_PREFIX}${app.version}`;
  const shell = `${app.base}/`;
  const assets = [...new Set([...app.build, ...app.files, ...app.prerendered, shell])];
  const precached = new Set(assets);
  const answer = ledgerResponder({ appVersion: app.version });

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
    // The pages it takes ask the ledger first: it opens meanwhile.
    answer.warm();
  });

  scope.addEventListener('fetch', (event: FetchEvent) => {
    const { request } = event;
    const url = new URL(request.url);
    // The REST API of the built-in ledger, and uploaded files served by CID from its database.
    if (isLedgerRequest(url, scope.location.origin)) return event.respondWith(answer(request));
    // Other origins (a remote base_url, anything else): the network's business.
    if (url.origin !== scope.location.origin) return;
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
