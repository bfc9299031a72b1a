// The REST service the UI talks to right now, as reactive state: its client (for the base_url in
// the settings), whether the device is online, whether the service answers, and a revision
// counter that moves whenever the ledger changes (a new block from any tab, an import, our own
// extrinsic), so pages know to read again.
import { RestClient } from '../client/client';
import { errorText } from '../client/errors';
import type { ChainProperties } from '../client/types';
import { settings } from './settings.svelte';
import { apiFetch, ledgerChannel } from './transport';

export type Reachability = 'unknown' | 'checking' | 'reachable' | 'unreachable';

const CHECK_TIMEOUT_MS = 8000;

class Connection {
  online = $state(typeof navigator === 'undefined' ? true : navigator.onLine);
  reachability = $state<Reachability>('unknown');
  /** Why the last check failed, in words. */
  problem = $state<string | null>(null);
  chain = $state<ChainProperties | null>(null);
  checkedAt = $state<number | null>(null);
  /** Moves on every change of the ledger; read it in an effect to reload. */
  revision = $state(0);

  #clients = new Map<string, RestClient>();
  /** Chain properties per base_url: what a signature made for that service is for (the signing rule's chain). */
  #chains = new Map<string, Promise<ChainProperties>>();
  #checkId = 0;

  /** The client for the base URL in the settings. */
  get client(): RestClient {
    const baseUrl = settings.baseUrl;
    let client = this.#clients.get(baseUrl);
    if (!client) {
      // apiFetch answers the built-in ledger in the page when no service worker does; any other
      // URL goes to the network untouched.
      client = new RestClient({ baseUrl, fetch: apiFetch });
      this.#clients.set(baseUrl, client);
    }
    return client;
  }

  /**
   * The chain properties of `client`'s service, asked once per base_url (the built-in sandbox and
   * a remote alike); `fresh` asks again (after a reset or an import the sandbox is a new chain).
   */
  chainOf(client: RestClient, fresh = false): Promise<ChainProperties> {
    const cached = fresh ? undefined : this.#chains.get(client.baseUrl);
    if (cached) return cached;
    const asked = client.chainProperties();
    this.#chains.set(client.baseUrl, asked);
    // A failed answer is not kept: the next signature asks again.
    asked.catch(() => this.#chains.get(client.baseUrl) === asked && this.#chains.delete(client.baseUrl));
    return asked;
  }

  /** The ledger changed (our extrinsic, another tab, an import): pages read again. */
  changed(): void {
    this.revision++;
  }

  /** Asks the service for its chain properties: reachable or not, and why. */
  async check(): Promise<boolean> {
    const id = ++this.#checkId;
    const client = this.client;
    this.reachability = 'checking';
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), CHECK_TIMEOUT_MS);
    try {
      const chain = await client.chainProperties(controller.signal);
      this.#chains.set(client.baseUrl, Promise.resolve(chain));
      if (id !== this.#checkId) return true;
      this.chain = chain;
      this.reachability = 'reachable';
      this.problem = null;
      return true;
    } catch (error) {
      if (id !== this.#checkId) return false;
      this.chain = null;
      this.reachability = 'unreachable';
      this.problem = controller.signal.aborted ? `${client.baseUrl} did not answer within ${CHECK_TIMEOUT_MS / 1000} seconds` : errorText(error);
      return false;
    } finally {
      clearTimeout(timer);
      if (id === this.#checkId) this.checkedAt = Date.now();
    }
  }

  /** Listens for online/offline and ledger changes; returns the stop. */
  start(): () => void {
    const onOnline = () => {
      this.online = true;
      void this.check();
    };
    const onOffline = () => {
      this.online = false;
    };
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(ledgerChannel()) : null;
    channel?.addEventListener('message', () => {
      if (settings.isSandbox) this.changed();
    });
    return () => {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
      channel?.close();
    };
  }
}

export const connection = new Connection();
