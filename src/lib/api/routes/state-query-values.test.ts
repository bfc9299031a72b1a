// The state-query values against polkadot.js itself: the same chain types registered in a
// TypeRegistry, the same data, and the real service's serialization of the codec.
import { TypeRegistry } from '@polkadot/types';
import type { Codec } from '@polkadot/types/types';
import { describe, expect, it } from 'vitest';
import { accountId, bool, byteString, enumValue, h160, option, serialized, struct, uint, vec, type ChainValue } from './state-query-values';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const registry = new TypeRegistry();
registry.register({
  Mode: { _enum: { NFT: 'Null', Fungible: 'u8', ReFungible: 'Null' } },
  Access: { _enum: ['Normal', 'AllowList'] },
  Cross: { _enum: { Substrate: 'AccountId32', Ethereum: 'H160' } },
  Balances: { free: 'u128', reserved: 'u128' },
  Info: { nonce: 'u32', data: 'Balances' },
  Item: { owner: 'Cross', name: 'Vec<u16>', prefix: 'Bytes', mode: 'Mode', access: 'Option<Access>', limit: 'Option<u32>', flag: 'Option<bool>' }
});

/** The real service's serialize(codec). */
const polkadot = (c: Codec) => ({ rawType: c.toRawType(), isEmpty: c.isEmpty, hash: c.hash.toHex(), human: c.toHuman(), json: c.toJSON(), hex: c.toHex() });
const same = (type: string, input: unknown, ours: ChainValue) => expect(serialized(ours)).toEqual(polkadot(registry.createType(type, input)));

describe('state query values', () => {
  it('integers: little-endian bytes, big-endian hex, numbers in JSON until 52 bits, then hex', () => {
    same('u32', 1234, uint(32, 1234));
    same('u32', 0, uint(32, 0));
    same('u128', 2_000_000_000_000_000_000n, uint(128, 2_000_000_000_000_000_000n));
    same('u128', 12345, uint(128, 12345));
    same('u8', 7, uint(8, 7));
  });

  it('booleans, accounts, H160 and Bytes', () => {
    same('bool', true, bool(true));
    same('bool', false, bool(false));
    same('AccountId32', ALICE, accountId(ALICE, 42));
    same('H160', '0xf8238ccfff8ed887463fd5e00000000100000002', h160('0xF8238ccFFF8ED887463Fd5e00000000100000002'));
    same('Bytes', 'TST', byteString(new TextEncoder().encode('TST')));
    same('Bytes', '0xff00', byteString(new Uint8Array([0xff, 0])));
  });

  it('options, enums, vectors and structs', () => {
    same('Option<u32>', null, option('u32', null));
    same('Option<u32>', 0, option('u32', uint(32, 0)));
    same('Option<Access>', 'AllowList', option('Access', enumValue([['Normal', 'Null'], ['AllowList', 'Null']], 'AllowList')));
    same('Mode', 'NFT', enumValue([['NFT', 'Null'], ['Fungible', 'u8'], ['ReFungible', 'Null']], 'NFT'));
    same('Mode', { Fungible: 18 }, enumValue([['NFT', 'Null'], ['Fungible', 'u8'], ['ReFungible', 'Null']], 'Fungible', uint(8, 18)));
    same('Cross', { Substrate: ALICE }, enumValue([['Substrate', 'AccountId32'], ['Ethereum', 'H160']], 'Substrate', accountId(ALICE, 42)));
    same('Vec<u16>', [72, 1000], vec('u16', [uint(16, 72), uint(16, 1000)]));
    same(
      'Info',
      { nonce: 3, data: { free: 5n * 10n ** 18n, reserved: 0 } },
      struct([
        ['nonce', 'u32', uint(32, 3)],
        ['data', 'Balances', struct([['free', 'u128', uint(128, 5n * 10n ** 18n)], ['reserved', 'u128', uint(128, 0)]])]
      ])
    );
    const item = struct([
      ['owner', 'Cross', enumValue([['Substrate', 'AccountId32'], ['Ethereum', 'H160']], 'Ethereum', h160('0xf8238ccfff8ed887463fd5e00000000100000002'))],
      ['name', 'Vec<u16>', vec('u16', [uint(16, 65)])],
      ['prefix', 'Bytes', byteString(new TextEncoder().encode('A'))],
      ['mode', 'Mode', enumValue([['NFT', 'Null'], ['Fungible', 'u8'], ['ReFungible', 'Null']], 'ReFungible')],
      ['access', 'Option<Access>', option('Access', null)],
      ['limit', 'Option<u32>', option('u32', uint(32, 9))],
      ['flag', 'Option<bool>', option('bool', bool(false))]
    ]);
    same('Option<Item>', { owner: { Ethereum: '0xf8238ccfff8ed887463fd5e00000000100000002' }, name: [65], prefix: 'A', mode: 'ReFungible', access: null, limit: 9, flag: false }, option('Item', item));
  });
});
