// The sandbox worker's behaviour: it answers the app's `<origin>/sandbox…` and `<origin>/ipfs/<cid>`
// from a ledger in the app's IndexedDB and leaves every other request alone: no precache, no
// navigation handling, no respondWith. The app around it keeps its own caching and routing.
import type { ServiceWorkerScope } from '../lib/browser/worker-types';
import { SANDBOX_CLAIM_MESSAGE } from '../pkg/browser';
import { isLedgerRequest, ledgerResponder } from '../lib/browser/ledger-responder';

/** Not the Opalite app's `opalite-ledger`, in case an app and Opalite ever share an origin. */
export const SANDBOX_DB_NAME = 'opalite-sandbox';

export interface SandboxWorkerOptions {
  /** The opalite package version, reported by `/dev/status`. */
  appVersion: string;
  dbName?: string;
}

export function startSandboxWorker(scope: ServiceWorkerScope, options: SandboxWorkerOptions): void {
  const answer = ledgerResponder({ appVersion: options.appVersion, dbName: options.dbName ?? SANDBOX_DB_NAME });

  // Nothing to precache and no state a newer worker must wait for: take over at once.
  scope.addEventListener('install', (event) => event.waitUntil(scope.skipWaiting()));
  // Control the pages opened before this worker, so startSandbox() resolves without a reload.
  scope.addEventListener('activate', (event) => event.waitUntil(scope.clients.claim()));

  scope.addEventListener('fetch', (event) => {
    if (isLedgerRequest(new URL(event.request.url), scope.location.origin)) event.respondWith(answer(event.request));
  });

  scope.addEventListener('message', (event) => {
    // A page loaded past this worker (shift+reload) asks to be controlled.
    const data = event.data as { type?: unknown } | null;
    if (data?.type === SANDBOX_CLAIM_MESSAGE) event.waitUntil(scope.clients.claim());
  });
}
