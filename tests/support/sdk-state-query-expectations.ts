// What tests/support/sdk-state-query-scenarios.ts must observe on either host: the real service's
// serialized codecs {rawType, isEmpty, hash, human, json, hex} of the chain's types.
import { expect } from 'vitest';
import { byGroup as group, type Expectation } from './sdk-v2-expectations';
import { ALICE, BOB } from './sdk-v2-scenarios';

type Json = any;

const HASH = /^0x[0-9a-f]{64}$/;
const SERIALIZED_KEYS = ['rawType', 'isEmpty', 'hash', 'human', 'json', 'hex'];

function serializedShape(value: Json): void {
  expect(Object.keys(value)).toEqual(SERIALIZED_KEYS);
  expect(value.hash).toMatch(HASH);
}

export const expectations: Expectation[] = [
  {
    group: 'stateQuery',
    title: 'get reads a chain constant: the collection creation price, a u128',
    scenario: 'stateQueryConstant',
    check({ price }) {
      expect(price).toEqual({
        rawType: 'u128',
        isEmpty: false,
        hash: '0xfc0b10e42b004a8ba39ae2d06a2fb333fb915fa2fa0e673ab69f82471960a1e6',
        human: '2,000,000,000,000,000,000',
        json: '0x00000000000000001bc16d674ec80000',
        hex: '0x00000000000000001bc16d674ec80000'
      });
    }
  },
  {
    group: 'stateQuery',
    title: 'execute reads system.account (nonce and balance agree with the other reads) and get reads system.number',
    scenario: 'stateQueryAccounts',
    check({ account, fresh, nonce, free, number }) {
      serializedShape(account);
      expect(account.rawType).toBe('{"nonce":"u32","consumers":"u32","providers":"u32","sufficients":"u32","data":"PalletBalancesAccountData"}');
      expect(account.json.nonce).toBe(nonce);
      expect(nonce).toBeGreaterThan(0);
      expect(BigInt(account.json.data.free)).toBe(BigInt(free));
      expect(account.human.data.free).toBe(BigInt(free).toLocaleString('en'));
      expect(fresh.json).toEqual({ nonce: 0, consumers: 0, providers: 0, sufficients: 0, data: { free: 0, reserved: 0, frozen: 0, flags: 0 } });
      expect(fresh.isEmpty).toBe(true);
      serializedShape(number);
      expect(number.rawType).toBe('u32');
      expect(number.json).toBeGreaterThan(0);
    }
  },
  {
    group: 'stateQuery',
    title: 'execute reads common.collectionById (Option<UpDataStructsCollection>) and the collection counter',
    scenario: 'stateQueryCollection',
    check({ id, collection, missing, created, stats }) {
      serializedShape(collection);
      expect(collection.rawType).toBe('Option<UpDataStructsCollection>');
      expect(collection.json).toMatchObject({
        owner: ALICE,
        mode: { nft: null },
        name: [81, 233],
        description: [83, 116, 97, 116, 101],
        tokenPrefix: '0x5351',
        sponsorship: { disabled: null },
        limits: { tokenLimit: 10, accountTokenOwnershipLimit: null, ownerCanTransfer: null },
        permissions: { access: 'AllowList', nesting: { tokenOwner: true, collectionAdmin: false, restricted: [1, 2] } }
      });
      expect(collection.human).toMatchObject({ owner: ALICE, mode: 'NFT', name: ['81', '233'], tokenPrefix: 'SQ', limits: { tokenLimit: '10' } });
      expect(missing).toEqual({ rawType: 'Option<UpDataStructsCollection>', isEmpty: true, hash: expect.stringMatching(HASH), human: null, json: null, hex: '0x' });
      expect(created.json).toBe(stats.created);
      expect(created.json).toBeGreaterThanOrEqual(id);
    }
  },
  {
    group: 'stateQuery',
    title: 'execute reads NFT token data, owners and balances (nonfungible.tokenData, owned, accountBalance, tokensMinted)',
    scenario: 'stateQueryTokens',
    check(r) {
      serializedShape(r.tokenData);
      expect(r.tokenData.rawType).toBe('Option<PalletNonfungibleItemData>');
      expect(r.tokenData.json).toEqual({ owner: { substrate: r.owner } });
      expect(r.tokenData.human).toEqual({ owner: { Substrate: BOB } });
      expect(r.missingToken.json).toBeNull();
      expect(r.owned).toMatchObject({ rawType: 'bool', json: true, hex: '0x01' });
      expect(r.notOwned).toMatchObject({ rawType: 'bool', json: false, isEmpty: true });
      expect(r.balance).toMatchObject({ rawType: 'u32', json: 1, hex: '0x00000001' });
      expect(r.minted.json).toBe(r.tokenId);
    }
  },
  {
    group: 'stateQuery',
    title: 'execute calls the rpc endpoint: a v2 collection with the erc721metadata flag, token owners of a split token, the operator approval',
    scenario: 'stateQueryRpc',
    check(r) {
      serializedShape(r.collection);
      expect(r.collection.rawType).toBe('Option<UpDataStructsRpcCollection>');
      expect(r.collection.json).toMatchObject({ owner: ALICE, mode: { reFungible: null }, tokenPrefix: '0x525043', readOnly: false, flags: { foreign: false, erc721metadata: true } });
      expect(r.collection.json.properties.map((p: { key: string }) => p.key)).toContain('0x636f6c6c656374696f6e496e666f');
      expect(r.collection.human.flags).toEqual({ foreign: false, erc721metadata: true });
      expect(r.getV2.flags).toEqual({ foreign: false, erc721metadata: true });
      // A missing id: the empty Option, as the chain's RPC answers None.
      expect(r.missing).toEqual({ rawType: 'Option<UpDataStructsRpcCollection>', isEmpty: true, hash: expect.stringMatching(HASH), human: null, json: null, hex: '0x' });
      expect(r.lastTokenId).toMatchObject({ rawType: 'u32', json: 1 });
      expect(r.whole.owner.json).toEqual({ substrate: ALICE });
      expect(r.whole.topmost.json).toEqual({ substrate: ALICE });
      // Split between Alice and Bob: no single owner, no topmost owner (the structure pallet's MultipleOwners).
      expect(r.split.owner).toMatchObject({ rawType: 'Option<PalletEvmAccountBasicCrossAccountIdRepr>', json: null, isEmpty: true });
      expect(r.split.topmost).toMatchObject({ json: null, isEmpty: true });
      expect(r.split.owners.json).toEqual([{ substrate: ALICE }, { substrate: BOB }]);
      expect(r.operator.before).toMatchObject({ rawType: 'bool', json: false });
      expect(r.operator.after).toMatchObject({ rawType: 'bool', json: true });
      expect(r.operator.off.json).toBe(false);
      expect(r.operator.event).toEqual({ collectionId: r.id, owner: ALICE, operator: BOB, approve: true });
      expect(r.moved).toEqual({ isError: false, bob: 10 });
    }
  },
  {
    group: 'stateQuery',
    title: 'refuses unknown items, wrong arguments and a constant read by POST with a clear 400',
    scenario: 'stateQueryRefusals',
    check(r) {
      // The query cannot be built (docs/reference: BuildQueryError); a bad argument value is a ValidationError.
      for (const unbuildable of [r.endpoint, r.module, r.method, r.arity, r.constantByPost, r.getWithArgs]) expect(unbuildable).toMatchObject({ code: 'UN01007', name: 'BuildQueryError' });
      for (const invalid of [r.badArgument, r.tooMany]) expect(invalid).toMatchObject({ code: 'UN01004', name: 'ValidationError' });
      expect(Object.keys(r).sort()).toEqual(['arity', 'badArgument', 'constantByPost', 'endpoint', 'getWithArgs', 'method', 'module', 'tooMany']);
      expect(r.endpoint.message).toMatch(/^Invalid endpoint: "nowhere"/);
      expect(r.module.message).toMatch(/^Invalid module: "nothing"/);
      expect(r.method.message).toMatch(/^Invalid method: "nothing"/);
      expect(r.arity.message).toContain('query.system.account takes (account), got 0 argument(s)');
      expect(r.badArgument.message).toContain('account must be an address');
      expect(r.tooMany.message).toContain('args must have at most 8 items');
      expect(r.constantByPost.message).toContain('is a constant: read it with GET');
      expect(r.getWithArgs.message).toContain('send them with POST {args}');
    }
  }
];

export const byGroup = () => group(expectations);
