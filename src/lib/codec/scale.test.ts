import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from './hash';
import {
  ScaleError,
  Struct,
  bool,
  bytes,
  compactBig,
  compactU32,
  decodeExact,
  fixedBytes,
  fromJson,
  option,
  readAmount,
  u128,
  u16,
  u32,
  u8,
  unitEnum,
  utf16,
  utf8,
  vec,
  withJsonReader,
  withoutUndefined
} from './scale';

describe('integers', () => {
  it('encode little-endian (fixed vectors)', () => {
    expect(toHex(u8.enc(255))).toBe('0xff');
    expect(toHex(u16.enc(0x1234))).toBe('0x3412');
    expect(toHex(u32.enc(0x01020304))).toBe('0x04030201');
    expect(toHex(u128.enc(1n))).toBe('0x01' + '00'.repeat(15));
    expect(toHex(u128.enc((1n << 128n) - 1n))).toBe('0x' + 'ff'.repeat(16));
  });

  it('decode what they encode', () => {
    expect(decodeExact(u32, fromHex('0xffffffff'))).toBe(4294967295);
    expect(decodeExact(u128, fromHex('0x' + '00'.repeat(15) + '80'))).toBe(1n << 127n);
  });

  it.each([
    [() => u8.enc(256), 'u8 out of range: 256'],
    [() => u32.enc(-1), 'u32 out of range: -1'],
    [() => u32.enc(1.5), 'u32 out of range: 1.5'],
    [() => u32.enc('1' as unknown as number), 'u32 expects a number, got string'],
    [() => u128.enc(1n << 128n), 'u128 out of range: 340282366920938463463374607431768211456'],
    [() => u128.enc(5 as unknown as bigint), 'u128 expects a bigint, got number']
  ])('refuses to encode out-of-range values %#', (run, message) => {
    expect(run).toThrow(ScaleError);
    expect(run).toThrow(message);
  });
});

describe('compact', () => {
  it.each([
    [0n, '0x00'],
    [1n, '0x04'],
    [63n, '0xfc'],
    [64n, '0x0101'],
    [16383n, '0xfdff'],
    [16384n, '0x02000100'],
    [1073741823n, '0xfeffffff'],
    [1073741824n, '0x0300000040'],
    [10n ** 18n, '0x13000064a7b3b6e00d'],
    [(1n << 128n) - 1n, '0x33' + 'ff'.repeat(16)]
  ])('encodes %s as %s and back', (value, hex) => {
    expect(toHex(compactBig.enc(value))).toBe(hex);
    expect(decodeExact(compactBig, fromHex(hex))).toBe(value);
  });

  it.each([
    ['0x0100', 'non-canonical compact'], // 0 in two-byte mode
    ['0x02000000', 'non-canonical compact'], // 0 in four-byte mode
    ['0x0300000000', 'non-canonical compact'], // 0 in big-integer mode
    ['0x01', 'unexpected end of input in compact'],
    ['0x', 'unexpected end of input in compact']
  ])('rejects %s', (hex, message) => {
    expect(() => decodeExact(compactBig, fromHex(hex))).toThrow(message);
  });

  it('limits compactU32 to u32', () => {
    expect(decodeExact(compactU32, fromHex('0x03ffffffff'))).toBe(4294967295);
    expect(() => decodeExact(compactU32, fromHex('0x070000000001'))).toThrow('compact u32 out of range: 4294967296');
    expect(() => compactU32.enc(2 ** 32)).toThrow('compact u32 out of range: 4294967296');
  });
});

describe('bool and option', () => {
  it('encode 0/1 and None/Some', () => {
    expect(toHex(bool.enc(true))).toBe('0x01');
    expect(toHex(option(u8).enc(undefined))).toBe('0x00');
    expect(toHex(option(u8).enc(null as unknown as undefined))).toBe('0x00');
    expect(toHex(option(u8).enc(7))).toBe('0x0107');
    expect(toHex(option(bool).enc(false))).toBe('0x0100');
    expect(decodeExact(option(bool), fromHex('0x0100'))).toBe(false);
    expect(decodeExact(option(bool), fromHex('0x00'))).toBeUndefined();
  });

  it('reject bytes other than 0 and 1', () => {
    expect(() => decodeExact(bool, fromHex('0x02'))).toThrow('invalid bool byte 2');
    expect(() => decodeExact(option(u8), fromHex('0x0207'))).toThrow('invalid option byte 2');
    expect(() => bool.enc(1 as unknown as boolean)).toThrow('bool expects a boolean, got number');
  });
});

describe('bytes, strings and lists', () => {
  it('encodes Vec<u8>, [u8; n] and UTF-8 strings', () => {
    expect(toHex(bytes.enc(fromHex('0xabcd')))).toBe('0x08abcd');
    expect(toHex(fixedBytes(2).enc(fromHex('0xabcd')))).toBe('0xabcd');
    expect(toHex(utf8.enc('é'))).toBe('0x08c3a9');
    expect(decodeExact(utf8, fromHex('0x0cefbbbf'))).toBe('\uFEFF');
  });

  it('encodes UTF-16 code units, surrogate pairs included', () => {
    expect(toHex(utf16.enc('Aé🎨'))).toBe('0x10' + '4100' + 'e900' + '3cd8' + 'a8df');
    expect(decodeExact(utf16, fromHex('0x10' + '4100' + 'e900' + '3cd8' + 'a8df'))).toBe('Aé🎨');
  });

  it('encodes lists with a compact length', () => {
    expect(toHex(vec(u16).enc([1, 2]))).toBe('0x0801000200');
    expect(decodeExact(vec(u16), fromHex('0x0801000200'))).toEqual([1, 2]);
  });

  it('encodes field-less enums by index', () => {
    const access = unitEnum(['Normal', 'AllowList'] as const, 'AccessMode');
    expect(toHex(access.enc('AllowList'))).toBe('0x01');
    expect(decodeExact(access, fromHex('0x00'))).toBe('Normal');
    expect(() => decodeExact(access, fromHex('0x02'))).toThrow('unknown AccessMode variant 2');
    expect(() => access.enc('WhiteList' as 'Normal')).toThrow('unknown AccessMode WhiteList');
  });

  it.each([
    [() => decodeExact(utf8, fromHex('0x04ff')), 'invalid UTF-8'],
    [() => decodeExact(bytes, fromHex('0x08ab')), 'unexpected end of input in bytes'],
    [() => decodeExact(fixedBytes(32), fromHex('0xab')), 'unexpected end of input in [u8; 32]'],
    [() => decodeExact(vec(u8), fromHex('0xfeffffff')), 'unexpected end of input in a list of 1073741823'],
    [() => decodeExact(utf16, fromHex('0x0841')), 'unexpected end of input in UTF-16 string'],
    [() => fixedBytes(32).enc(new Uint8Array(31)), '32 bytes expected, got 31'],
    [() => utf8.enc('\uDC00'), 'string has an unpaired surrogate'],
    [() => vec(u8).enc('ab' as unknown as number[]), 'expected an array, got string']
  ])('rejects bad input %#', (run, message) => {
    expect(run).toThrow(ScaleError);
    expect(run).toThrow(message);
  });
});

describe('decodeExact', () => {
  const pair = Struct({ a: u8, b: option(u32) });

  it('rejects trailing bytes and truncated input', () => {
    expect(decodeExact(pair, fromHex('0x070105000000'))).toEqual({ a: 7, b: 5 });
    expect(() => decodeExact(pair, fromHex('0x07010500000000'))).toThrow('1 trailing byte(s)');
    expect(() => decodeExact(pair, fromHex('0x070105'))).toThrow('unexpected end of input in u32');
    expect(() => decodeExact(pair, fromHex('0x'))).toThrow('unexpected end of input in u8');
  });

  it('reads a subarray from its own start', () => {
    const buffer = fromHex('0xffff070105000000ff');
    expect(decodeExact(pair, buffer.subarray(2, 8))).toEqual({ a: 7, b: 5 });
  });

  it('drops None fields with withoutUndefined', () => {
    expect(withoutUndefined(decodeExact(pair, fromHex('0x0700')))).toStrictEqual({ a: 7 });
  });
});

describe('JSON in', () => {
  const U128_MAX = (1n << 128n) - 1n;

  it('reads an amount from a safe integer or a string of digits, and keeps a bigint', () => {
    expect(readAmount(0, 'a')).toBe(0n);
    expect(readAmount(Number.MAX_SAFE_INTEGER, 'a')).toBe(2n ** 53n - 1n);
    expect(readAmount('340282366920938463463374607431768211455', 'a')).toBe(U128_MAX);
    expect(readAmount('0007', 'a')).toBe(7n);
    expect(readAmount(5n, 'a')).toBe(5n);
  });

  it.each([
    [-1, 'not -1'],
    [1.5, 'not 1.5'],
    [2 ** 53, 'not 9007199254740992'],
    ['-1', 'not "-1"'],
    ['1.5', 'not "1.5"'],
    ['1e3', 'not "1e3"'],
    [' 1', 'not " 1"'],
    ['', 'not ""'],
    ['340282366920938463463374607431768211456', 'not "340282366920938463463374607431768211456"'],
    ['9'.repeat(41), 'not "99999'],
    [null, 'not null'],
    [true, 'not true'],
    [{}, 'not [object Object]'],
    [-1n, 'not -1']
  ])('refuses %s as an amount, naming where it was', (value, quoted) => {
    expect(() => readAmount(value, 'args.items[2].amount')).toThrow(ScaleError);
    expect(() => readAmount(value, 'args.items[2].amount')).toThrow(`args.items[2].amount must be a whole number from 0 to 2^128 - 1`);
    expect(() => readAmount(value, 'args.items[2].amount')).toThrow(quoted);
  });

  it('quotes at most a bounded part of a long string', () => {
    const message = (() => {
      try {
        readAmount('x'.repeat(1_000_000), 'args.value');
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(message!.length).toBeLessThan(400);
  });

  it('converts amounts at any depth of structs, lists and options, and leaves every other field as given', () => {
    const codec = Struct({ id: u32, items: vec(Struct({ name: utf8, amount: u128, extra: option(compactBig) })) });
    const json = { id: 1, other: 'kept', items: [{ name: 'a', amount: '12', extra: 3 }, { name: 'b', amount: 0, extra: null }] };
    expect(fromJson(codec, json, 'args')).toEqual({
      id: 1,
      other: 'kept',
      items: [
        { name: 'a', amount: 12n, extra: 3n },
        { name: 'b', amount: 0n, extra: null }
      ]
    });
    expect(() => fromJson(codec, { id: 1, items: [{ amount: 1 }, { amount: 'x' }] }, 'args')).toThrow('args.items[1].amount must be');
  });

  it('passes a codec without amounts, and a value of the wrong shape, unchanged for the encoder to refuse', () => {
    const plain = Struct({ id: u32, names: vec(utf8) });
    const json = { id: '1', names: 'x' };
    expect(fromJson(plain, json, 'args')).toBe(json);
    const amounts = Struct({ values: vec(u128) });
    expect(fromJson(amounts, [1, 2], 'args')).toEqual([1, 2]);
    expect(fromJson(amounts, { values: 'x' }, 'args')).toEqual({ values: 'x' });
  });

  it('uses the reader a hand-built codec is given', () => {
    const custom = withJsonReader(Struct({ a: u8 }), (value) => ({ a: Number(value) }));
    expect(fromJson(Struct({ inner: custom }), { inner: '7' }, 'args')).toEqual({ inner: { a: 7 } });
  });
});
