import { describe, expect, it } from 'vitest';
import {
  CONSENT_KEY,
  CONSENT_LIFETIME_MS,
  LAST_USE_WRITE_INTERVAL_MS,
  LEGACY_CONSENT_KEY,
  MAX_ALLOWED_APPS,
  MAX_SHARED_ACCOUNTS,
  AppConsents,
  originRefusal
} from './consent';
import { memoryStorage } from './testing/memory-storage';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const DAY = 24 * 60 * 60 * 1000;
const START = Date.UTC(2025, 0, 1);

/** A store over `storage` whose clock the test moves. */
function consentsAt(storage: Storage, start = START) {
  const clock = { now: start };
  return { consents: new AppConsents(storage, () => clock.now), clock };
}

describe('which origins can connect', () => {
  it('https origins and plain http on this computer only, exactly as the browser serialises them', () => {
    for (const origin of ['https://app.example', 'https://app.example:8443', 'http://localhost:5173', 'http://127.0.0.1:4173', 'http://[::1]:3000', 'http://localhost']) {
      expect(originRefusal(origin), origin).toBeNull();
    }
    expect(originRefusal('http://app.example')).toMatch(/^http:\/\/app\.example is plain http on the network, where anyone on the way can pose as it/);
    for (const origin of ['http://192.168.1.20:8080', 'http://127.0.0.2:8080', 'http://sub.localhost:5173', 'http://10.0.0.1']) {
      expect(originRefusal(origin), origin).toMatch(/plain http on the network/);
    }
    // Not an origin as a browser names one: opaque, a URL with a path, another scheme, a trailing slash.
    for (const origin of ['null', 'https://app.example/', 'https://app.example/page', 'file:///tmp/x.html', 'ftp://app.example', 'HTTPS://APP.EXAMPLE', '', 42, `https://${'a'.repeat(3000)}.example`]) {
      expect(originRefusal(origin), String(origin).slice(0, 40)).not.toBeNull();
    }
  });
});

describe('consent', () => {
  it('allows with the chosen accounts, lists the most recently used first, shares others and revokes', () => {
    const storage = memoryStorage();
    const { consents, clock } = consentsAt(storage);
    expect(consents.list()).toEqual([]);
    consents.allow('http://localhost:5173', [ALICE]);
    clock.now += 1000;
    consents.allow('https://app.example', []);
    expect(consents.list()).toEqual([
      { origin: 'https://app.example', allowedAt: START + 1000, lastUsedAt: START + 1000, accounts: [] },
      { origin: 'http://localhost:5173', allowedAt: START, lastUsedAt: START, accounts: [ALICE] }
    ]);
    expect(consents.has('https://app.example')).toBe(true);
    expect(consents.has('https://app.example:443')).toBe(false); // never normalised into a match
    expect(JSON.parse(storage.getItem(CONSENT_KEY)!)).toEqual({ v: 2, apps: expect.any(Array) });

    expect(consents.share('https://app.example', [BOB, ALICE, BOB])).toBe(true);
    expect(consents.get('https://app.example')?.accounts).toEqual([BOB, ALICE]);
    expect(consents.share('https://other.example', [ALICE])).toBe(false);

    expect(consents.revoke('https://app.example')).toBe(true);
    expect(consents.revoke('https://app.example')).toBe(false);
    expect(consents.list().map((entry) => entry.origin)).toEqual(['http://localhost:5173']);
  });

  it('refuses origins that cannot connect, too many apps, too many accounts and what is not an address', () => {
    const { consents } = consentsAt(memoryStorage());
    expect(() => consents.allow('http://app.example', [])).toThrow(/plain http on the network/);
    expect(() => consents.allow('null', [])).toThrow(/no origin Opalite could remember/);
    expect(() => consents.allow('https://app.example', ['not an address'])).toThrow(/is not a wallet address/);
    expect(() => consents.allow('https://app.example', Array.from({ length: MAX_SHARED_ACCOUNTS + 1 }, (_, i) => `5${'1'.repeat(10)}${i}`.replace(/0/g, 'z')))).toThrow(
      `An app can be given at most ${MAX_SHARED_ACCOUNTS} accounts`
    );
    expect(consents.list()).toEqual([]);
    for (let i = 0; i < MAX_ALLOWED_APPS; i++) consents.allow(`https://app${i}.example`, []);
    expect(() => consents.allow('https://one-more.example', [])).toThrow(`Opalite remembers at most ${MAX_ALLOWED_APPS} apps`);
    // Allowing again an app already there is not one more.
    expect(() => consents.allow('https://app7.example', [ALICE])).not.toThrow();
  });

  it('lapses 30 days after the last use, and a use moves that date', () => {
    const { consents, clock } = consentsAt(memoryStorage());
    consents.allow('https://app.example', [ALICE]);
    clock.now = START + CONSENT_LIFETIME_MS - 1;
    expect(consents.has('https://app.example')).toBe(true);
    consents.touch('https://app.example');
    expect(consents.get('https://app.example')?.lastUsedAt).toBe(START + CONSENT_LIFETIME_MS - 1);
    clock.now = START + CONSENT_LIFETIME_MS + 10 * DAY;
    expect(consents.has('https://app.example')).toBe(true);

    clock.now = START + CONSENT_LIFETIME_MS - 1 + CONSENT_LIFETIME_MS;
    expect(consents.has('https://app.example')).toBe(false);
    expect(consents.list()).toEqual([]);
    // A lapsed consent is not touched back to life, nor edited.
    consents.touch('https://app.example');
    expect(consents.share('https://app.example', [])).toBe(false);
    expect(consents.has('https://app.example')).toBe(false);
  });

  it('exactly at 30 days since the last use, the app is asked again', () => {
    const { consents, clock } = consentsAt(memoryStorage());
    consents.allow('https://app.example', []);
    clock.now = START + 30 * DAY - 1;
    expect(consents.has('https://app.example')).toBe(true);
    clock.now = START + 30 * DAY;
    expect(consents.has('https://app.example')).toBe(false);
  });

  it('does not believe a last use far ahead of the clock', () => {
    const storage = memoryStorage();
    storage.setItem(CONSENT_KEY, JSON.stringify({ v: 2, apps: [{ origin: 'https://app.example', allowedAt: START, lastUsedAt: START + 365 * DAY, accounts: [] }] }));
    expect(consentsAt(storage).consents.has('https://app.example')).toBe(false);
  });

  it('writes the last use at most once a minute per app', () => {
    const storage = memoryStorage();
    const { consents, clock } = consentsAt(storage);
    consents.allow('https://app.example', []);
    const writes = storage.writes;
    for (let i = 0; i < 1000; i++) {
      clock.now += 50; // a request every 50 ms for 50 s
      consents.touch('https://app.example');
    }
    expect(storage.writes).toBe(writes);
    clock.now = START + LAST_USE_WRITE_INTERVAL_MS;
    consents.touch('https://app.example');
    expect(storage.writes).toBe(writes + 1);
    expect(consents.get('https://app.example')?.lastUsedAt).toBe(START + LAST_USE_WRITE_INTERVAL_MS);
    consents.touch('https://unknown.example'); // not allowed: nothing written
    expect(storage.writes).toBe(writes + 1);
  });

  it('a storage that refuses: allow and share throw with a clear message, a use is not an error', () => {
    const { consents } = consentsAt(memoryStorage(true));
    expect(() => consents.allow('https://app.example', [])).toThrow('Opalite cannot store this choice (the browser refuses to store data for this site)');
    expect(consents.list()).toEqual([]);
    expect(() => consents.touch('https://app.example')).not.toThrow();
  });

  it('reads damaged records as allowing nobody, and drops damaged entries one by one', () => {
    const cases: unknown[] = [
      'not json',
      JSON.stringify({ v: 3, apps: [] }),
      JSON.stringify({ v: 2, apps: 'x' }),
      JSON.stringify(null),
      JSON.stringify({ v: 2, apps: [{ origin: 'https://app.example', allowedAt: START, lastUsedAt: START, accounts: [ALICE] }], padding: 'x'.repeat(3 * 1024 * 1024) })
    ];
    for (const raw of cases) {
      const storage = memoryStorage();
      storage.setItem(CONSENT_KEY, raw as string);
      expect(consentsAt(storage).consents.list(), String(raw).slice(0, 40)).toEqual([]);
    }
    const storage = memoryStorage();
    const good = { origin: 'https://good.example', allowedAt: START, lastUsedAt: START, accounts: [ALICE] };
    const bad = [
      { ...good, origin: 'http://lan.example' },
      { ...good, origin: 'null' },
      { ...good, lastUsedAt: 'yesterday' },
      { ...good, allowedAt: -1 },
      { ...good, accounts: ['x'.repeat(65)] },
      { ...good, accounts: [42] },
      { ...good, accounts: Array(MAX_SHARED_ACCOUNTS + 1).fill(ALICE) },
      { ...good, accounts: 'all' },
      null,
      'https://app.example'
    ];
    storage.setItem(CONSENT_KEY, JSON.stringify({ v: 2, apps: [...bad, good] }));
    expect(consentsAt(storage).consents.list()).toEqual([good]);
  });

  it('reads at most the first 100 stored apps', () => {
    const storage = memoryStorage();
    const apps = Array.from({ length: MAX_ALLOWED_APPS + 50 }, (_, i) => ({ origin: `https://app${i}.example`, allowedAt: START, lastUsedAt: START + i, accounts: [] }));
    storage.setItem(CONSENT_KEY, JSON.stringify({ v: 2, apps }));
    const list = consentsAt(storage, START + 1000).consents.list();
    expect(list).toHaveLength(MAX_ALLOWED_APPS);
    expect(list.map((entry) => entry.origin)).not.toContain(`https://app${MAX_ALLOWED_APPS}.example`);
  });
});

describe('consent stored by Opalite before accounts (opalite:connect:v1)', () => {
  const legacy = (origins: unknown) => JSON.stringify({ v: 1, origins });

  it('is kept with no account shared, its date as the last use, and moved to the new record', () => {
    const storage = memoryStorage();
    storage.setItem(LEGACY_CONSENT_KEY, legacy([{ origin: 'http://localhost:5173', allowedAt: START - 2 * DAY }, { origin: 'https://app.example', allowedAt: START - DAY }]));
    const { consents } = consentsAt(storage);
    expect(consents.list()).toEqual([
      { origin: 'https://app.example', allowedAt: START - DAY, lastUsedAt: START - DAY, accounts: [] },
      { origin: 'http://localhost:5173', allowedAt: START - 2 * DAY, lastUsedAt: START - 2 * DAY, accounts: [] }
    ]);
    expect(storage.getItem(LEGACY_CONSENT_KEY)).toBeNull();
    expect(JSON.parse(storage.getItem(CONSENT_KEY)!).apps).toHaveLength(2);
  });

  it('drops what the new rule refuses: plain http on the network, and consent older than 30 days', () => {
    const storage = memoryStorage();
    storage.setItem(
      LEGACY_CONSENT_KEY,
      legacy([
        { origin: 'http://lan.example:8080', allowedAt: START - DAY },
        { origin: 'https://old.example', allowedAt: START - 31 * DAY },
        { origin: 'https://app.example', allowedAt: START - DAY },
        { origin: 'https://bad.example', allowedAt: 'never' }
      ])
    );
    const { consents } = consentsAt(storage);
    expect(consents.list().map((entry) => entry.origin)).toEqual(['https://app.example']);
  });

  it('is ignored once the new record exists, and read again while the storage refuses the move', () => {
    const storage = memoryStorage();
    storage.setItem(LEGACY_CONSENT_KEY, legacy([{ origin: 'https://legacy.example', allowedAt: START }]));
    storage.setItem(CONSENT_KEY, JSON.stringify({ v: 2, apps: [] }));
    expect(consentsAt(storage).consents.list()).toEqual([]);

    const full = memoryStorage();
    const map = full as unknown as { getItem(key: string): string | null };
    const raw = legacy([{ origin: 'https://legacy.example', allowedAt: START }]);
    map.getItem = (key) => (key === LEGACY_CONSENT_KEY ? raw : null);
    full.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    expect(consentsAt(full).consents.has('https://legacy.example')).toBe(true);
  });
});
