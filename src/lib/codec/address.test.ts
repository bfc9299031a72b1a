import { describe, expect, it } from 'vitest';
import {
  InvalidAddressError,
  SS58_PREFIX,
  addressFromPublicKey,
  isEthereumAddress,
  isValidAddress,
  normalizeAddress,
  publicKeyOf
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

describe('isEthereumAddress', () => {
  it('accepts 0x + 40 hex in any case, nothing else', () => {
    expect(isEthereumAddress('0x' + 'aB'.repeat(20))).toBe(true);
    expect(isEthereumAddress(ALICE)).toBe(false);
    expect(isEthereumAddress(ALICE_PK)).toBe(false);
  });
});
