import { Address } from '@unique-nft/utils/address';
import { describe, expect, it } from 'vitest';
import { InvalidAddressError } from './address';
import {
  checksumAddress,
  collectionContractAddress,
  isCollectionContractAddress,
  parseNestingAddress,
  tokenNestingAddress
} from './nesting';

describe('tokenNestingAddress', () => {
  it('builds the reference vector (1, 2)', () => {
    expect(tokenNestingAddress(1, 2)).toBe('0xf8238ccfff8ed887463fd5e00000000100000002');
  });

  it('writes both ids big-endian over 4 bytes', () => {
    expect(tokenNestingAddress(0x01020304, 0xa0b0c0d0)).toBe('0xf8238ccfff8ed887463fd5e001020304a0b0c0d0');
    expect(tokenNestingAddress(4294967295, 0)).toBe('0xf8238ccfff8ed887463fd5e0ffffffff00000000');
  });

  it.each([
    [-1, 1, 'Collection id must be an integer from 0 to 4294967295, got -1'],
    [1.5, 1, 'Collection id must be an integer from 0 to 4294967295, got 1.5'],
    [1, 2 ** 32, 'Token id must be an integer from 0 to 4294967295, got 4294967296'],
    [1, Number.NaN, 'Token id must be an integer from 0 to 4294967295, got NaN']
  ])('rejects (%s, %s)', (c, t, message) => {
    expect(() => tokenNestingAddress(c, t)).toThrow(message);
  });

  it('matches @unique-nft/utils (EIP-55 form) for several ids', () => {
    const cases: Array<[number, number]> = [
      [1, 1],
      [1, 2],
      [17, 4242],
      [654, 1],
      [4294967295, 4294967295],
      [123456, 7890123]
    ];
    for (const [c, t] of cases) {
      const theirs = Address.nesting.idsToAddress(c, t);
      expect(checksumAddress(tokenNestingAddress(c, t))).toBe(theirs);
      expect(tokenNestingAddress(c, t)).toBe(theirs.toLowerCase());
      expect(parseNestingAddress(theirs)).toEqual({ collectionId: c, tokenId: t });
    }
  });
});

describe('parseNestingAddress', () => {
  it('reads the ids back in any case', () => {
    expect(parseNestingAddress('0xf8238ccfff8ed887463fd5e00000000100000002')).toEqual({ collectionId: 1, tokenId: 2 });
    expect(parseNestingAddress('0xF8238CCFFF8ED887463FD5E00000000100000002')).toEqual({ collectionId: 1, tokenId: 2 });
  });

  it('returns id 0 as is', () => {
    expect(parseNestingAddress('0xf8238ccfff8ed887463fd5e00000000000000000')).toEqual({ collectionId: 0, tokenId: 0 });
  });

  it.each([
    '0x1234567890123456789012345678901234567890',
    '0x17c4e6453cc49aaaaeaca894e6d9683e00000001',
    '0xf8238ccfff8ed887463fd5e0000000010000000',
    '0xf8238ccfff8ed887463fd5e000000001000000020',
    '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
    ''
  ])('returns null for %j', (addr) => {
    expect(parseNestingAddress(addr)).toBeNull();
  });
});

describe('collection contract addresses', () => {
  it('builds the reference vector for collection 1', () => {
    expect(collectionContractAddress(1)).toBe('0x17c4e6453cc49aaaaeaca894e6d9683e00000001');
    expect(collectionContractAddress(0xabcdef)).toBe('0x17c4e6453cc49aaaaeaca894e6d9683e00abcdef');
  });

  it('matches @unique-nft/utils', () => {
    for (const id of [1, 2, 100, 65536, 4294967295]) {
      expect(checksumAddress(collectionContractAddress(id))).toBe(Address.collection.idToAddress(id));
    }
  });

  it('recognises contract addresses in any case and nothing else', () => {
    expect(isCollectionContractAddress('0x17C4E6453CC49AAAAEACA894E6D9683E00000007')).toBe(true);
    expect(isCollectionContractAddress('0xf8238ccfff8ed887463fd5e00000000100000002')).toBe(false);
    expect(isCollectionContractAddress('0x17c4e6453cc49aaaaeaca894e6d9683e0000001')).toBe(false);
  });

  it('rejects out-of-range ids', () => {
    expect(() => collectionContractAddress(-5)).toThrow('Collection id must be an integer from 0 to 4294967295, got -5');
  });
});

describe('checksumAddress', () => {
  it('applies EIP-55 (reference vectors from the EIP)', () => {
    expect(checksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    expect(checksumAddress('0xFB6916095CA1DF60BB79CE92CE3EA74C37C5D359')).toBe('0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359');
  });

  it('rejects anything but an Ethereum address', () => {
    expect(() => checksumAddress('0x1234')).toThrow(InvalidAddressError);
    expect(() => checksumAddress('0x1234')).toThrow('Invalid address: 0x1234');
  });
});
