import { describe, expect, it } from 'vitest';
import { ALLOWED_ORIGINS_KEY, AllowedOrigins, MAX_ALLOWED_ORIGINS, isRememberableOrigin } from './allowed-origins';

/** localStorage's interface over a Map; `refuse` makes every write throw, as a full or disabled storage does. */
function memoryStorage(refuse = false): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => {
      if (refuse) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      map.set(key, String(value));
    }
  };
}

describe('allowed origins', () => {
  it('allows, lists (most recent first) and revokes origins, keeping only the origin and the date', () => {
    const storage = memoryStorage();
    const allowed = new AllowedOrigins(storage);
    expect(allowed.list()).toEqual([]);
    allowed.allow('http://localhost:5173', 1000);
    allowed.allow('https://app.example', 2000);
    expect(allowed.list()).toEqual([
      { origin: 'https://app.example', allowedAt: 2000 },
      { origin: 'http://localhost:5173', allowedAt: 1000 }
    ]);
    expect(allowed.has('https://app.example')).toBe(true);
    expect(allowed.has('https://app.example:443')).toBe(false); // never normalised into a match
    expect(JSON.parse(storage.getItem(ALLOWED_ORIGINS_KEY)!)).toEqual({ v: 1, origins: allowed.list() });
    allowed.allow('http://localhost:5173', 3000);
    expect(allowed.list()[0]).toEqual({ origin: 'http://localhost:5173', allowedAt: 3000 });
    expect(allowed.list()).toHaveLength(2);
    expect(allowed.revoke('https://app.example')).toBe(true);
    expect(allowed.revoke('https://app.example')).toBe(false);
    expect(allowed.has('https://app.example')).toBe(false);
    // Another instance (another window of the origin) reads the same list.
    expect(new AllowedOrigins(storage).list()).toEqual([{ origin: 'http://localhost:5173', allowedAt: 3000 }]);
  });

  it('remembers only http(s) origins as browsers spell them', () => {
    for (const origin of ['https://app.example', 'http://127.0.0.1:8080', 'http://[::1]:3000']) expect(isRememberableOrigin(origin)).toBe(true);
    for (const origin of ['null', '', 'file://', 'https://app.example/', 'https://app.example/path', 'HTTPS://APP.EXAMPLE', 'javascript:alert(1)', 'data:text/html,x', `https://${'a'.repeat(3000)}.example`]) {
      expect([origin, isRememberableOrigin(origin)]).toEqual([origin, false]);
    }
    expect(() => new AllowedOrigins(memoryStorage()).allow('null')).toThrow(/not an origin Opalite can remember/);
  });

  it('allows nobody from a damaged or foreign entry, and drops bad items of a good one', () => {
    const storage = memoryStorage();
    const allowed = new AllowedOrigins(storage);
    for (const raw of ['{', 'null', '[]', '{"v":2,"origins":[{"origin":"https://a.example","allowedAt":1}]}', '{"v":1,"origins":"https://a.example"}']) {
      storage.setItem(ALLOWED_ORIGINS_KEY, raw);
      expect(allowed.list()).toEqual([]);
    }
    storage.setItem(
      ALLOWED_ORIGINS_KEY,
      JSON.stringify({ v: 1, origins: [{ origin: 'https://a.example', allowedAt: 1, extra: 'x' }, { origin: 'null', allowedAt: 1 }, { origin: 'https://b.example' }, 'https://c.example', null] })
    );
    expect(allowed.list()).toEqual([{ origin: 'https://a.example', allowedAt: 1 }]);
  });

  it('holds at most MAX_ALLOWED_ORIGINS and says so', () => {
    const allowed = new AllowedOrigins(memoryStorage());
    for (let i = 0; i < MAX_ALLOWED_ORIGINS; i++) allowed.allow(`https://app${i}.example`, i);
    expect(() => allowed.allow('https://one-more.example')).toThrow(/at most 100 apps/);
    allowed.allow('https://app0.example', 500); // allowing one again is no new entry
    expect(allowed.list()).toHaveLength(MAX_ALLOWED_ORIGINS);
  });

  it('refuses to allow when the choice cannot be stored', () => {
    expect(() => new AllowedOrigins(memoryStorage(true)).allow('https://app.example')).toThrow(/cannot store this choice/);
  });
});
