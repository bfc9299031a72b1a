// The page's way to the REST API: the browser host provides it once at the app's start
// (src/hooks.client.ts), and the UI, the state and the bridge take it from here, so none of them
// imports the host (its in-page fallback, its worker registration) and any host may provide it.
import { providedAtStart } from './provided-at-start';

export type ApiFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export interface Transport {
  /** `fetch`, with the built-in ledger's requests answered even when no service worker does. */
  fetch: ApiFetch;
  /** A URL an `<img>` can show for `url` (an object URL for a built-in file the page must read itself; revoke it). */
  displayableUrl(url: string): Promise<string>;
  /** The BroadcastChannel on which the built-in ledger announces its new blocks and replacements. */
  ledgerChannel: string;
}

const provided = providedAtStart<Transport>('transport to the REST API');
const transport = provided.get;

export const provideTransport = provided.provide;

/** The provided fetch, looked up at each call (so a module may hold it before the host starts). */
export const apiFetch: ApiFetch = async (input, init) => transport().fetch(input, init);

export async function displayableUrl(url: string): Promise<string> {
  return transport().displayableUrl(url);
}

export function ledgerChannel(): string {
  return transport().ledgerChannel;
}
