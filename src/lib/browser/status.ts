// The browser host's side of the page's host status (src/lib/state/host-status.svelte.ts): who
// answers the API, the chain head, the worker's version compared with the page's, a waiting
// update, persistence. Provided at the app's start; the root layout starts it.
import { dev, version } from '$app/environment';
import { NETWORK } from '../client/sandbox-paths';
import type { DevStatus } from '../client/types';
import { hostStatus } from '../state/host-status.svelte';
import { awaitWorker, ensureApi, installFetchFallback, isControlled } from './api';
import { isPersisted, requestPersistence } from './persist';
import { KEEP_ALIVE_MS, LEDGER_CHANNEL, PROTOCOL_VERSION, compareWithWorker, describeCompatibility, hello, readChannelMessage } from './protocol';
import { greetWorker, registerServiceWorker, serviceWorkerSupported, workerTakesOver } from './register';

/** How long a first visit waits for its new worker before answering the ledger in the page. */
const FIRST_INSTALL_WAIT_MS = 5000;

let acceptUpdate: (() => void) | null = null;
let started = false;

/** Switch to the waiting version (the page reloads once it controls). */
export function applyUpdate(): void {
  acceptUpdate?.();
}

/** Ask the browser to keep this site's data (a person's explicit request). */
export async function keepData(): Promise<void> {
  hostStatus.persisted = await requestPersistence();
}

async function refreshChain(): Promise<void> {
  try {
    const api = await ensureApi();
    const response = await api(`/${NETWORK}/v1/dev/status`);
    if (!response.ok) throw new Error(`${response.status}: ${(await response.text()).slice(0, 200)}`);
    hostStatus.chain = (await response.json()) as DevStatus;
    hostStatus.api = isControlled() ? 'service-worker' : 'page';
    hostStatus.error = null;
  } catch (error) {
    hostStatus.api = 'unavailable';
    hostStatus.error = error instanceof Error ? error.message : String(error);
  }
}

async function greet(): Promise<void> {
  // The schema module sits beside the ledger's storage code: loaded when greeting, not with the page.
  const { DB_SCHEMA_VERSION } = await import('../storage/schema');
  const page = hello(version, DB_SCHEMA_VERSION);
  const worker = await greetWorker(page);
  hostStatus.worker = worker;
  hostStatus.notice = worker ? describeCompatibility(compareWithWorker(page, worker)) : null;
  if (isControlled() && !worker) hostStatus.notice = 'The Opalite service worker does not answer; reload the page.';
}

/** Start once: fetch fallback, worker registration, channel listening. Returns the stop. */
export async function startHostStatus(): Promise<() => void> {
  if (started) return () => {};
  started = true;
  const uninstall = installFetchFallback();
  const registering = !dev && serviceWorkerSupported();
  let registrationFailed = () => {};
  if (registering) awaitWorker(workerTakesOver(FIRST_INSTALL_WAIT_MS, new Promise<void>((settle) => (registrationFailed = settle))));
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(LEDGER_CHANNEL) : null;
  channel?.addEventListener('message', (event) => {
    const message = readChannelMessage(event.data);
    if (!message) return;
    void refreshChain();
    // The first block holding a user's extrinsic is data worth keeping.
    if (message.type === 'block' && message.extrinsics > 0 && !hostStatus.persisted) {
      void requestPersistence({ auto: true }).then((granted) => (hostStatus.persisted = granted));
    }
  });
  hostStatus.persisted = await isPersisted();

  // In `vite dev` no worker is registered (a cached shell would fight hot reloading): the page
  // answers the API itself.
  if (registering) {
    try {
      await registerServiceWorker({
        onUpdateReady: (accept) => {
          acceptUpdate = accept;
          hostStatus.updateReady = true;
        },
        onControllerChange: () => void greet().then(refreshChain)
      });
    } catch (error) {
      registrationFailed();
      // The in-page host still answers; say why the app will not work offline.
      hostStatus.notice = `The service worker could not be registered, so Opalite will not open offline: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  await greet();
  await refreshChain();
  // Pooled extrinsics (manual and interval blocks) live in the worker's memory: keep it awake.
  const keepAlive = setInterval(() => {
    if (hostStatus.chain?.blockMode.kind === 'instant' || !isControlled()) return;
    navigator.serviceWorker.controller?.postMessage({ v: PROTOCOL_VERSION, type: 'keep-alive' });
  }, KEEP_ALIVE_MS);
  return () => {
    clearInterval(keepAlive);
    channel?.close();
    uninstall();
    started = false;
  };
}
