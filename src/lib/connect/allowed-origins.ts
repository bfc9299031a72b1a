// The origins the person allowed to use this Opalite's sandbox, in the Opalite origin's
// localStorage (one versioned key): the origin and when it was allowed, nothing else. Every
// window of the origin reads the same list, so a revocation on the Network page reaches an open
// /connect window at its next request, and through the `storage` event at once. Validated on
// read: a damaged entry allows nobody.
export const ALLOWED_ORIGINS_KEY = 'opalite:connect:v1';

/** Plenty for a person's apps; bounds what a read parses. */
export const MAX_ALLOWED_ORIGINS = 100;
const MAX_ORIGIN_LENGTH = 2048;

export interface AllowedOrigin {
  origin: string;
  /** Milliseconds since the epoch. */
  allowedAt: number;
}

interface Stored {
  v: 1;
  origins: AllowedOrigin[];
}

/**
 * Whether `origin` can be remembered: an http(s) origin as the browser serialises it. An opaque
 * origin ("null": sandboxed frames, file: pages) names no one in particular, so it is never allowed.
 */
export function isRememberableOrigin(origin: string): boolean {
  if (typeof origin !== 'string' || origin.length > MAX_ORIGIN_LENGTH) return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === origin;
  } catch {
    return false;
  }
}

function isEntry(value: unknown): value is AllowedOrigin {
  const entry = value as Partial<AllowedOrigin> | null;
  return !!entry && typeof entry === 'object' && isRememberableOrigin(entry.origin as string) && Number.isFinite(entry.allowedAt);
}

export class AllowedOrigins {
  readonly #storage: Storage;

  constructor(storage: Storage = localStorage) {
    this.#storage = storage;
  }

  /** Every allowed origin, most recently allowed first. */
  list(): AllowedOrigin[] {
    let raw: unknown;
    try {
      raw = JSON.parse(this.#storage.getItem(ALLOWED_ORIGINS_KEY) ?? 'null');
    } catch {
      return [];
    }
    const stored = raw as Partial<Stored> | null;
    if (!stored || stored.v !== 1 || !Array.isArray(stored.origins)) return [];
    return stored.origins
      .slice(0, MAX_ALLOWED_ORIGINS)
      .filter(isEntry)
      .map(({ origin, allowedAt }) => ({ origin, allowedAt }));
  }

  has(origin: string): boolean {
    return this.list().some((entry) => entry.origin === origin);
  }

  /** Remembers `origin` (again: its date moves). Throws when the choice cannot be stored. */
  allow(origin: string, now: number = Date.now()): void {
    if (!isRememberableOrigin(origin)) throw new Error(`${origin.slice(0, 120)} is not an origin Opalite can remember`);
    const others = this.list().filter((entry) => entry.origin !== origin);
    if (others.length >= MAX_ALLOWED_ORIGINS) throw new Error(`Opalite remembers at most ${MAX_ALLOWED_ORIGINS} apps: revoke one on the Network page first`);
    this.#save([{ origin, allowedAt: now }, ...others]);
  }

  /** Forgets `origin`; true if it was allowed. */
  revoke(origin: string): boolean {
    const list = this.list();
    const rest = list.filter((entry) => entry.origin !== origin);
    if (rest.length === list.length) return false;
    this.#save(rest);
    return true;
  }

  #save(origins: AllowedOrigin[]): void {
    try {
      this.#storage.setItem(ALLOWED_ORIGINS_KEY, JSON.stringify({ v: 1, origins } satisfies Stored));
    } catch (error) {
      throw new Error('Opalite cannot store this choice (the browser refuses to store data for this site)', { cause: error });
    }
  }
}

/** Calls `onChange` when another window of this origin changes the list; returns the stop. */
export function watchAllowedOrigins(onChange: () => void): () => void {
  const listener = (event: StorageEvent) => {
    // key null: the whole storage was cleared.
    if (event.key === ALLOWED_ORIGINS_KEY || event.key === null) onChange();
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}
