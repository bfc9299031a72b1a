// The fairness rule on its own: a guaranteed share per account, more only while the pool is less
// than half full, never past its size; the bounds a host may set; when a refused submit may retry.
import { describe, expect, it } from 'vitest';
import { PoolLimitsError, resolvePoolLimits, retryAfterSeconds, roomFor } from './pool-limits';

describe('roomFor', () => {
  const limits = { size: 10, perAccount: 3 };

  it('admits an account within its share however full the pool is, short of full', () => {
    for (const ofSigner of [0, 1, 2]) {
      expect(roomFor(limits, { total: 9, ofSigner })).toBeNull();
      expect(roomFor(limits, { total: 5, ofSigner })).toBeNull();
    }
  });

  it('beyond its share, admits only while the pool is less than half full', () => {
    expect(roomFor(limits, { total: 4, ofSigner: 3 })).toBeNull();
    expect(roomFor(limits, { total: 4, ofSigner: 4 })).toBeNull();
    expect(roomFor(limits, { total: 5, ofSigner: 3 })).toBe('overShare');
    expect(roomFor(limits, { total: 5, ofSigner: 5 })).toBe('overShare');
    expect(roomFor(limits, { total: 9, ofSigner: 3 })).toBe('overShare');
  });

  it('takes half of an odd size exactly: 2 of 5 is less than half, 3 of 5 is not', () => {
    const odd = { size: 5, perAccount: 1 };
    expect(roomFor(odd, { total: 2, ofSigner: 2 })).toBeNull();
    expect(roomFor(odd, { total: 3, ofSigner: 3 })).toBe('overShare');
  });

  it('refuses everyone once the pool is full, within its share or not', () => {
    expect(roomFor(limits, { total: 10, ofSigner: 0 })).toBe('full');
    expect(roomFor(limits, { total: 10, ofSigner: 7 })).toBe('full');
  });

  it('never throttles a lone busy account on an idle sandbox with the defaults: 1,000 waiting, 4,095 too', () => {
    const defaults = resolvePoolLimits();
    expect(defaults).toEqual({ size: 8_192, perAccount: 64 });
    expect(roomFor(defaults, { total: 1_000, ofSigner: 1_000 })).toBeNull();
    expect(roomFor(defaults, { total: 4_095, ofSigner: 4_095 })).toBeNull();
    // ... and from half full on, the other half is kept for the shares of everyone else.
    expect(roomFor(defaults, { total: 4_096, ofSigner: 4_096 })).toBe('overShare');
    expect(roomFor(defaults, { total: 4_096, ofSigner: 63 })).toBeNull();
  });
});

describe('resolvePoolLimits', () => {
  it('fills in the defaults; a share defaults to no more than the size', () => {
    expect(resolvePoolLimits({ size: 100 })).toEqual({ size: 100, perAccount: 64 });
    expect(resolvePoolLimits({ size: 10 })).toEqual({ size: 10, perAccount: 10 });
    expect(resolvePoolLimits({ perAccount: 8 })).toEqual({ size: 8_192, perAccount: 8 });
    expect(resolvePoolLimits({ size: 65_536, perAccount: 65_536 })).toEqual({ size: 65_536, perAccount: 65_536 });
  });

  it.each([
    [{ size: 0 }, /^--pool-size must be a whole number from 1 to 65536, not 0$/],
    [{ size: 65_537 }, /^--pool-size must be a whole number from 1 to 65536, not 65537$/],
    [{ size: 1.5 }, /--pool-size .* not 1\.5$/],
    [{ size: Number.NaN }, /--pool-size .* not NaN$/],
    [{ size: '8' as unknown as number }, /--pool-size .* not "8"$/],
    [{ perAccount: 0 }, /^--pool-per-account must be a whole number from 1 to the pool size \(--pool-size, 8192\), not 0$/],
    [{ size: 16, perAccount: 17 }, /^--pool-per-account must be .* \(--pool-size, 16\), not 17$/],
    [{ perAccount: -1 }, /--pool-per-account .* not -1$/]
  ])('refuses %o, naming the option as its caller spells it', (limits, message) => {
    const names = { size: '--pool-size', perAccount: '--pool-per-account' };
    expect(() => resolvePoolLimits(limits, names)).toThrow(PoolLimitsError);
    expect(() => resolvePoolLimits(limits, names)).toThrow(message);
  });

  it('quotes a long bad value short', () => {
    expect(() => resolvePoolLimits({ size: 'x'.repeat(10_000) as unknown as number })).toThrow(/^pool\.size must be .*, not "x{120}… \(10000 characters\)"$/);
  });
});

describe('retryAfterSeconds', () => {
  it('is the time to the next block: at once, one interval, or the real chain’s 6 s when blocks are sealed by hand', () => {
    expect(retryAfterSeconds({ kind: 'instant' })).toBe(1);
    expect(retryAfterSeconds({ kind: 'interval', ms: 100 })).toBe(1);
    expect(retryAfterSeconds({ kind: 'interval', ms: 2_500 })).toBe(3);
    expect(retryAfterSeconds({ kind: 'interval', ms: 12_000 })).toBe(12);
    expect(retryAfterSeconds({ kind: 'manual' })).toBe(6);
  });
});
