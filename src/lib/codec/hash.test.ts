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
