// The apps the person allowed to use this Opalite's sandbox, in the Opalite origin's localStorage
// (one versioned key): per app its exact origin, when it was allowed, when it last used the
// sandbox, and the wallet accounts shared with it. Consent lapses 30 days after the last use, so a
// loopback port allowed months ago does not connect whatever is served there now. Every window of
// the origin reads the same record, so a change on the Network page reaches an open /connect
// window at its next message, and through the `storage` event at once. Validated on read: a
// damaged entry allows nobody.
import { MAX_ADDRESS_LENGTH } from '../limits';

export const CONSENT_KEY = 'opalite:connect:v2';
/** What Opalite before accounts stored: `{ v: 1, origins: [{ origin, allowedAt }] }`. */
export const LEGACY_CONSENT_KEY = 'opalite:connect:v1';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Consent lapses this long after the app last used the sandbox; then Opalite asks again. */
export const CONSENT_LIFETIME_MS = 30 * DAY_MS;
/** The last use is written at most this often per app (it moves on every request otherwise). */
export const LAST_USE_WRITE_INTERVAL_MS = 60_000;
/** A last use this far ahead of the clock is not believed (the clock moved back, or the record was edited). */
const CLOCK_SLACK_MS = 60 * 60 * 1000;
/** Plenty for a person's apps; bounds what a read parses. */
export const MAX_ALLOWED_APPS = 100;
/** Accounts one app may be given. */
export const MAX_SHARED_ACCOUNTS = 100;
const MAX_ORIGIN_LENGTH = 2048;
/** The most the record can hold when full, with room to spare: a longer one is damaged. */
const MAX_RECORD_LENGTH = 2 * 1024 * 1024;
/** An SS58 address as the wallet writes it. */
const SS58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
/** Plain-http hosts that are this computer: nobody on the network can pose as them. */
const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

export interface AppConsent {
  /** The app's exact origin (scheme, host and port). */
  origin: string;
  /** Milliseconds since the epoch. */
  allowedAt: number;
  /** The last request or signature the app made (written at most once a minute). */
  lastUsedAt: number;
  /** The wallet accounts (their wallet addresses) the app sees and may ask signatures of. */
  accounts: string[];
}

interface Stored {
  v: 2;
  apps: AppConsent[];
}

/**
 * Why `origin` cannot connect, or null when it can: an https origin, or plain http on this
 * computer (localhost, 127.0.0.1, [::1]), as the browser serialises it. Plain http elsewhere can
 * be posed as by anyone on the way, and an opaque origin ("null": sandboxed frames, file: pages)
 * names no one.
 */
export function originRefusal(origin: unknown): string | null {
  const rule = 'Only https pages, and http pages on this computer (localhost, 127.0.0.1, [::1]), can connect to Opalite';
  const unnamed = `${rule}: this page has no origin Opalite could remember (a sandboxed frame or a file)`;
  if (typeof origin !== 'string' || origin.length > MAX_ORIGIN_LENGTH) return unnamed;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return unnamed;
  }
  if (url.origin !== origin) return unnamed;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname)) return null;
  if (url.protocol === 'http:') {
    return `${origin.slice(0, 120)} is plain http on the network, where anyone on the way can pose as it: Opalite connects https pages, and http only on this computer (localhost, 127.0.0.1, [::1])`;
  }
  return rule;
}

function isAddress(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_ADDRESS_LENGTH && SS58.test(value);
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** The entry as stored, or null when any part of it is damaged. */
function entryOf(value: unknown): AppConsent | null {
  const entry = value as Partial<AppConsent> | null;
  if (!entry || typeof entry !== 'object' || originRefusal(entry.origin) !== null) return null;
  if (!isTime(entry.allowedAt) || !isTime(entry.lastUsedAt)) return null;
  const accounts = entry.accounts;
  if (!Array.isArray(accounts) || accounts.length > MAX_SHARED_ACCOUNTS || !accounts.every(isAddress)) return null;
  return { origin: entry.origin as string, allowedAt: entry.allowedAt, lastUsedAt: entry.lastUsedAt, accounts: [...new Set(accounts)] };
}

function isAlive(entry: AppConsent, now: number): boolean {
  return entry.lastUsedAt > now - CONSENT_LIFETIME_MS && entry.lastUsedAt <= now + CLOCK_SLACK_MS;
}

function parse(raw: string | null): unknown {
  if (raw === null || raw.length > MAX_RECORD_LENGTH) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/**
 * Consent as Opalite before accounts kept it (origin and date): kept, with no account shared, so
 * the app connects while the consent lasts and the person chooses its accounts in the Opalite
 * window; the date it was allowed counts as its last use (no later one was recorded).
 */
function migrated(raw: string | null): AppConsent[] {
  const stored = parse(raw) as { v?: unknown; origins?: unknown } | null;
  if (!stored || stored.v !== 1 || !Array.isArray(stored.origins)) return [];
  return stored.origins
    .slice(0, MAX_ALLOWED_APPS)
    .map((old: { origin?: unknown; allowedAt?: unknown } | null) => entryOf({ origin: old?.origin, allowedAt: old?.allowedAt, lastUsedAt: old?.allowedAt, accounts: [] }))
    .filter((entry): entry is AppConsent => entry !== null);
}

export class AppConsents {
  readonly #storage: Storage;
  readonly #now: () => number;

  constructor(storage: Storage = localStorage, now: () => number = Date.now) {
    this.#storage = storage;
    this.#now = now;
  }

  /** Every app whose consent lasts, most recently used first. */
  list(): AppConsent[] {
    const now = this.#now();
    return this.#read()
      .filter((entry) => isAlive(entry, now))
      .sort((a, b) => b.lastUsedAt - a.lastUsedAt);
  }

  /** The consent of `origin` while it lasts. */
  get(origin: string): AppConsent | undefined {
    return this.list().find((entry) => entry.origin === origin);
  }

  has(origin: string): boolean {
    return this.get(origin) !== undefined;
  }

  /** Remembers `origin` with `accounts` shared (again: its dates move). Throws when it cannot be stored. */
  allow(origin: string, accounts: readonly string[]): AppConsent {
    const refusal = originRefusal(origin);
    if (refusal) throw new Error(refusal);
    const now = this.#now();
    const others = this.list().filter((entry) => entry.origin !== origin);
    if (others.length >= MAX_ALLOWED_APPS) throw new Error(`Opalite remembers at most ${MAX_ALLOWED_APPS} apps: revoke one on the Network page first`);
    const entry = { origin, allowedAt: now, lastUsedAt: now, accounts: sharedList(accounts) };
    this.#save([entry, ...others]);
    return entry;
  }

  /** Replaces the accounts shared with `origin`; false when it is not (or no longer) allowed. Throws when it cannot be stored. */
  share(origin: string, accounts: readonly string[]): boolean {
    const list = this.list();
    const entry = list.find((candidate) => candidate.origin === origin);
    if (!entry) return false;
    entry.accounts = sharedList(accounts);
    this.#save(list);
    return true;
  }

  /**
   * Records that `origin` used the sandbox now, at most once a minute (a request is not a
   * storage write). Best effort: a storage that refuses only shortens the consent.
   */
  touch(origin: string): void {
    const now = this.#now();
    const list = this.list();
    const entry = list.find((candidate) => candidate.origin === origin);
    if (!entry || now - entry.lastUsedAt < LAST_USE_WRITE_INTERVAL_MS) return;
    entry.lastUsedAt = now;
    try {
      this.#save(list);
    } catch {
      // Nothing the app or the person could do about it; the consent lapses earlier.
    }
  }

  /** Forgets `origin`; true if it was allowed. */
  revoke(origin: string): boolean {
    const list = this.list();
    const rest = list.filter((entry) => entry.origin !== origin);
    if (rest.length === list.length) return false;
    this.#save(rest);
    return true;
  }

  /** What is stored, lapsed entries too; moves a legacy record to this one on first read. */
  #read(): AppConsent[] {
    const raw = this.#storage.getItem(CONSENT_KEY);
    if (raw === null) return this.#migrate();
    const stored = parse(raw) as Partial<Stored> | null;
    if (!stored || stored.v !== 2 || !Array.isArray(stored.apps)) return [];
    return stored.apps
      .slice(0, MAX_ALLOWED_APPS)
      .map(entryOf)
      .filter((entry): entry is AppConsent => entry !== null);
  }

  #migrate(): AppConsent[] {
    const legacy = this.#storage.getItem(LEGACY_CONSENT_KEY);
    if (legacy === null) return [];
    const apps = migrated(legacy);
    try {
      this.#save(apps);
      this.#storage.removeItem(LEGACY_CONSENT_KEY);
    } catch {
      // Read from the legacy record again next time.
    }
    return apps;
  }

  /** Lapsed entries are dropped with every write. */
  #save(apps: AppConsent[]): void {
    const now = this.#now();
    const kept = apps.filter((entry) => isAlive(entry, now));
    try {
      this.#storage.setItem(CONSENT_KEY, JSON.stringify({ v: 2, apps: kept } satisfies Stored));
    } catch (error) {
      throw new Error('Opalite cannot store this choice (the browser refuses to store data for this site)', { cause: error });
    }
  }
}

/** The accounts to store: addresses, each once, within the bound. */
function sharedList(accounts: readonly string[]): string[] {
  const unique = [...new Set(accounts)];
  const bad = unique.find((address) => !isAddress(address));
  if (bad !== undefined) throw new Error(`${String(bad).slice(0, 66)} is not a wallet address`);
  if (unique.length > MAX_SHARED_ACCOUNTS) throw new Error(`An app can be given at most ${MAX_SHARED_ACCOUNTS} accounts`);
  return unique;
}

/** Calls `onChange` when another window of this origin changes the consents; returns the stop. */
export function watchConsents(onChange: () => void): () => void {
  const listener = (event: StorageEvent) => {
    // key null: the whole storage was cleared.
    if (event.key === CONSENT_KEY || event.key === null) onChange();
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}
