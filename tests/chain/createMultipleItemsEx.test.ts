// The chain's createMultipleItemsEx.test.ts (js-packages/tests of UniqueNetwork/unique-chain), ported
// to the ledger under `--rules unique`: every variant of CreateItemExData (NFT, Fungible,
// RefungibleMultipleOwners, RefungibleMultipleItems) and the negative cases. Each test is named after
// its source file and title. The chain's helpers pass amounts as JSON numbers (`50`, `pieces: 1`);
// the calls here are read from that JSON form as /extrinsic/build reads them (callFromJson).
import { beforeEach, describe, expect, it } from 'vitest';
import { callFromJson } from '../../src/lib/codec/calls';
import type { CallArgs, MintItem, PropertyKeyPermission } from '../../src/lib/ledger/types';
import { Chain, alice, bob, charlie, failure, nftToken, refusedBeforeInclusion } from './kit';
import type { Account } from './kit';

let chain: Chain;
beforeEach(async () => {
  chain = await Chain.start();
});

const permission = (key: string, tokenOwner: boolean, mutable: boolean, collectionAdmin: boolean): PropertyKeyPermission => ({ key, permission: { tokenOwner, mutable, collectionAdmin } });
const collection = (mode: 'NFT' | 'Fungible' | 'ReFungible', tokenPropertyPermissions: PropertyKeyPermission[] = []) =>
  chain.createCollection(alice, { mode, name: 'name', description: 'descr', tokenPrefix: 'COL', tokenPropertyPermissions });

/** `unique.createMultipleItemsEx` from its JSON form (amounts as JSON numbers), as the chain's helpers send it. */
const mintEx = (signer: Account, json: Record<string, unknown>) =>
  chain.ok(signer, 'unique.createMultipleItemsEx', callFromJson('unique.createMultipleItemsEx', json).args as CallArgs['unique.createMultipleItemsEx']);

/** The NFT args of the property tests: Alice, Bob and Charlie, each with `k` = v1, v2, v3. */
const nftItems = (properties: (i: number) => { key: string; value: string }[]): MintItem[] =>
  [alice, bob, charlie].map((owner, i) => ({ owner: owner.address, properties: properties(i) }));
const withK = (i: number) => [{ key: 'k', value: `v${i + 1}` }];

describe('createMultipleItemsEx.test.ts: Integration Test: createMultipleItemsEx', () => {
  it('createMultipleItemsEx.test.ts: can initialize multiple NFT with different owners', async () => {
    const collectionId = await collection('NFT');
    const items = nftItems(() => []);
    await mintEx(alice, { collectionId, items });
    for (const [i, item] of items.entries()) expect((await nftToken(chain, { collectionId, tokenId: i + 1 }))?.owner).toBe(item.owner);
  });

  for (const [title, tokenOwner, mutable, collectionAdmin] of [
    ['createMultipleItemsEx with property Admin', false, true, true],
    ['createMultipleItemsEx with property AdminConst', false, false, true],
    ['createMultipleItemsEx with property itemOwnerOrAdmin', true, false, true]
  ] as const) {
    it(`createMultipleItemsEx.test.ts: ${title}`, async () => {
      const collectionId = await collection('NFT', [permission('k', tokenOwner, mutable, collectionAdmin)]);
      const items = nftItems(withK);
      await mintEx(alice, { collectionId, items });
      for (const [i, item] of items.entries()) {
        const token = await nftToken(chain, { collectionId, tokenId: i + 1 });
        expect(token?.owner).toBe(item.owner);
        expect(token?.properties).toEqual(withK(i));
      }
    });
  }

  it('createMultipleItemsEx.test.ts: can initialize fungible with multiple owners', async () => {
    const collectionId = await collection('Fungible');
    await mintEx(alice, {
      collectionId,
      kind: 'Fungible',
      items: [
        { owner: alice.address, properties: [], amount: 50 },
        { owner: bob.address, properties: [], amount: 100 }
      ]
    });
    expect(await chain.ftBalance(collectionId, alice.address)).toBe(50n);
    expect(await chain.ftBalance(collectionId, bob.address)).toBe(100n);
  });

  it('createMultipleItemsEx.test.ts: can initialize an RFT with multiple owners', async () => {
    const collectionId = await collection('ReFungible', [permission('k', false, false, true)]);
    await mintEx(alice, {
      collectionId,
      kind: 'RefungibleMultipleOwners',
      items: [
        { owner: alice.address, properties: [], amount: 1 },
        { owner: bob.address, properties: [], amount: 2 }
      ],
      properties: [{ key: 'k', value: 'v' }]
    });
    expect(await chain.lastTokenId(collectionId)).toBe(1);
    expect(await chain.rftBalance(collectionId, 1, alice.address)).toBe(1n);
    expect(await chain.rftBalance(collectionId, 1, bob.address)).toBe(2n);
    // Beyond the chain test: one token of 3 pieces, its property, and both holders' token lists.
    expect(await chain.rftTotalPieces(collectionId, 1)).toBe(3n);
    expect((await nftToken(chain, { collectionId, tokenId: 1 }))?.properties).toEqual([{ key: 'k', value: 'v' }]);
    expect(await chain.rftAccountTokens(collectionId, bob.address)).toEqual([1]);
  });

  it('createMultipleItemsEx.test.ts: can initialize multiple RFTs with the same owner', async () => {
    const collectionId = await collection('ReFungible', [permission('k', true, false, false)]);
    await mintEx(alice, {
      collectionId,
      kind: 'ReFungible',
      items: [
        { owner: alice.address, amount: 1, properties: [{ key: 'k', value: 'v1' }] },
        { owner: alice.address, amount: 3, properties: [{ key: 'k', value: 'v2' }] }
      ]
    });
    expect(await chain.lastTokenId(collectionId)).toBe(2);
    expect(await chain.rftBalance(collectionId, 1, alice.address)).toBe(1n);
    expect(await chain.rftBalance(collectionId, 2, alice.address)).toBe(3n);
    expect((await nftToken(chain, { collectionId, tokenId: 1 }))?.properties[0]).toEqual({ key: 'k', value: 'v1' });
    expect((await nftToken(chain, { collectionId, tokenId: 2 }))?.properties[0]).toEqual({ key: 'k', value: 'v2' });
  });
});

describe('createMultipleItemsEx.test.ts: Negative test: createMultipleItemsEx', () => {
  for (const [title, tokenPropertyPermissions] of [
    ['No editing rights', [permission('k', false, true, false)]],
    ['User doesnt have editing rights', [permission('k', false, false, false)]],
    ['Adding property without access rights', []]
  ] as const) {
    it(`createMultipleItemsEx.test.ts: ${title}`, async () => {
      const collectionId = await collection('NFT', [...tokenPropertyPermissions]);
      expect(await failure(mintEx(alice, { collectionId, items: nftItems(withK) }))).toBe('common.NoPermission');
      expect(await chain.lastTokenId(collectionId)).toBe(0);
    });
  }

  for (const [title, properties] of [
    ['Adding more than 64 properties', Array.from({ length: 65 }, (_, i) => ({ key: `k${i}`, value: `v${i}` }))],
    ['Trying to add bigger property than allowed', [{ key: 'k', value: 'A'.repeat(32769) }]]
  ] as const) {
    it(`createMultipleItemsEx.test.ts: ${title}`, async () => {
      const collectionId = await collection('NFT', [permission('k', true, true, true)]);
      // The chain cannot decode the call ("Verification Error"): refused before inclusion.
      const refusal = await refusedBeforeInclusion(chain, alice, 'unique.createMultipleItemsEx', { collectionId, items: nftItems(() => [...properties]) });
      expect(refusal).toMatch(/^BadPayload/);
    });
  }
});

describe('createMultipleItemsEx.test.ts: the ReFungible and Fungible variants against the chain pallets’ rules', () => {
  // Not chain tests: the cases the pallets' code decides for these variants (pallets/refungible
  // create_multiple_items, pallets/fungible create_multiple_items), in their order.
  it('refuses public minting, the wrong variant, and a token whose holders’ pieces overflow a u128', async () => {
    const rftId = await collection('ReFungible');
    const owners = (amounts: (number | string)[]) => ({
      collectionId: rftId,
      kind: 'RefungibleMultipleOwners',
      items: amounts.map((amount, i) => ({ owner: [alice, bob][i].address, properties: [], amount }))
    });
    expect(await failure(mintEx(bob, owners([1, 2])))).toBe('common.PublicMintingNotAllowed');
    const max = ((1n << 128n) - 1n).toString();
    expect(await failure(mintEx(alice, owners([max, 1])))).toBe('arithmetic.Overflow');
    expect(await failure(mintEx(alice, owners(['1000000000000000000000', 1])))).toBe('refungible.WrongRefungiblePieces');
    const ftId = await collection('Fungible');
    expect(await failure(mintEx(alice, { ...owners([1, 2]), collectionId: ftId }))).toBe('common.NotFungibleDataUsedToMintFungibleCollectionToken');
    expect(await failure(mintEx(alice, { collectionId: rftId, kind: 'Fungible', items: [{ owner: alice.address, properties: [], amount: 1 }] }))).toBe(
      'refungible.NotRefungibleDataUsedToMintFungibleCollectionToken'
    );
    expect(await chain.lastTokenId(rftId)).toBe(0);
  });

  it('counts a repeated holder once, with its last amount (the chain’s BTreeMap)', async () => {
    const rftId = await collection('ReFungible');
    await mintEx(alice, {
      collectionId: rftId,
      kind: 'RefungibleMultipleOwners',
      items: [
        { owner: bob.address, properties: [], amount: 5 },
        { owner: bob.address, properties: [], amount: '7' }
      ]
    });
    expect(await chain.rftTotalPieces(rftId, 1)).toBe(7n);
    expect(await chain.rftBalance(rftId, 1, bob.address)).toBe(7n);
  });

  it('refuses an undecodable property value of a token shared out among owners before inclusion', async () => {
    const rftId = await collection('ReFungible', [permission('k', true, true, true)]);
    const args = callFromJson('unique.createMultipleItemsEx', {
      collectionId: rftId,
      kind: 'RefungibleMultipleOwners',
      items: [{ owner: alice.address, properties: [], amount: 1 }],
      properties: [{ key: 'k', value: 'A'.repeat(32769) }]
    }).args as CallArgs['unique.createMultipleItemsEx'];
    expect(await refusedBeforeInclusion(chain, alice, 'unique.createMultipleItemsEx', args)).toMatch(/^BadPayload: Could not decode the call: a property value of 32769 bytes/);
  });
});
