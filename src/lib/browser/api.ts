// How the page reaches the built-in REST API. When a service worker controls the page, a
// request to `<origin>/sandbox/...` or `<origin>/ipfs/<cid>` simply goes to the network and the
// worker answers it. When none does (Shift+reload, no service-worker support, a first visit whose
// new worker does not take over within seconds), the page answers those requests itself: the
// same handler on the same database, writing under the same Web Lock. Nothing of the ledger is
// imported here: its code (the API, IndexedDB, IPFS) loads only when the page must answer.
import { version } from '$app/environment';
import { isApiPath, isFilePath } from '../client/sandbox-paths';
import type { ApiFetch } from '../state/transport';
import type { BrowserHost } from './browser-host';

const nativeFetch: typeof fetch = globalThis.fetch.bind(globalThis);
let inPage: Promise<BrowserHost> | null = null;
/** Resolves true once a worker being installed for this page controls it (see `awaitWorker`). */
let workerComing: Promise<boolean> | null = null;

export function isControlled(): boolean {
  return typeof navigator !== 'undefined' && !!navigator.serviceWorker?.controller;
}

/** Requests the built-in ledger answers: its REST API and its file gateway, on this origin. */
function isLedgerRequest(url: URL): boolean {
  return url.origin === location.origin && (isApiPath(url.pathname) || isFilePath(url.pathname));
}

/**
 * A first visit: the worker being installed will control the page (it claims its clients), so
 * ledger requests wait for it instead of loading the whole ledger into the page as well.
 * `takesOver` resolves false when no worker will (registration failed, too slow): the page answers.
 */
export function awaitWorker(takesOver: Promise<boolean>): void {
  workerComing = takesOver.catch(() => false);
}

/** Whether the page must answer the ledger itself: no worker controls it, none is on its way. */
async function mustAnswer(): Promise<boolean> {
  if (isControlled()) return false;
  if (workerComing && (await workerComing)) return !isControlled();
  return true;
}

/** The in-page host, opened on first use (its code is loaded only then). */
function inPageHost(): Promise<BrowserHost> {
  // Zod is configured before the host's modules run (the page's policy forbids eval).
  inPage ??= import('./jitless-zod')
    .then(() => import('./browser-host'))
    .then(({ openBrowserHost }) =>
      openBrowserHost({
        kind: 'page',
        appVersion: version,
        onClosed: () => {
          // Deleted or upgraded under us: the next request opens the database afresh.
          const stale = inPage;
          inPage = null;
          void stale?.then((h) => h.close()).catch(() => {});
        }
      })
    )
    .catch((error: unknown) => {
      inPage = null;
      throw error;
    });
  return inPage;
}

/** `fetch`, with the built-in ledger's requests answered in the page when no worker controls it. */
export const apiFetch: ApiFetch = async (input, init) => {
  const request = new Request(input, init);
  if (!isLedgerRequest(new URL(request.url)) || !(await mustAnswer())) return nativeFetch(request);
  const open = await inPageHost();
  try {
    return await open.host.handle(request);
  } catch (error) {
    // The page answers for the ledger here, as the worker would: an envelope, never a rejection.
    const { errorResponseFor } = await import('../api/errors');
    return errorResponseFor(error);
  }
};

/** The fetch the app and its client use; opens the in-page host first when it will be needed. */
export async function ensureApi(): Promise<ApiFetch> {
  if (await mustAnswer()) await inPageHost();
  return apiFetch;
}

/**
 * Route the page's plain `fetch` calls through apiFetch, so other code of the page (and scripts
 * pasted in the console) reach the built-in API whether or not a worker controls the page.
 * Returns the undo.
 */
export function installFetchFallback(): () => void {
  const previous = globalThis.fetch;
  globalThis.fetch = apiFetch as typeof fetch;
  return () => {
    globalThis.fetch = previous;
  };
}

/**
 * A URL an `<img>` can show for `url`: as is, unless it is one of the built-in files and no worker
 * controls the page, then an object URL of the bytes (revoke it when done).
 */
export async function displayableUrl(url: string): Promise<string> {
  const target = new URL(url, location.href);
  if (target.origin !== location.origin || !isFilePath(target.pathname) || !(await mustAnswer())) return url;
  const response = await apiFetch(target);
  return response.ok ? URL.createObjectURL(await response.blob()) : url;
}
