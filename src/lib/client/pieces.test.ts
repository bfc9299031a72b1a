import { describe, expect, it } from 'vitest';
import { decimalPlaces, distinctAddresses, hasSeveralHolders, holdersBySize, shareText, unitAmount, wholePieces } from './pieces';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const ALICE_HEX = '0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';

describe('decimalPlaces', () => {
  it('takes 0 to 30, as the chain does', () => {
    expect(decimalPlaces(' 0 ', 'Decimals')).toBe(0);
    expect(decimalPlaces('30', 'Decimals')).toBe(30);
    for (const bad of ['31', '-1', '2.5', '', 'two', '007']) expect(() => decimalPlaces(bad, 'Decimals')).toThrow('Decimals must be a whole number from 0 to 30');
  });
});

describe('wholePieces', () => {
  it('takes whole numbers, with separators a person types', () => {
    expect(wholePieces(' 1_000 ', 'Pieces')).toBe(1000n);
    expect(wholePieces('340282366920938463463374607431768211455', 'Pieces')).toBe((1n << 128n) - 1n);
  });

  it('names the field in every refusal', () => {
    expect(() => wholePieces('', 'Pieces')).toThrow('Pieces: enter a number of pieces');
    expect(() => wholePieces('1.5', 'Pieces')).toThrow('Pieces must be a whole number');
    expect(() => wholePieces('-3', 'Pieces')).toThrow('Pieces must be a whole number');
    expect(() => wholePieces('0', 'Pieces to send')).toThrow('Pieces to send must be at least 1');
    expect(() => wholePieces('11', 'Pieces to send', 10n)).toThrow('Pieces to send may be at most 10');
    expect(() => wholePieces('9'.repeat(40), 'Pieces')).toThrow('must be a whole number');
  });
});

describe('unitAmount', () => {
  it('answers the decimal string the service takes', () => {
    expect(unitAmount('12.50', 4, 'Amount')).toBe('12.5');
    expect(unitAmount('007', 0, 'Amount')).toBe('7');
    expect(unitAmount('0.0001', 4, 'Amount')).toBe('0.0001');
  });

  it('refuses more fraction digits than the collection has, instead of rounding', () => {
    expect(() => unitAmount('0.00001', 4, 'Amount')).toThrow('Amount may have at most 4 digits after the point');
    expect(() => unitAmount('1.5', 0, 'Amount')).toThrow('this collection has no decimals');
  });

  it('refuses nothing, words and amounts past a u128', () => {
    expect(() => unitAmount('0.000', 3, 'Amount')).toThrow('Amount must be more than 0');
    expect(() => unitAmount('ten', 3, 'Amount')).toThrow('Amount must be a number');
    expect(() => unitAmount('1e5', 3, 'Amount')).toThrow('Amount must be a number');
    expect(() => unitAmount('340282366920938463463374607431768211456', 0, 'Amount')).toThrow('Amount is too large');
  });
});

describe('shareText', () => {
  it('reads as a person would write it', () => {
    expect(shareText(25n, 100n)).toBe('25%');
    expect(shareText(1n, 3n)).toBe('33.33%');
    expect(shareText(1n, 8n)).toBe('12.5%');
    // Rounded to the nearest hundredth (half up), not down: 91.875% and 8.125% of one supply.
    expect([shareText(91_875n, 100_000n), shareText(8_125n, 100_000n)]).toEqual(['91.88%', '8.13%']);
    expect([shareText(918_749n, 1_000_000n), shareText(81_251n, 1_000_000n)]).toEqual(['91.87%', '8.13%']);
    expect(shareText(99_999n, 100_000n)).toBe('99.99%');
    expect(shareText(1n, 100_000n)).toBe('< 0.01%');
    expect(shareText(1n, 1_000_000n)).toBe('< 0.01%');
    expect(shareText(5n, 5n)).toBe('100%');
    expect(shareText(0n, 5n)).toBe('0%');
    expect(shareText(3n, 0n)).toBe('0%');
  });
});

describe('holders', () => {
  it('counts an account once however its address is spelled, up to the limit', () => {
    expect(distinctAddresses([ALICE, null, ALICE_HEX, BOB, ALICE], 10)).toEqual([ALICE, BOB]);
    expect(distinctAddresses([ALICE, BOB], 1)).toEqual([ALICE]);
  });

  it('lists holders with something, largest first', () => {
    const listed = holdersBySize([
      { address: BOB, amount: 3n },
      { address: ALICE, amount: 7n },
      { address: 'x', amount: 0n }
    ]);
    expect(listed.map((h) => h.amount)).toEqual([7n, 3n]);
  });
});

describe('hasSeveralHolders', () => {
  it('knows the owner the service answers for a split refungible token, in any case, and nothing else', () => {
    expect(hasSeveralHolders('0xffffffffffffffffffffffffffffffffffffffff')).toBe(true);
    expect(hasSeveralHolders('0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF')).toBe(true);
    for (const owner of [ALICE, '0xfffffffffffffffffffffffffffffffffffffffe', '', null, undefined]) expect(hasSeveralHolders(owner)).toBe(false);
  });
});
