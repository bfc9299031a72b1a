// "Act as" any address in a sandbox (Anvil's impersonation): whether the service in use offers
// it and has it on (its /dev/status), and the address the app acts as. Acting holds only on the
// service it was chosen on, while that service has impersonation on; a remote service never.
// The address is kept for this tab (sessionStorage), so a reload keeps acting; nothing secret.
// No address codec here: it is loaded with the first page (the picker, which checks addresses, loads when opened).
import { devToolsPlace, type DevToolsPlace } from '../client/dev-tools';
import { MAX_ADDRESS_LENGTH } from '../limits';
import { connection } from './connection.svelte';
import { settings } from './settings.svelte';

const ACTING_KEY = 'opalite.acting-as.v1';
/** The shape of an SS58 address (the picker checked its checksum). */
const SS58 = /^[1-9A-HJ-NP-Za-km-z]{40,64}$/;

interface Acting {
  baseUrl: string;
  address: string;
}

function loadActing(): Acting | null {
  try {
    const raw = JSON.parse(sessionStorage.getItem(ACTING_KEY) ?? 'null') as Partial<Acting> | null;
    if (typeof raw?.baseUrl !== 'string' || typeof raw.address !== 'string' || !SS58.test(raw.address)) return null;
    return { baseUrl: raw.baseUrl, address: raw.address };
  } catch {
    return null;
  }
}

class Impersonation {
  /** What the service at `baseUrl` said: null until asked, or when it has no dev tools. */
  #status = $state<{ baseUrl: string; enabled: boolean } | null>(null);
  #acting = $state<Acting | null>(typeof sessionStorage === 'undefined' ? null : loadActing());

  /** Where the service in use is: impersonation and the dev tools exist only off 'remote'. */
  get place(): DevToolsPlace {
    return devToolsPlace(settings.baseUrl, settings.isSandbox);
  }

  /** The service in use answers the dev tools (an Opalite sandbox here or on this machine). */
  get offered(): boolean {
    return this.place !== 'remote' && this.#status?.baseUrl === settings.baseUrl;
  }

  /** Impersonation is on at the service in use. */
  get enabled(): boolean {
    return this.offered && this.#status!.enabled;
  }

  /** The address the app acts as now, or null (not acting, another service, or impersonation off). */
  get actingAs(): string | null {
    const acting = this.#acting;
    return acting && this.enabled && acting.baseUrl === settings.baseUrl ? acting.address : null;
  }

  /** Whether `address` is the one acted as now (so it signs by impersonation, not with a key). */
  isActing(address: string | null | undefined): boolean {
    return !!address && this.actingAs === address;
  }

  /** Asks the service in use whether it impersonates (safe in an effect; a remote one is never asked). */
  async refresh(): Promise<void> {
    const client = connection.client;
    if (this.place === 'remote') {
      this.#status = null;
      return;
    }
    try {
      const status = await client.devStatus();
      if (client !== connection.client) return;
      this.#status = typeof status.impersonate === 'boolean' ? { baseUrl: client.baseUrl, enabled: status.impersonate } : null;
    } catch {
      if (client === connection.client) this.#status = null;
    }
  }

  /** Switch impersonation at the service in use; off ends acting. */
  async setEnabled(enabled: boolean): Promise<boolean> {
    if (this.place === 'remote') throw new Error(`${settings.baseUrl} is remote: impersonation exists only in a sandbox`);
    const client = connection.client;
    const now = await client.devImpersonation(enabled);
    this.#status = { baseUrl: client.baseUrl, enabled: now };
    if (!now) this.stop();
    return now;
  }

  /** Act as `address` on the service in use; throws a readable error when it cannot. */
  actAs(address: string): void {
    const trimmed = address.trim();
    if (!this.enabled) throw new Error('Impersonation is off: switch it on on the Network page first');
    if (trimmed.length > MAX_ADDRESS_LENGTH || !SS58.test(trimmed)) throw new Error(`Not an address: ${JSON.stringify(trimmed.slice(0, 70))}`);
    this.#save({ baseUrl: settings.baseUrl, address: trimmed });
  }

  stop(): void {
    this.#save(null);
  }

  #save(next: Acting | null): void {
    this.#acting = next;
    try {
      if (next) sessionStorage.setItem(ACTING_KEY, JSON.stringify(next));
      else sessionStorage.removeItem(ACTING_KEY);
    } catch {
      // Storage refused: acting holds for this page.
    }
  }
}

export const impersonation = new Impersonation();
