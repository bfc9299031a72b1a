// The rpc endpoint of the state-query route against polkadot.js itself: the chain's RpcCollection
// registered in a TypeRegistry, decoded from the answer's bytes and serialized as the real service
// serializes it; the answer must be exactly that.
import { TypeRegistry } from '@polkadot/types';
import { CHAIN_COLLECTION_TYPES } from '../../codec/testing/chain-type-defs';
import { describe, expect, it } from 'vitest';
import { ALICE, BOB, openApi } from './route-test-kit';

const registry = new TypeRegistry();
registry.register({
  ...CHAIN_COLLECTION_TYPES,
  SponsorshipState: { _enum: { Disabled: 'Null', Unconfirmed: 'AccountId32', Confirmed: 'AccountId32' } },
  PropertyPermission: { mutable: 'bool', collectionAdmin: 'bool', tokenOwner: 'bool' },
  PropertyKeyPermission: { key: 'Bytes', permission: 'PropertyPermission' },
  RpcCollectionFlags: { foreign: 'bool', erc721metadata: 'bool' },
  RpcCollection: {
    owner: 'AccountId32',
    mode: 'CollectionMode',
    name: 'Vec<u16>',
    description: 'Vec<u16>',
    tokenPrefix: 'Bytes',
    sponsorship: 'SponsorshipState',
    limits: 'CollectionLimits',
    permissions: 'CollectionPermissions',
    tokenPropertyPermissions: 'Vec<PropertyKeyPermission>',
    properties: 'Vec<UniqueProperty>',
    readOnly: 'bool',
    flags: 'RpcCollectionFlags'
  }
});

describe('rpc.unique.collectionById', () => {
  it('answers the RpcCollection polkadot.js decodes from the same bytes, and None for a missing id', async () => {
    const api = await openApi({ rules: 'unique' });
    const collectionId = await api.createCollection({
      limits: { tokenLimit: 10, sponsoredDataRateLimit: 0 },
      permissions: { access: 'AllowList', nesting: { tokenOwner: true, restricted: [3, 1] } },
      properties: [{ key: 'note', value: 'hello' }],
      tokenPropertyPermissions: [{ key: 'level', permission: { mutable: true, collectionAdmin: true, tokenOwner: false } }],
      sponsorship: { address: BOB }
    });
    const answer = (await api.request('POST', '/v1/query/rpc/unique/collectionById', { args: [collectionId] })).json;
    const bytes = Uint8Array.from(Buffer.from(answer.hex.slice(2), 'hex'));
    const codec = registry.createType('Option<RpcCollection>', registry.createType('RpcCollection', bytes));
    expect({ isEmpty: answer.isEmpty, hash: answer.hash, human: answer.human, json: answer.json }).toEqual({
      isEmpty: codec.isEmpty,
      hash: codec.hash.toHex(),
      human: codec.toHuman(),
      json: codec.toJSON()
    });
    expect(answer.json).toMatchObject({ owner: ALICE, flags: { foreign: false, erc721metadata: false }, readOnly: false, sponsorship: { unconfirmed: BOB } });
    const missing = (await api.request('POST', '/v1/query/rpc/unique/collectionById', { args: [999] })).json;
    expect(missing).toMatchObject({ rawType: 'Option<UpDataStructsRpcCollection>', isEmpty: true, json: null, hex: '0x' });
  });

  it('refuses a Fungible collection’s token holders with a clear 400, and a missing rpc method as the real service does', async () => {
    const api = await openApi({ rules: 'unique' });
    const collectionId = await api.createCollection({ mode: 'Fungible', decimals: 0 });
    const refused = await api.request('POST', '/v1/query/rpc/unique/tokenOwners', { args: [collectionId, 0] });
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toContain('cannot be listed');
    const unknown = await api.request('POST', '/v1/query/rpc/unique/nothing', { args: [] });
    expect(unknown.json.error).toMatchObject({ name: 'BuildQueryError', message: expect.stringContaining('Invalid method: "nothing"') });
  });
});
