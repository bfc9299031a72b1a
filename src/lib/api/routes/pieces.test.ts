// Amounts of the fungible and refungible routes: whole units in, smallest units and the real
// service's balance shape out.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { fromUnits } from '../fee';
import type { CollectionRecord } from '../../ledger/types';
import { collectionBalance, rawAmount, unitsNumber } from './pieces';

const collection = (decimals: number, tokenPrefix = 'GLD') => ({ decimals, tokenPrefix }) as CollectionRecord;

describe('rawAmount', () => {
  it('converts a number from its shortest decimal form, exactly', () => {
    expect(rawAmount(0.1, 18)).toBe(10n ** 17n);
    expect(rawAmount(0.3, 2)).toBe(30n);
    expect(rawAmount(10.5, 2)).toBe(1050n);
    expect(rawAmount(1e-7, 7)).toBe(1n);
    expect(rawAmount(1e21, 0)).toBe(10n ** 21n);
    expect(rawAmount(1.5e21, 1)).toBe(15n * 10n ** 21n);
    expect(rawAmount('123.45', 2)).toBe(12345n);
  });

  it('refuses more fraction digits than the collection has, and text that is no number', () => {
    expect(() => rawAmount(0.001, 2)).toThrow(ApiError);
    expect(() => rawAmount(1e-7, 6)).toThrow(/at most 6 fraction digits/);
    expect(() => rawAmount('1e5', 2)).toThrow(ApiError);
    expect(() => rawAmount('-1', 2)).toThrow(ApiError);
  });

  it("refuses more than the chain's u128 holds, and takes 2^128 - 1", () => {
    const max = (1n << 128n) - 1n;
    expect(rawAmount(max.toString(), 0)).toBe(max);
    expect(() => rawAmount((max + 1n).toString(), 0)).toThrow(/more than the chain holds: at most 340282366920938463463374607431768211455 whole units/);
    expect(() => rawAmount('340282366920938463463374607431.768211456', 8)).toThrow(ApiError);
  });

  it('takes a native amount given as a JSON number exactly, as the pieces routes do', () => {
    // toFixed(18) of 0.1 is 0.100000000000000006: the shortest decimal form is what the person typed.
    expect(fromUnits(0.1, 18)).toBe(10n ** 17n);
    expect(fromUnits(1e-18, 18)).toBe(1n);
    expect(fromUnits(1e21, 18)).toBe(10n ** 39n);
  });
});

describe('amounts out', () => {
  it('gives parsed amounts in whole units', () => {
    expect(unitsNumber(1050n, 2)).toBe(10.5);
    expect(unitsNumber('5', 2)).toBe(0.05);
    expect(unitsNumber(0n, 18)).toBe(0);
  });

  it('formats a balance as the real service: the token prefix as unit, every digit below one unit', () => {
    expect(collectionBalance(1050n, collection(2))).toMatchObject({ raw: '1050', amount: '10.5', unit: 'GLD', decimals: 2 });
    expect(collectionBalance(50n, collection(3))).toMatchObject({ raw: '50', amount: '0.050' });
    expect(collectionBalance(0n, collection(3, ''))).toMatchObject({ raw: '0', amount: '0', unit: 'UNIT' });
  });
});
