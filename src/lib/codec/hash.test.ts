import { describe, expect, it } from 'vitest';
import { blake2b256, fromHex, isHex, toHex } from './hash';

describe('blake2b256', () => {
  it('hashes the empty input to the known vector', () => {
    expect(toHex(blake2b256(new Uint8Array()))).toBe(
      '0x0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8'
    );
  });

  it('hashes "abc" to the known vector', () => {
    expect(toHex(blake2b256(new TextEncoder().encode('abc')))).toBe(
      '0xbddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319'
    );
  });
});

describe('toHex / fromHex', () => {
  it('round-trips bytes in lower case', () => {
    const bytes = new Uint8Array([0, 1, 0x7f, 0x80, 0xab, 0xff]);
    expect(toHex(bytes)).toBe('0x00017f80abff');
    expect(fromHex('0x00017F80ABff')).toEqual(bytes);
  });

  it('accepts the empty hex', () => {
    expect(fromHex('0x')).toEqual(new Uint8Array());
    expect(toHex(new Uint8Array())).toBe('0x');
  });

  it.each(['', '0x0', '0xzz', '00ff', '0X00', ' 0x00', '0x00 '])('rejects %j', (bad) => {
    expect(() => fromHex(bad)).toThrow(`Invalid hex: ${bad}`);
  });

  it('isHex tells whole-byte hex from anything else', () => {
    expect(isHex('0xabCD')).toBe(true);
    expect(isHex('0xabc')).toBe(false);
    expect(isHex(12)).toBe(false);
  });
});

describe('toHex / fromHex lookup tables', () => {
  // The code this module replaced: parseInt per byte behind the regex, and nibble concatenation.
  const HEX_RE = /^0x(?:[0-9a-fA-F]{2})*$/;
  function referenceFromHex(hex: string): Uint8Array {
    if (typeof hex !== 'string' || !HEX_RE.test(hex)) throw new Error(`Invalid hex: ${String(hex)}`);
    const out = new Uint8Array((hex.length - 2) / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 + i * 2, 4 + i * 2), 16);
    return out;
  }
  function referenceToHex(u8a: Uint8Array): string {
    let out = '0x';
    for (const byte of u8a) out += '0123456789abcdef'[byte >> 4] + '0123456789abcdef'[byte & 15];
    return out;
  }
  const every = Uint8Array.from({ length: 256 }, (_, i) => i);

  it('agrees with the reference on every byte value, short and long, in both cases', () => {
    // Below and above the length where toHex switches to a buffer (64 bytes).
    for (const bytes of [every.subarray(0, 1), every.subarray(0, 63), every.subarray(0, 64), every, new Uint8Array(10_000).map((_, i) => i * 7)]) {
      const hex = toHex(bytes);
      expect(hex).toBe(referenceToHex(bytes));
      expect(fromHex(hex)).toEqual(bytes);
      expect(fromHex(hex.toUpperCase().replace('0X', '0x'))).toEqual(bytes);
      expect(fromHex(hex)).toEqual(referenceFromHex(hex));
    }
  });

  it.each([
    '0x0',
    '0x' + 'ab'.repeat(5000) + 'a', // odd, long
    '0x' + 'ab'.repeat(5000) + 'ag', // bad digit in the last byte of a long input
    '0xg0',
    '0x0g',
    '0x:0', // the code points either side of the digit and letter ranges
    '0x/0',
    '0x@0',
    '0xG0',
    '0x`0',
    '0x\u00e10', // Latin-1 letter
    '0x\u0661\u0662', // Arabic-Indic digits
    '0x\uff41\uff42', // full-width a, b
    '0x\u0130\u0131', // dotted / dotless i (which change under case mapping)
    '0x\ud83d\ude00', // a surrogate pair
    '0x00\n',
    '\n0x00',
    '0x\u0000\u0000'
  ])('throws the same error as before for %j', (bad) => {
    expect(() => referenceFromHex(bad)).toThrow(`Invalid hex: ${bad}`);
    expect(() => fromHex(bad)).toThrow(new Error(`Invalid hex: ${bad}`));
  });

  it('throws the same error for values that are not strings', () => {
    for (const bad of [undefined, null, 12, ['0x00'], { length: 4 }]) {
      expect(() => fromHex(bad as unknown as string)).toThrow(`Invalid hex: ${String(bad)}`);
    }
  });
});
