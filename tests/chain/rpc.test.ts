// The chain's RPC and collection-creation tests (js-packages/tests of UniqueNetwork/unique-chain:
// rpc.test.ts, createCollection.test.ts's flags), ported to the ledger under `--rules unique`: the
// RPCs are read as the state-query route reads them (`rpc.unique.*`), serialized as polkadot.js
// would. Each test is named after its source file and title.
//
// Not ported:
// - rpc.test.ts "RPC method tokenOwners for fungible collection and token": Opalite keeps a
//   Fungible collection's balances as point lookups with no index of holders, so
//   `rpc.unique.tokenOwners` refuses a Fungible collection with a ValidationError.
// - createCollection.test.ts "create new collection with flags", its Foreign cases: the codec has
//   no foreign flag (Opalite has no foreign collections); a call with it cannot be decoded.
import { beforeEach, describe, expect, it } from 'vitest';
import { RPC_ITEMS } from '../../src/lib/api/routes/state-query-rpc';
import { Chain, alice, bob, collectionOf, nestingAccount, nft, rft } from './kit';

let chain: Chain;
beforeEach(async () => {
  chain = await Chain.start();
});

/** `api.rpc.unique.<method>(...args)` as the state-query route answers it: the value's JSON. */
const callRpc = async (method: string, args: unknown[]) =>
  (await chain.ledger.read((tx) => RPC_ITEMS[`rpc.unique.${method}`].read(tx, chain.ledger, args))).json;

describe('rpc.test.ts: integration test: RPC methods', () => {
  it('rpc.test.ts: returns None for fungible collection', async () => {
    const collectionId = await chain.createCollection(alice, { mode: 'Fungible', name: 'RPC-1', tokenPrefix: 'RPC' });
    expect(await callRpc('tokenOwner', [collectionId, 0])).toBeNull();
  });

  it('answers tokenOwner, tokenOwners and topmostTokenOwner of NFT and split ReFungible tokens', async () => {
    const nfts = await chain.createCollection(alice, { mode: 'NFT', permissions: { nesting: { tokenOwner: true } } });
    const parent = await nft.mint(chain, alice, nfts);
    const child = await nft.mint(chain, alice, nfts, nestingAccount(parent));
    await nft.transfer(chain, alice, parent, bob.address);
    expect(await callRpc('tokenOwner', [nfts, child.tokenId])).toEqual({ ethereum: nestingAccount(parent) });
    expect(await callRpc('topmostTokenOwner', [nfts, child.tokenId])).toEqual({ substrate: bob.address });
    const rfts = await chain.createCollection(alice, { mode: 'ReFungible' });
    const token = await rft.mint(chain, alice, rfts, 10n);
    await rft.transfer(chain, alice, token, bob.address, 4n);
    expect(await callRpc('tokenOwner', [rfts, token.tokenId])).toBeNull();
    expect(await callRpc('topmostTokenOwner', [rfts, token.tokenId])).toBeNull();
    expect(await callRpc('tokenOwners', [rfts, token.tokenId])).toEqual([{ substrate: alice.address }, { substrate: bob.address }]);
    expect(await callRpc('tokenOwners', [rfts, 99])).toEqual([]);
    expect(await callRpc('lastTokenId', [rfts])).toBe(1);
  });
});

describe('createCollection.test.ts: integration test: ext. createCollection():', () => {
  it('createCollection.test.ts: create new collection with flags (Erc721metadata)', async () => {
    const collectionId = await chain.createCollection(alice, { mode: 'NFT', name: 'name', description: 'descr', tokenPrefix: 'COL', erc721metadata: true });
    expect((await collectionOf(chain, collectionId))?.erc721metadata).toBe(true);
    expect(await callRpc('collectionById', [collectionId])).toMatchObject({ flags: { foreign: false, erc721metadata: true }, readOnly: false });
    const plain = await chain.createCollection(alice, { mode: 'NFT' });
    expect(await callRpc('collectionById', [plain])).toMatchObject({ flags: { foreign: false, erc721metadata: false } });
    expect(await callRpc('collectionById', [999])).toBeNull();
  });
});
