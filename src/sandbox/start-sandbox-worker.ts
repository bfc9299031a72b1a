// The sandbox worker's behaviour: it answers the REST API's routes at `<origin>/sandbox/v1/…` (and
// `/sandbox/…`) and `GET <origin>/ipfs/<cid>` from a ledger in the app's IndexedDB, and leaves every
// other request alone (sandbox-requests.ts): no precache, no navigation handling, no respondWith.
// The app around it keeps its own caching and routing. It tells pages its version when asked.
import type { ServiceWorkerScope } from '../lib/browser/worker-types';
import { SANDBOX_CLAIM_MESSAGE, SANDBOX_MESSAGE_VERSION, SANDBOX_VERSION_MESSAGE } from '../pkg/browser';
import { ledgerResponder } from '../lib/browser/ledger-responder';
import { answersRequest } from './sandbox-requests';

/** Not the Opalite app's `opalite-ledger`, in case an app and Opalite ever share an origin. */
export const SANDBOX_DB_NAME = 'opalite-sandbox';

export interface SandboxWorkerOptions {
  /** The opalite package version, reported by `/dev/status` and to a page that asks (startSandbox() compares it with its own). */
  appVersion: string;
  dbName?: string;
}

export function startSandboxWorker(scope: ServiceWorkerScope, options: SandboxWorkerOptions): void {
  const answer = ledgerResponder({ appVersion: options.appVersion, dbName: options.dbName ?? SANDBOX_DB_NAME });

  // Nothing to precache and no state a newer worker must wait for: take over at once.
  scope.addEventListener('install', (event) => event.waitUntil(scope.skipWaiting()));
  // Control the pages opened before this worker, so startSandbox() resolves without a reload.
  // And open the ledger meanwhile: the page that started it asks at once.
  scope.addEventListener('activate', (event) => {
    event.waitUntil(scope.clients.claim());
    answer.warm();
  });

  scope.addEventListener('fetch', (event) => {
    if (answersRequest(event.request, scope.location.origin)) event.respondWith(answer(event.request));
  });

  scope.addEventListener('message', (event) => {
    // A page loaded past this worker (shift+reload) asks to be controlled.
    const data = event.data as { type?: unknown } | null;
    if (data?.type === SANDBOX_CLAIM_MESSAGE) event.waitUntil(scope.clients.claim());
    // Any question's version gets this answer: its shape is version 1, and the version in it is all a page needs.
    if (data?.type === SANDBOX_VERSION_MESSAGE) event.ports[0]?.postMessage({ type: SANDBOX_VERSION_MESSAGE, v: SANDBOX_MESSAGE_VERSION, version: options.appVersion });
  });
}
