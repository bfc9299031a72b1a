import { decodeAddress, encodeAddress, evmToAddress } from '@polkadot/util-crypto';
import { describe, expect, it } from 'vitest';
import {
  InvalidAddressError,
  SS58_PREFIX,
  addressFromPublicKey,
  clearSs58Caches,
  isEthereumAddress,
  isValidAddress,
  normalizeAddress,
  publicKeyOf,
  ss58CacheSizes,
  substrateAccountOf
} from './address';
import { fromHex, toHex } from './hash';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const ALICE_PK = '0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d';
// The same key with the Unique network prefix 7391 and the Polkadot prefix 0.
const ALICE_UNIQUE = 'unjKJQJrRd238pkUZZvzDQrfKuM39zBSnQ5zjAGAGcdRhaJTx';
const ALICE_POLKADOT = '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';

describe('normalizeAddress', () => {
  it('keeps a canonical SS58 address', () => {
    expect(normalizeAddress(ALICE)).toBe(ALICE);
    expect(normalizeAddress(BOB)).toBe(BOB);
  });

  it('re-encodes any network prefix with prefix 42', () => {
    expect(normalizeAddress(ALICE_UNIQUE)).toBe(ALICE);
    expect(normalizeAddress(ALICE_POLKADOT)).toBe(ALICE);
  });

  it('encodes a 0x public key (any case)', () => {
    expect(normalizeAddress(ALICE_PK)).toBe(ALICE);
    expect(normalizeAddress(ALICE_PK.toUpperCase().replace('0X', '0x'))).toBe(ALICE);
  });

  it('honours an explicit prefix', () => {
    expect(normalizeAddress(ALICE, 7391)).toBe(ALICE_UNIQUE);
    expect(normalizeAddress(ALICE_PK, 0)).toBe(ALICE_POLKADOT);
  });

  it('lower-cases an Ethereum address', () => {
    expect(normalizeAddress('0xF8238CCFFF8ED887463FD5E00000000100000002')).toBe(
      '0xf8238ccfff8ed887463fd5e00000000100000002'
    );
  });

  it.each([
    '',
    'alice',
    ALICE.slice(0, -1),
    ALICE.slice(0, -1) + 'Z', // bad checksum
    '0x' + 'ab'.repeat(31),
    '0x' + 'ab'.repeat(19),
    '0x' + 'zz'.repeat(32),
    ' ' + ALICE,
    'F7NZ', // SS58 account index 1, not an account id
    '0xf8238ccfff8ed887463fd5e0000000010000000'
  ])('rejects %j with InvalidAddressError', (bad) => {
    expect(() => normalizeAddress(bad)).toThrow(InvalidAddressError);
    expect(() => normalizeAddress(bad)).toThrow(`Invalid address: ${bad}`);
    expect(isValidAddress(bad)).toBe(false);
  });

  it('rejects non-strings', () => {
    expect(() => normalizeAddress(42 as unknown as string)).toThrow('Invalid address: 42');
    expect(isValidAddress(null)).toBe(false);
  });
});

describe('publicKeyOf / addressFromPublicKey', () => {
  it('gives the //Alice key for every form of her address', () => {
    for (const form of [ALICE, ALICE_UNIQUE, ALICE_POLKADOT, ALICE_PK]) {
      expect(toHex(publicKeyOf(form))).toBe(ALICE_PK);
    }
  });

  it('has no key for an Ethereum address', () => {
    expect(() => publicKeyOf('0x' + '12'.repeat(20))).toThrow(InvalidAddressError);
  });

  it('encodes a key with prefix 42 by default', () => {
    expect(addressFromPublicKey(fromHex(ALICE_PK))).toBe(ALICE);
    expect(addressFromPublicKey(fromHex(ALICE_PK), 7391)).toBe(ALICE_UNIQUE);
    expect(SS58_PREFIX).toBe(42);
  });

  it('rejects keys that are not 32 bytes', () => {
    expect(() => addressFromPublicKey(new Uint8Array(20))).toThrow('Invalid address: public key of 20 bytes');
  });
});

describe('substrateAccountOf', () => {
  it("is a Substrate address's own key", () => {
    expect(toHex(substrateAccountOf(ALICE_UNIQUE))).toBe(ALICE_PK);
  });

  it('maps an Ethereum address as frontier does (blake2_256 of "evm:" and its 20 bytes), whatever its case', () => {
    const eth = '0xd43593c715fdd31c61141abd04a99fd6822c8558';
    // polkadot.js's evmToAddress is an independent implementation of the same mapping.
    expect(toHex(substrateAccountOf(eth))).toBe(toHex(decodeAddress(evmToAddress(eth))));
    expect(substrateAccountOf(eth.toUpperCase().replace('0X', '0x'))).toEqual(substrateAccountOf(eth));
  });
});

describe('isEthereumAddress', () => {
  it('accepts 0x + 40 hex in any case, nothing else', () => {
    expect(isEthereumAddress('0x' + 'aB'.repeat(20))).toBe(true);
    expect(isEthereumAddress(ALICE)).toBe(false);
    expect(isEthereumAddress(ALICE_PK)).toBe(false);
  });
});

describe('SS58 memo', () => {
  it('answers repeated lookups with the same address and key', () => {
    clearSs58Caches();
    for (let i = 0; i < 3; i++) {
      expect(normalizeAddress(ALICE_UNIQUE)).toBe(ALICE);
      expect(normalizeAddress(ALICE_UNIQUE, 7391)).toBe(ALICE_UNIQUE);
      expect(normalizeAddress(ALICE, 0)).toBe(ALICE_POLKADOT);
      expect(toHex(publicKeyOf(ALICE_POLKADOT))).toBe(ALICE_PK);
      expect(addressFromPublicKey(fromHex(ALICE_PK))).toBe(ALICE);
      expect(addressFromPublicKey(fromHex(ALICE_PK), 7391)).toBe(ALICE_UNIQUE);
    }
    // One entry per distinct input or (key, prefix), not one per call.
    expect(ss58CacheSizes()).toEqual({ decode: 3, encode: 3 });
  });

  it('hands out copies of cached keys', () => {
    const first = publicKeyOf(ALICE);
    first.fill(0);
    expect(toHex(publicKeyOf(ALICE))).toBe(ALICE_PK);
    expect(publicKeyOf(ALICE)).not.toBe(publicKeyOf(ALICE));
    expect(normalizeAddress(ALICE)).toBe(ALICE);
  });

  it('keys the encode memo by the bytes of the key, not the array', () => {
    const key = fromHex(ALICE_PK);
    expect(addressFromPublicKey(key)).toBe(ALICE);
    key.set(publicKeyOf(BOB));
    expect(addressFromPublicKey(key)).toBe(BOB);
  });

  it('does not cache failures, and still rejects bad prefixes after a hit', () => {
    clearSs58Caches();
    expect(addressFromPublicKey(fromHex(ALICE_PK), 42)).toBe(ALICE);
    for (const bad of ['alice', ALICE.slice(0, -1) + 'Z', 'F7NZ', ALICE.slice(0, -1)]) {
      expect(() => normalizeAddress(bad)).toThrow(`Invalid address: ${bad}`);
    }
    // The reserved and out-of-range prefixes throw exactly as encodeAddress does, every time.
    for (const prefix of [46, 47, -1, 16384, 16384 + 42, 65536 + 42]) {
      expect(() => addressFromPublicKey(fromHex(ALICE_PK), prefix)).toThrow();
      expect(() => addressFromPublicKey(fromHex(ALICE_PK), prefix)).toThrow();
    }
    expect(ss58CacheSizes()).toEqual({ decode: 0, encode: 1 });
  });

  it('agrees with util-crypto on many keys and prefixes, and stays bounded', () => {
    clearSs58Caches();
    for (let i = 0; i < 5000; i++) {
      const key = Uint8Array.from({ length: 32 }, (_, j) => (i * 31 + j * 17 + (i >> 8)) & 255);
      const prefix = [0, 42, 255, 7391, 16383][i % 5];
      const address = addressFromPublicKey(key, prefix);
      if (i % 50 === 0) expect(address).toBe(encodeAddress(key, prefix));
      expect(publicKeyOf(address)).toEqual(key);
      if (i % 50 === 0) expect(publicKeyOf(address)).toEqual(decodeAddress(address));
    }
    const sizes = ss58CacheSizes();
    expect(sizes.decode).toBeLessThanOrEqual(4096);
    expect(sizes.encode).toBeLessThanOrEqual(4096);
    // Evicted or not, early entries still answer correctly.
    const first = Uint8Array.from({ length: 32 }, (_, j) => (j * 17) & 255);
    expect(addressFromPublicKey(first, 0)).toBe(encodeAddress(first, 0));
  });
});

describe('bounded work on hostile input', () => {
  it('refuses a 1 MB address before decoding it, quoting at most 120 of its characters', () => {
    const huge = '5'.repeat(1_000_000); // base58 characters: a decoder would take hours on it
    expect(isValidAddress(huge)).toBe(false);
    let thrown: unknown;
    try {
      normalizeAddress(huge);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidAddressError);
    const message = (thrown as Error).message;
    expect(message.startsWith(`Invalid address: ${'5'.repeat(120)}…`)).toBe(true);
    expect(message).toContain('1000000 characters');
    expect(message.length).toBeLessThan(200);
    expect(() => publicKeyOf(huge)).toThrow(InvalidAddressError);
  });

  it('decodes SS58 up to 64 characters and refuses one character more', () => {
    // A valid SS58 string padded past the bound is refused by length, whatever its content.
    expect(ALICE.length).toBeLessThanOrEqual(64);
    expect(isValidAddress(ALICE)).toBe(true);
    const at64 = ALICE + '1'.repeat(64 - ALICE.length);
    const over = at64 + '1';
    expect(at64.length).toBe(64);
    expect(isValidAddress(at64)).toBe(false); // decoded (64 is allowed), but not an account checksum
    expect(over.length).toBe(65);
    expect(() => normalizeAddress(over)).toThrow(InvalidAddressError);
  });

  it('still takes a public key as 0x + 64 hex (66 characters)', () => {
    expect(ALICE_PK.length).toBe(66);
    expect(normalizeAddress(ALICE_PK)).toBe(ALICE);
    expect(normalizeAddress(ALICE_PK.toUpperCase().replace('0X', '0x'))).toBe(ALICE);
  });
});
