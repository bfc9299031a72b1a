// The app's settings, kept in localStorage: which REST service the UI talks to (the built-in
// sandbox or a remote base_url) and which wallet account acts. Versioned key, validated on read.
import { NETWORK } from '../client/sandbox-paths';
import { normalizeBaseUrl } from '../client/client';

export type NetworkSetting = { kind: 'sandbox' } | { kind: 'remote'; baseUrl: string };

interface Stored {
  v: 1;
  network: NetworkSetting;
  account: string | null;
  recentRemotes: string[];
}

export const SETTINGS_KEY = 'opalite:settings:v1';
/** The built-in ledger's network segment (the service worker answers `<origin>/sandbox/v1`). */
export const SANDBOX_PATH = `/${NETWORK}/v1`;

function defaults(): Stored {
  return { v: 1, network: { kind: 'sandbox' }, account: null, recentRemotes: [] };
}

function load(): Stored {
  if (typeof localStorage === 'undefined') return defaults();
  try {
    const raw = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? 'null') as Partial<Stored> | null;
    if (!raw || raw.v !== 1) return defaults();
    const network: NetworkSetting =
      raw.network?.kind === 'remote' && typeof raw.network.baseUrl === 'string' ? { kind: 'remote', baseUrl: normalizeBaseUrl(raw.network.baseUrl) } : { kind: 'sandbox' };
    return {
      v: 1,
      network,
      account: typeof raw.account === 'string' ? raw.account : null,
      recentRemotes: Array.isArray(raw.recentRemotes) ? raw.recentRemotes.filter((u): u is string => typeof u === 'string').slice(0, 5) : []
    };
  } catch {
    // A damaged entry is replaced by the defaults rather than breaking the app.
    return defaults();
  }
}

class Settings {
  #stored = $state<Stored>(load());

  get network(): NetworkSetting {
    return this.#stored.network;
  }

  get isSandbox(): boolean {
    return this.#stored.network.kind === 'sandbox';
  }

  /** The REST base URL in use: `<origin>/sandbox/v1` or the remote one. */
  get baseUrl(): string {
    const network = this.#stored.network;
    if (network.kind === 'remote') return network.baseUrl;
    return typeof location === 'undefined' ? `http://localhost${SANDBOX_PATH}` : `${location.origin}${SANDBOX_PATH}`;
  }

  /** The wallet account that signs, or null (the first account is used then). */
  get account(): string | null {
    return this.#stored.account;
  }

  get recentRemotes(): string[] {
    return this.#stored.recentRemotes;
  }

  useSandbox(): void {
    this.#save({ ...this.#stored, network: { kind: 'sandbox' } });
  }

  /** Switches to a remote REST service; throws a readable error for a bad URL. */
  useRemote(baseUrl: string): void {
    const url = normalizeBaseUrl(baseUrl);
    const recentRemotes = [url, ...this.#stored.recentRemotes.filter((u) => u !== url)].slice(0, 5);
    this.#save({ ...this.#stored, network: { kind: 'remote', baseUrl: url }, recentRemotes });
  }

  selectAccount(address: string | null): void {
    if (address === this.#stored.account) return;
    this.#save({ ...this.#stored, account: address });
  }

  #save(next: Stored): void {
    this.#stored = next;
    try {
      localStorage.setItem(SETTINGS_KEY, JSON.stringify(next));
    } catch {
      // Private mode or full storage: the setting holds for this visit.
    }
  }
}

export const settings = new Settings();
