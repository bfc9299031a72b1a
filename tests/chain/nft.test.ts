// The chain's NFT integration tests (js-packages/tests of UniqueNetwork/unique-chain:
// createItem.test.ts, createMultipleItems.test.ts, burnItem.test.ts, transfer.test.ts,
// limits.test.ts, adminTransferAndBurn.test.ts, enableDisableTransfer.test.ts, allowLists.test.ts
// (transfers and mints), sub/check-event/*.test.ts, and token properties and their permissions from
// sub/nesting/tokenProperties.test.ts and propertyPermissions.test.ts, NFT and ReFungible alike),
// ported to the ledger under `--rules unique`. Each test is named after its source file and title.
//
// Not ported:
// - createItem.test.ts "Create new item in Fungible/ReFungible collection", "Check total pieces of
//   Fungible/ReFungible token" and the other non-NFT cases: covered by fungible.test.ts and
//   refungible.test.ts or outside the NFT area.
// - createItem.test.ts "Check events on create new item in Fungible collection": Fungible, not NFT.
// - transfer.test.ts "Balance transfers and check balance", "Inability to pay fees error message
//   is correct": native balances, not NFTs (the latter is in rules.test.ts).
// - transfer.test.ts "Transfers to self (potentially over substrate-evm boundary)": needs an
//   account's EVM mirror (substrateToEth), which Opalite does not model.
// - limits.test.ts skipped cases (itSub.skip: chain limits of a special build) and "Sponsor
//   timeout" describes (describe.skip upstream).
// - limits.test.ts "Effective collection limits" step "non-existent collection": the RPC
//   `effectiveCollectionLimits`, a REST read outside the ledger.
// - allowLists.test.ts "Integration Test ext. addToAllowList/removeFromAllowList" cases: managing
//   the allow list is a collection call, not an NFT one.
// - tokenProperties.test.ts "Changes/Deletes properties of a nested token ..." (the "Assigns" one is
//   here), "Allows modifying a token property multiple times with the same size", "Adding then
//   removing a token property doesn't change the consumed space", "Modifying a token property with
//   different sizes correctly changes the consumed space": they read the pallet's `consumedSpace`,
//   which the ledger does not keep as such.
// - tokenProperties.test.ts "Forbids force_repair_item from non-sudo": `forceRepairItem` is a sudo
//   call Opalite does not have. "Set sponsored properties": in rules.test.ts.
// - tokenProperties.seqtest.ts, collectionProperties*.test.ts: runtime-upgrade repairs and
//   collection properties, outside the NFT area.
import { beforeEach, describe, expect, it } from 'vitest';
import { Chain, alice, bob, charlie, collectionOf, failure, freeBalance, freshAccount, nestingAccount, nft, nftAllowance, nftToken, refusedBeforeInclusion, rft } from './kit';
import type { Account } from './kit';
import { effectiveLimits } from '../../src/lib/ledger/access';
import { RULE_SETS } from '../../src/lib/ledger/rules';
import type { PropertyKeyPermission, TokenRef } from '../../src/lib/ledger/types';

let chain: Chain;
beforeEach(async () => {
  chain = await Chain.start();
});

const nftCollection = (owner = alice, extra: Record<string, unknown> = {}) => chain.createCollection(owner, { mode: 'NFT', name: 'col', description: 'descr', tokenPrefix: 'COL', ...extra });
const permission = (key: string, tokenOwner: boolean, mutable: boolean, collectionAdmin: boolean): PropertyKeyPermission => ({ key, permission: { tokenOwner, mutable, collectionAdmin } });
const mintWith = (signer = alice, collectionId: number, owner: string, properties: { key: string; value: string }[]) =>
  chain.ok(signer, 'unique.createItem', { collectionId, owner, properties });
const mintMany = (signer = alice, collectionId: number, owner: string, items: { properties?: { key: string; value: string }[] }[]) =>
  chain.ok(signer, 'unique.createMultipleItems', { collectionId, owner, items: items.map((item) => ({ properties: item.properties ?? [] })) });
/** The chain's `totalPieces` RPC for an NFT: 1 when it exists, none otherwise. */
const totalPieces = async (collectionId: number, tokenId: number) => ((await nftToken(chain, { collectionId, tokenId })) ? 1n : null);

/** createItem.test.ts `mintTokenHelper` for an NFT: the last token id grows by one. */
async function mintTokenHelper(collectionId: number, signer = alice, owner = signer.address, properties: { key: string; value: string }[] = []) {
  const before = await chain.lastTokenId(collectionId);
  await mintWith(signer, collectionId, owner, properties);
  expect(await chain.lastTokenId(collectionId)).toBe(before + 1);
  return { collectionId, tokenId: before + 1 };
}

describe('createItem.test.ts: integration test: ext. ():', () => {
  it('createItem.test.ts: Create new item in NFT collection', async () => {
    const collection = await nftCollection();
    const token = await mintTokenHelper(collection);
    expect((await nftToken(chain, token))?.owner).toBe(alice.address);
  });

  it('createItem.test.ts: Create new item in NFT collection with collection admin permissions', async () => {
    const collection = await nftCollection();
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collection, newAdmin: bob.address });
    const token = await mintTokenHelper(collection, bob, alice.address);
    expect((await nftToken(chain, token))?.owner).toBe(alice.address);
  });

  for (const [title, tokenOwner, mutable] of [
    ['Set property Admin', false, true],
    ['Set property AdminConst', false, false],
    ['Set property itemOwnerOrAdmin', true, true]
  ] as const) {
    it(`createItem.test.ts: ${title}`, async () => {
      const collection = await nftCollection(alice, { properties: [{ key: 'k', value: 'v' }], tokenPropertyPermissions: [permission('k', tokenOwner, mutable, true)] });
      const token = await mintTokenHelper(collection, alice, bob.address, [{ key: 'k', value: 'v' }]);
      expect((await nftToken(chain, token))?.properties).toEqual([{ key: 'k', value: 'v' }]);
    });
  }

  it('createItem.test.ts: Check total pieces of NFT token', async () => {
    const collection = await nftCollection();
    const token = await mintTokenHelper(collection, alice, bob.address);
    expect(await totalPieces(collection, token.tokenId)).toBe(1n);
    await nft.transfer(chain, bob, token, alice.address);
    expect(await totalPieces(collection, token.tokenId)).toBe(1n);
  });
});

describe('createItem.test.ts: Negative integration test: ext. createItem():', () => {
  it('createItem.test.ts: Regular user cannot create new item in NFT collection', async () => {
    const collection = await nftCollection();
    expect(await failure(nft.mint(chain, bob, collection, bob.address))).toBe('common.PublicMintingNotAllowed');
  });

  it('createItem.test.ts: No editing rights', async () => {
    const collection = await nftCollection(alice, { tokenPropertyPermissions: [permission('k', false, false, false)] });
    expect(await failure(mintWith(alice, collection, bob.address, [{ key: 'k', value: 'v' }]))).toBe('common.NoPermission');
  });

  it('createItem.test.ts: User doesnt have editing rights', async () => {
    const collection = await nftCollection(alice, { tokenPropertyPermissions: [permission('k', false, true, false)] });
    expect(await failure(mintWith(alice, collection, bob.address, [{ key: 'k', value: 'v' }]))).toBe('common.NoPermission');
  });

  it('createItem.test.ts: Adding property without access rights', async () => {
    const collection = await nftCollection();
    expect(await failure(mintWith(alice, collection, bob.address, [{ key: 'k', value: 'v' }]))).toBe('common.NoPermission');
  });

  it('createItem.test.ts: Adding more than 64 prps', async () => {
    const collection = await nftCollection();
    const props = Array.from({ length: 65 }, (_, i) => ({ key: `key${i}`, value: `value${i}` }));
    expect(await refusedBeforeInclusion(chain, alice, 'unique.createItem', { collectionId: collection, owner: bob.address, properties: props })).toMatch(/^BadPayload: Could not decode/);
    expect(await chain.lastTokenId(collection)).toBe(0);
  });

  it('createItem.test.ts: Trying to add bigger property than allowed', async () => {
    const collection = await nftCollection(alice, { tokenPropertyPermissions: [permission('k1', true, true, true), permission('k2', true, true, true)] });
    const props = [
      { key: 'k1', value: 'vvvvvv'.repeat(5000) },
      { key: 'k2', value: 'vvv'.repeat(5000) }
    ];
    expect(await failure(mintWith(alice, collection, bob.address, props))).toBe('common.NoSpaceForProperty');
  });

  it('createItem.test.ts: Check total pieces for invalid NFT token', async () => {
    const collection = await nftCollection();
    expect(await totalPieces(collection, 1_000_000)).toBeNull();
  });
});

describe('createMultipleItems.test.ts: Integration Test createMultipleItems(collection_id, owner, items_data):', () => {
  for (const [title, tokenOwner, mutable, collectionAdmin] of [
    ['Create 0x31, 0x32, 0x33 items in active NFT collection and verify tokens data in chain', true, false, false],
    ['Create 0x31, 0x32, 0x33 items in active NFT with property Admin', false, true, true],
    ['Create 0x31, 0x32, 0x33 items in active NFT with property AdminConst', false, false, true],
    ['Create 0x31, 0x32, 0x33 items in active NFT with property itemOwnerOrAdmin', true, true, true]
  ] as const) {
    it(`createMultipleItems.test.ts: ${title}`, async () => {
      const collection = await nftCollection(alice, { tokenPropertyPermissions: [permission('data', tokenOwner, mutable, collectionAdmin)] });
      const args = ['1', '2', '3'].map((value) => ({ properties: [{ key: 'data', value }] }));
      await mintMany(alice, collection, alice.address, args);
      for (const [i, arg] of args.entries()) {
        const token = await nftToken(chain, { collectionId: collection, tokenId: i + 1 });
        expect(token?.owner).toBe(alice.address);
        expect(token?.properties[0].value).toBe(arg.properties[0].value);
      }
    });
  }

  it('createMultipleItems.test.ts: Can mint amount of items equals to collection limits', async () => {
    const collection = await nftCollection(alice, { limits: { tokenLimit: 2 } });
    await mintMany(alice, collection, alice.address, [{}, {}]);
    expect(await chain.lastTokenId(collection)).toBe(2);
  });
});

describe('createMultipleItems.test.ts: Negative Integration Test createMultipleItems(collection_id, owner, items_data):', () => {
  it('createMultipleItems.test.ts: Regular user cannot create items in active NFT collection', async () => {
    const collection = await nftCollection();
    expect(await failure(mintMany(bob, collection, alice.address, [{}, {}]))).toBe('common.PublicMintingNotAllowed');
  });

  it('createMultipleItems.test.ts: Create token in not existing collection', async () => {
    expect(await failure(mintMany(bob, 1_000_000, alice.address, [{}, {}]))).toBe('common.CollectionNotFound');
  });

  for (const [title, values] of [
    ['Create NFTs that has reached the maximum data limit', ['A'.repeat(32769), 'B'.repeat(32769), 'C'.repeat(32769)]],
    ['Create tokens with different data limits <> maximum data limit', ['A', 'B'.repeat(32769)]]
  ] as const) {
    it(`createMultipleItems.test.ts: ${title}`, async () => {
      const collection = await nftCollection(alice, { tokenPropertyPermissions: [permission('data', true, true, true)] });
      const items = values.map((value) => ({ properties: [{ key: 'data', value }] }));
      expect(await refusedBeforeInclusion(chain, alice, 'unique.createMultipleItems', { collectionId: collection, owner: alice.address, items })).toMatch(/^BadPayload/);
    });
  }

  it('createMultipleItems.test.ts: Create tokens with different types', async () => {
    const collection = await nftCollection();
    // The chain test's ['NFT', 'Fungible', 'ReFungible']: each variant with its default data.
    const items = [{ properties: [] }, { properties: [], kind: 'Fungible' as const, amount: 0n }, { properties: [], kind: 'ReFungible' as const, amount: 0n }];
    const mint = chain.ok(alice, 'unique.createMultipleItems', { collectionId: collection, owner: alice.address, items });
    expect(await failure(mint)).toBe('nonfungible.NotNonfungibleDataUsedToMintFungibleCollectionToken');
    expect(await chain.lastTokenId(collection)).toBe(0);
  });

  it('createMultipleItems.test.ts: Fails when minting tokens exceeds collectionLimits amount', async () => {
    const collection = await nftCollection(alice, { tokenPropertyPermissions: [permission('data', true, true, true)], limits: { tokenLimit: 1 } });
    expect(await failure(mintMany(alice, collection, alice.address, [{}, {}]))).toBe('common.CollectionTokenLimitExceeded');
  });

  it('createMultipleItems.test.ts: User doesnt have editing rights', async () => {
    const collection = await nftCollection(alice, { tokenPropertyPermissions: [permission('data', false, true, false)] });
    expect(await failure(mintMany(alice, collection, alice.address, [{ properties: [{ key: 'data', value: 'A' }] }]))).toBe('common.NoPermission');
  });

  it('createMultipleItems.test.ts: Adding property without access rights', async () => {
    const collection = await nftCollection(alice, { properties: [{ key: 'data', value: 'v' }] });
    expect(await failure(mintMany(alice, collection, alice.address, [{ properties: [{ key: 'data', value: 'A' }] }]))).toBe('common.NoPermission');
  });

  it('createMultipleItems.test.ts: Adding more than 64 prps', async () => {
    const collection = await nftCollection();
    const properties = Array.from({ length: 65 }, (_, i) => ({ key: `key${i}`, value: `value${i}` }));
    const items = [{ properties }, { properties }, { properties }];
    expect(await refusedBeforeInclusion(chain, alice, 'unique.createMultipleItems', { collectionId: collection, owner: alice.address, items })).toMatch(/^BadPayload/);
  });
});

describe('burnItem.test.ts: integration test: ext. burnItem():', () => {
  it('burnItem.test.ts: Burn item in NFT collection', async () => {
    const collection = await nftCollection();
    const token = await nft.mint(chain, alice, collection);
    await nft.burn(chain, alice, token);
    expect(await nftToken(chain, token)).toBeUndefined();
  });

  it('burnItem.test.ts: Burn item in NFT collection (with admin permissions)', async () => {
    const collection = await nftCollection();
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId: collection, limits: { ownerCanTransfer: true } });
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collection, newAdmin: bob.address });
    const token = await nft.mint(chain, alice, collection);
    await nftAllowance.burnFrom(chain, bob, token, alice.address);
    expect(await nftToken(chain, token)).toBeUndefined();
  });
});

describe('burnItem.test.ts: Negative integration test: ext. burnItem():', () => {
  it('burnItem.test.ts: Burn a token that was never created', async () => {
    const collection = await nftCollection();
    expect(await failure(nft.burn(chain, alice, { collectionId: collection, tokenId: 10 }))).toBe('common.TokenNotFound');
  });

  it('burnItem.test.ts: Burn a token using the address that does not own it', async () => {
    const collection = await nftCollection();
    const token = await nft.mint(chain, alice, collection);
    expect(await failure(nft.burn(chain, bob, token))).toBe('common.NoPermission');
  });

  it('burnItem.test.ts: Transfer a burned token', async () => {
    const collection = await nftCollection();
    const token = await nft.mint(chain, alice, collection);
    await nft.burn(chain, alice, token);
    expect(await failure(nft.transfer(chain, alice, token, bob.address))).toBe('common.TokenNotFound');
  });

  it('burnItem.test.ts: Zero burn NFT', async () => {
    const collection = await nftCollection();
    const tokenAlice = await nft.mint(chain, alice, collection, alice.address);
    const tokenBob = await nft.mint(chain, alice, collection, bob.address);
    const burn = (tokenId: number) => chain.ok(alice, 'unique.burnItem', { collectionId: collection, tokenId, value: 0n });
    await burn(tokenAlice.tokenId);
    expect(await failure(burn(tokenBob.tokenId))).toBe('common.NoPermission');
    expect(await failure(burn(9999))).toBe('common.TokenNotFound');
    expect((await nftToken(chain, tokenAlice))?.owner).toBe(alice.address);
    expect((await nftToken(chain, tokenBob))?.owner).toBe(bob.address);
    await nft.transfer(chain, alice, tokenAlice, bob.address);
    await nft.transfer(chain, bob, tokenBob, alice.address);
    expect((await nftToken(chain, tokenAlice))?.owner).toBe(bob.address);
    expect((await nftToken(chain, tokenBob))?.owner).toBe(alice.address);
  });

  it('burnItem.test.ts: zero burnFrom NFT', async () => {
    const collection = await nftCollection();
    const notApprovedNft = await nft.mint(chain, alice, collection, bob.address);
    const approvedNft = await nft.mint(chain, alice, collection, bob.address);
    await nftAllowance.approve(chain, bob, approvedNft, alice.address);
    const burnFrom = (tokenId: number) => chain.ok(alice, 'unique.burnFrom', { collectionId: collection, from: bob.address, tokenId, value: 0n });
    expect(await failure(burnFrom(9999))).toBe('common.ApprovedValueTooLow');
    expect(await failure(burnFrom(notApprovedNft.tokenId))).toBe('common.ApprovedValueTooLow');
    await burnFrom(approvedNft.tokenId);
    expect(await nftAllowance.allowance(chain, approvedNft, bob.address, alice.address)).toBe(1n);
    expect((await nftToken(chain, approvedNft))?.owner).toBe(bob.address);
    expect((await nftToken(chain, notApprovedNft))?.owner).toBe(bob.address);
    await nftAllowance.burnFrom(chain, alice, approvedNft, bob.address);
    expect(await nftToken(chain, approvedNft)).toBeUndefined();
  });
});

describe('transfer.test.ts: NFT transfers', () => {
  it('transfer.test.ts: [nft] User can transfer owned token', async () => {
    const collection = await nftCollection();
    const token = await nft.mint(chain, alice, collection);
    await nft.transfer(chain, alice, token, bob.address);
    expect((await nftToken(chain, token))?.owner).toBe(bob.address);
  });

  it('transfer.test.ts: [nft] Collection admin can transfer owned token', async () => {
    const collection = await nftCollection();
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collection, newAdmin: bob.address });
    const token = await nft.mint(chain, bob, collection, bob.address);
    await nft.transfer(chain, bob, token, alice.address);
    expect((await nftToken(chain, token))?.owner).toBe(alice.address);
  });

  it('transfer.test.ts: [nft] Transfer with not existed collection_id', async () => {
    expect(await failure(nft.transfer(chain, alice, { collectionId: 1_000_000, tokenId: 1 }, bob.address))).toBe('common.CollectionNotFound');
  });

  it('transfer.test.ts: [nft] Transfer with deleted collection_id', async () => {
    const collection = await nftCollection();
    const token = await nft.mint(chain, alice, collection);
    await nft.burn(chain, alice, token);
    await chain.ok(alice, 'unique.destroyCollection', { collectionId: collection });
    expect(await failure(nft.transfer(chain, alice, token, bob.address))).toBe('common.CollectionNotFound');
  });

  it('transfer.test.ts: [nft] Transfer with not existed item_id', async () => {
    const collection = await nftCollection();
    expect(await failure(nft.transfer(chain, alice, { collectionId: collection, tokenId: 1 }, bob.address))).toBe('common.TokenNotFound');
  });

  it('transfer.test.ts: Zero transfer NFT', async () => {
    const collection = await nftCollection();
    const tokenAlice = await nft.mint(chain, alice, collection, alice.address);
    const tokenBob = await nft.mint(chain, alice, collection, bob.address);
    const transfer = (to: string, tokenId: number) => chain.ok(alice, 'unique.transfer', { to, collectionId: collection, tokenId, value: 0n });
    await transfer(bob.address, tokenAlice.tokenId);
    expect(await failure(transfer(alice.address, tokenBob.tokenId))).toBe('common.NoPermission');
    expect(await failure(transfer(alice.address, 10))).toBe('common.TokenNotFound');
    expect((await nftToken(chain, tokenAlice))?.owner).toBe(alice.address);
    expect((await nftToken(chain, tokenBob))?.owner).toBe(bob.address);
    await nft.transfer(chain, alice, tokenAlice, bob.address);
    await nft.transfer(chain, bob, tokenBob, alice.address);
    expect((await nftToken(chain, tokenAlice))?.owner).toBe(bob.address);
    expect((await nftToken(chain, tokenBob))?.owner).toBe(alice.address);
  });

  it('transfer.test.ts: [nft] Transfer with deleted item_id', async () => {
    const collection = await nftCollection();
    const token = await nft.mint(chain, alice, collection);
    await nft.burn(chain, alice, token);
    expect(await failure(nft.transfer(chain, alice, token, bob.address))).toBe('common.TokenNotFound');
  });

  it('transfer.test.ts: [nft] Transfer with recipient that is not owner', async () => {
    const collection = await nftCollection();
    const token = await nft.mint(chain, alice, collection);
    expect(await failure(nft.transfer(chain, bob, token, bob.address))).toBe('common.NoPermission');
    expect((await nftToken(chain, token))?.owner).toBe(alice.address);
  });
});

describe('limits.test.ts: NFT collection limits', () => {
  it('limits.test.ts: Number of tokens per address (NFT): Collection limits allow lower number than chain limits, collection limits are enforced', async () => {
    const collection = await chain.createCollection(alice, { mode: 'NFT' });
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId: collection, limits: { accountTokenOwnershipLimit: 1 } });
    await nft.mint(chain, alice, collection);
    expect(await failure(nft.mint(chain, alice, collection))).toBe('common.AccountTokenLimitExceeded');
    await nft.burn(chain, alice, { collectionId: collection, tokenId: 1 });
    await chain.ok(alice, 'unique.destroyCollection', { collectionId: collection });
    expect(await collectionOf(chain, collection)).toBeUndefined();
  });

  it('limits.test.ts: Number of tokens per address (NFT): Can transfer tokens to address equal to accountTokenOwnershipLimit', async () => {
    const collection = await chain.createCollection(alice, { mode: 'NFT' });
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId: collection, limits: { accountTokenOwnershipLimit: 1 } });
    const tkn1 = await nft.mint(chain, alice, collection);
    await nft.transfer(chain, alice, tkn1, bob.address);
    const tkn2 = await nft.mint(chain, alice, collection);
    expect(await failure(nft.transfer(chain, alice, tkn2, bob.address))).toBe('common.AccountTokenLimitExceeded');
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId: collection, limits: { accountTokenOwnershipLimit: 2 } });
    await nft.transfer(chain, alice, tkn2, bob.address);
    const tkn3 = await nft.mint(chain, alice, collection);
    expect(await failure(nft.transfer(chain, alice, tkn3, bob.address))).toBe('common.AccountTokenLimitExceeded');
  });

  it('limits.test.ts: Collection zero limits (NFT): Limits have 0 in sponsor timeout, no limits are applied', async () => {
    const collection = await chain.createCollection(alice, { mode: 'NFT' });
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId: collection, limits: { sponsorTransferTimeout: 0 } });
    const token = await nft.mint(chain, alice, collection);
    await chain.ok(alice, 'unique.setCollectionSponsor', { collectionId: collection, newSponsor: alice.address });
    await chain.ok(alice, 'unique.confirmSponsorship', { collectionId: collection });
    await nft.transfer(chain, alice, token, bob.address);
    const aliceBefore = await freeBalance(chain, alice.address);
    const bobBefore = await freeBalance(chain, bob.address);
    // Instant blocks: the next transfer is in the next block.
    await nft.transfer(chain, bob, token, charlie.address);
    expect(await freeBalance(chain, alice.address)).toBeLessThan(aliceBefore);
    expect(await freeBalance(chain, bob.address)).toBe(bobBefore);
  });

  it('limits.test.ts: Effective collection limits (NFT): Effective collection limits', async () => {
    const collection = await chain.createCollection(alice, { mode: 'NFT' });
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId: collection, limits: { ownerCanTransfer: true } });
    const stored = (await collectionOf(chain, collection))!.limits;
    expect(stored).toEqual({
      accountTokenOwnershipLimit: null,
      sponsoredDataSize: null,
      sponsoredDataRateLimit: null,
      tokenLimit: null,
      sponsorTransferTimeout: null,
      sponsorApproveTimeout: null,
      ownerCanTransfer: true,
      ownerCanDestroy: null,
      transfersEnabled: null
    });
    expect(effectiveLimits(stored, RULE_SETS.unique)).toEqual({
      accountTokenOwnershipLimit: 100_000_000,
      sponsoredDataSize: 2048,
      sponsoredDataRateLimit: 0, // the chain's `SponsoringDisabled`
      tokenLimit: 4_294_967_295,
      sponsorTransferTimeout: 5,
      sponsorApproveTimeout: 5,
      ownerCanTransfer: true,
      ownerCanDestroy: true,
      transfersEnabled: true
    });
    await chain.ok(alice, 'unique.setCollectionLimits', {
      collectionId: collection,
      limits: { accountTokenOwnershipLimit: 99_999, sponsoredDataSize: 1024, tokenLimit: 123, transfersEnabled: false }
    });
    const limits = effectiveLimits((await collectionOf(chain, collection))!.limits, RULE_SETS.unique);
    expect(limits).toMatchObject({ accountTokenOwnershipLimit: 99_999, sponsoredDataSize: 1024, sponsoredDataRateLimit: 0, tokenLimit: 123, sponsorTransferTimeout: 5, sponsorApproveTimeout: 5, ownerCanTransfer: true, ownerCanDestroy: true, transfersEnabled: false });
  });
});

describe('sub/nesting/tokenProperties.test.ts: Integration Test: Token Properties', () => {
  type Perm = { mutable: boolean; collectionAdmin?: boolean; tokenOwner?: boolean };
  // alice: collection owner, bob: collection admin, charlie: token owner.
  const permissions: { permission: Perm; signers: Account[] }[] = [
    { permission: { mutable: true, collectionAdmin: true }, signers: [alice, bob] },
    { permission: { mutable: false, collectionAdmin: true }, signers: [alice, bob] },
    { permission: { mutable: true, tokenOwner: true }, signers: [charlie] },
    { permission: { mutable: false, tokenOwner: true }, signers: [charlie] },
    { permission: { mutable: true, collectionAdmin: true, tokenOwner: true }, signers: [alice, bob, charlie] },
    { permission: { mutable: false, collectionAdmin: true, tokenOwner: true }, signers: [alice, bob, charlie] }
  ];
  const asPermission = ({ mutable, collectionAdmin = false, tokenOwner = false }: Perm) => ({ mutable, collectionAdmin, tokenOwner });
  const keyOf = (i: number, signer: Account) => `${i + 1}_${signer.address}`;
  const setProps = (signer: Account, token: TokenRef, properties: { key: string; value: string }[]) =>
    chain.ok(signer, 'unique.setTokenProperties', { collectionId: token.collectionId, tokenId: token.tokenId, properties });
  const deleteProps = (signer: Account, token: TokenRef, propertyKeys: string[]) =>
    chain.ok(signer, 'unique.deleteTokenProperties', { collectionId: token.collectionId, tokenId: token.tokenId, propertyKeys });
  const propertiesOf = async (token: TokenRef) => (await chain.ledger.read((tx) => tx.get('tokens', [token.collectionId, token.tokenId])))?.properties ?? [];

  /** `mintCollectionWithAllPermissionsAndToken`: an NFT (1 piece) or a ReFungible token (100 pieces) of Alice. */
  async function mintCollectionWithAllPermissionsAndToken(mode: 'NFT' | 'RFT', tokenPropertyPermissions = permissions.flatMap(({ permission, signers }, i) => signers.map((signer) => ({ key: keyOf(i, signer), permission: asPermission(permission) })))): Promise<[TokenRef, bigint]> {
    const collectionId = await chain.createCollection(alice, { mode: mode === 'NFT' ? 'NFT' : 'ReFungible', tokenPropertyPermissions });
    return mode === 'NFT' ? [await nft.mint(chain, alice, collectionId), 1n] : [await rft.mint(chain, alice, collectionId, 100n), 100n];
  }
  /** The tests' setup: Bob becomes an admin and Charlie gets the whole token. */
  async function handOver(token: TokenRef, pieces: bigint) {
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: token.collectionId, newAdmin: bob.address });
    await chain.ok(alice, 'unique.transfer', { to: charlie.address, collectionId: token.collectionId, tokenId: token.tokenId, value: pieces });
  }

  it('sub/nesting/tokenProperties.test.ts: Reads yet empty properties of a token (NFT)', async () => {
    const token = await nft.mint(chain, alice, await chain.createCollection(alice, { mode: 'NFT' }));
    expect(await propertiesOf(token)).toEqual([]);
  });

  for (const mode of ['NFT', 'RFT'] as const) {
    const suffix = mode === 'NFT' ? '(NFT)' : '(ReFungible)';
    it(`sub/nesting/tokenProperties.test.ts: Assigns properties to a token according to permissions ${suffix}`, async () => {
      const [token, pieces] = await mintCollectionWithAllPermissionsAndToken(mode);
      await handOver(token, pieces);
      const keys: string[] = [];
      for (const [i, { signers }] of permissions.entries()) {
        for (const signer of signers) {
          keys.push(keyOf(i, signer));
          await setProps(signer, token, [{ key: keyOf(i, signer), value: 'Serotonin increase' }]);
        }
      }
      const properties = await propertiesOf(token);
      expect(properties.map((p) => p.key).sort()).toEqual([...keys].sort());
      expect(properties.every((p) => p.value === 'Serotonin increase')).toBe(true);
    });

    it(`sub/nesting/tokenProperties.test.ts: Changes properties of a token according to permissions ${suffix}`, async () => {
      const [token, pieces] = await mintCollectionWithAllPermissionsAndToken(mode);
      await handOver(token, pieces);
      for (const [i, { permission, signers }] of permissions.entries()) {
        if (!permission.mutable) continue;
        for (const signer of signers) {
          await setProps(signer, token, [{ key: keyOf(i, signer), value: 'Serotonin increase' }]);
          await setProps(signer, token, [{ key: keyOf(i, signer), value: 'Serotonin stable' }]);
        }
      }
      const properties = await propertiesOf(token);
      expect(properties).toHaveLength(6);
      expect(properties.every((p) => p.value === 'Serotonin stable')).toBe(true);
    });

    it(`sub/nesting/tokenProperties.test.ts: Deletes properties of a token according to permissions ${suffix}`, async () => {
      const [token, pieces] = await mintCollectionWithAllPermissionsAndToken(mode);
      await handOver(token, pieces);
      for (const [i, { permission, signers }] of permissions.entries()) {
        if (!permission.mutable) continue;
        for (const signer of signers) {
          await setProps(signer, token, [{ key: keyOf(i, signer), value: 'Serotonin increase' }]);
          await deleteProps(signer, token, [keyOf(i, signer)]);
        }
      }
      expect(await propertiesOf(token)).toEqual([]);
    });
  }

  it('sub/nesting/tokenProperties.test.ts: Assigns properties to a nested token according to permissions', async () => {
    const collectionA = await chain.createCollection(alice, { mode: 'NFT', permissions: { nesting: { tokenOwner: true } } });
    const collectionB = await chain.createCollection(alice, {
      mode: 'NFT',
      tokenPropertyPermissions: permissions.flatMap(({ permission, signers }, i) => signers.map((signer) => ({ key: keyOf(i, signer), permission: asPermission(permission) })))
    });
    const targetToken = await nft.mint(chain, alice, collectionA);
    const nestedToken = await nft.mint(chain, alice, collectionB, nestingAccount(targetToken));
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collectionB, newAdmin: bob.address });
    await nft.transfer(chain, alice, targetToken, charlie.address);
    for (const [i, { signers }] of permissions.entries()) {
      for (const signer of signers) await setProps(signer, nestedToken, [{ key: keyOf(i, signer), value: 'Serotonin increase' }]);
    }
    expect(await propertiesOf(nestedToken)).toHaveLength(12);
    expect(await propertiesOf(targetToken)).toEqual([]);
  });
});

describe('sub/nesting/tokenProperties.test.ts: Negative Integration Test: Token Properties', () => {
  type Perm = { mutable: boolean; collectionAdmin?: boolean; tokenOwner?: boolean };
  const dave = freshAccount('//Dave');
  const constitution: { permission: Perm; signers: Account[]; sinner: Account }[] = [
    { permission: { mutable: true, collectionAdmin: true }, signers: [alice, bob], sinner: charlie },
    { permission: { mutable: false, collectionAdmin: true }, signers: [alice, bob], sinner: charlie },
    { permission: { mutable: true, tokenOwner: true }, signers: [charlie], sinner: alice },
    { permission: { mutable: false, tokenOwner: true }, signers: [charlie], sinner: alice },
    { permission: { mutable: true, collectionAdmin: true, tokenOwner: true }, signers: [alice, bob, charlie], sinner: dave },
    { permission: { mutable: false, collectionAdmin: true, tokenOwner: true }, signers: [alice, bob, charlie], sinner: dave }
  ];
  const asPermission = ({ mutable, collectionAdmin = false, tokenOwner = false }: Perm) => ({ mutable, collectionAdmin, tokenOwner });
  const setProps = (signer: Account, token: TokenRef, properties: { key: string; value: string }[]) =>
    chain.ok(signer, 'unique.setTokenProperties', { collectionId: token.collectionId, tokenId: token.tokenId, properties });
  const deleteProps = (signer: Account, token: TokenRef, propertyKeys: string[]) =>
    chain.ok(signer, 'unique.deleteTokenProperties', { collectionId: token.collectionId, tokenId: token.tokenId, propertyKeys });
  const propertiesOf = async (token: TokenRef) => (await chain.ledger.read((tx) => tx.get('tokens', [token.collectionId, token.tokenId])))?.properties ?? [];

  /** `mintCollectionWithAllPermissionsAndToken` plus `prepare`: keys 1..6 set by their first signer, Charlie holding the token. */
  async function prepared(mode: 'NFT' | 'RFT'): Promise<TokenRef> {
    const collectionId = await chain.createCollection(alice, { mode: mode === 'NFT' ? 'NFT' : 'ReFungible', tokenPropertyPermissions: constitution.map(({ permission }, i) => ({ key: `${i + 1}`, permission: asPermission(permission) })) });
    const token = mode === 'NFT' ? await nft.mint(chain, alice, collectionId) : await rft.mint(chain, alice, collectionId, 100n);
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId, newAdmin: bob.address });
    await chain.ok(alice, 'unique.transfer', { to: charlie.address, collectionId, tokenId: token.tokenId, value: mode === 'NFT' ? 1n : 100n });
    for (const [i, { signers }] of constitution.entries()) await setProps(signers[0], token, [{ key: `${i + 1}`, value: 'Serotonin increase' }]);
    return token;
  }

  for (const mode of ['NFT', 'RFT'] as const) {
    const suffix = mode === 'NFT' ? '(NFT)' : '(ReFungible)';
    it(`sub/nesting/tokenProperties.test.ts: Forbids adding/deleting properties of a token if token doesn't exist (${mode === 'NFT' ? 'nft' : 'rft'})`, async () => {
      const collectionId = await chain.createCollection(alice, { mode: mode === 'NFT' ? 'NFT' : 'ReFungible', tokenPropertyPermissions: [{ key: '1', permission: asPermission(constitution[0].permission) }] });
      const nonExistentToken = { collectionId, tokenId: 1 };
      expect(await failure(setProps(alice, nonExistentToken, [{ key: '1', value: 'Serotonin increase' }]))).toBe('common.TokenNotFound');
      expect(await failure(deleteProps(alice, nonExistentToken, ['1']))).toBe('common.TokenNotFound');
    });

    it(`sub/nesting/tokenProperties.test.ts: Forbids changing/deleting properties of a token if the user is outside of permissions ${suffix}`, async () => {
      const token = await prepared(mode);
      const before = await propertiesOf(token);
      for (const [i, { permission, sinner }] of constitution.entries()) {
        if (!permission.mutable) continue;
        expect(await failure(setProps(sinner, token, [{ key: `${i + 1}`, value: 'Serotonin down' }]))).toBe('common.NoPermission');
        expect(await failure(deleteProps(sinner, token, [`${i + 1}`]))).toBe('common.NoPermission');
      }
      expect(await propertiesOf(token)).toEqual(before);
    });

    it(`sub/nesting/tokenProperties.test.ts: Forbids changing/deleting properties of a token if the property is permanent (immutable) ${suffix}`, async () => {
      const token = await prepared(mode);
      const before = await propertiesOf(token);
      for (const [i, { permission, signers }] of constitution.entries()) {
        if (permission.mutable) continue;
        expect(await failure(setProps(signers[0], token, [{ key: `${i + 1}`, value: 'Serotonin down' }]))).toBe('common.NoPermission');
        expect(await failure(deleteProps(signers[0], token, [`${i + 1}`]))).toBe('common.NoPermission');
      }
      expect(await propertiesOf(token)).toEqual(before);
    });

    it(`sub/nesting/tokenProperties.test.ts: Forbids adding properties to a token if the property is not declared / forbidden with the 'None' permission ${suffix}`, async () => {
      const token = await prepared(mode);
      const before = await propertiesOf(token);
      expect(await failure(setProps(alice, token, [{ key: 'non-existent', value: 'I exist!' }]))).toBe('common.NoPermission');
      await chain.ok(alice, 'unique.setTokenPropertyPermissions', { collectionId: token.collectionId, propertyPermissions: [{ key: 'now-existent', permission: asPermission({ mutable: false }) }] });
      expect(await failure(setProps(alice, token, [{ key: 'now-existent', value: 'I exist!' }]))).toBe('common.NoPermission');
      expect(await propertiesOf(token)).toEqual(before);
    });

    it(`sub/nesting/tokenProperties.test.ts: Forbids adding too large properties to a token ${suffix}`, async () => {
      const token = await prepared(mode);
      const before = await propertiesOf(token);
      const open = asPermission({ mutable: false, collectionAdmin: true, tokenOwner: true });
      await chain.ok(alice, 'unique.setTokenPropertyPermissions', { collectionId: token.collectionId, propertyPermissions: [{ key: 'a_holy_book', permission: open }, { key: 'young_years', permission: open }] });
      const tooLong = { collectionId: token.collectionId, tokenId: token.tokenId, properties: [{ key: 'a_holy_book', value: 'word '.repeat(6554) }] };
      expect(await refusedBeforeInclusion(chain, alice, 'unique.setTokenProperties', tooLong)).toMatch(/^BadPayload/);
      const tooMuch = [
        { key: 'a_holy_book', value: 'word '.repeat(3277) },
        { key: 'young_years', value: 'neverending'.repeat(1490) }
      ];
      expect(await failure(setProps(alice, token, tooMuch))).toBe('common.NoSpaceForProperty');
      expect(await propertiesOf(token)).toEqual(before);
    });

    it(`sub/nesting/tokenProperties.test.ts: Forbids adding too many propeties to a token (${mode === 'NFT' ? 'nft' : 'rft'})`, async () => {
      const collectionId = await chain.createCollection(alice, { mode: mode === 'NFT' ? 'NFT' : 'ReFungible' });
      const open = asPermission({ mutable: true, tokenOwner: true, collectionAdmin: true });
      for (let i = 0; i < 64; i++) await chain.ok(alice, 'unique.setTokenPropertyPermissions', { collectionId, propertyPermissions: [{ key: `${i + 1}`, permission: open }] });
      expect(await failure(chain.ok(alice, 'unique.setTokenPropertyPermissions', { collectionId, propertyPermissions: [{ key: '64-th', permission: open }] }))).toBe('common.PropertyLimitReached');
    });
  }
});

describe('sub/nesting/tokenProperties.test.ts: ReFungible token properties permissions tests', () => {
  const setProps = (signer: Account, token: TokenRef, value: string) =>
    chain.ok(signer, 'unique.setTokenProperties', { collectionId: token.collectionId, tokenId: token.tokenId, properties: [{ key: 'fractals', value }] });
  const permit = (token: TokenRef, permission: { mutable: boolean; tokenOwner: boolean; collectionAdmin: boolean }) =>
    chain.ok(alice, 'unique.setTokenPropertyPermissions', { collectionId: token.collectionId, propertyPermissions: [{ key: 'fractals', permission }] });
  async function prepare(): Promise<TokenRef> {
    const collectionId = await chain.createCollection(alice, { mode: 'ReFungible' });
    const token = await rft.mint(chain, alice, collectionId, 100n);
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId, newAdmin: bob.address });
    await permit(token, { mutable: true, tokenOwner: true, collectionAdmin: false });
    return token;
  }

  it("sub/nesting/tokenProperties.test.ts: Forbids adding token property with tokenOwner==true when signer doesn't have all pieces", async () => {
    const token = await prepare();
    await rft.transfer(chain, alice, token, charlie.address, 33n);
    expect(await failure(setProps(alice, token, 'multiverse'))).toBe('common.NoPermission');
  });

  it("sub/nesting/tokenProperties.test.ts: Forbids mutating token property with tokenOwner==true when signer doesn't have all pieces", async () => {
    const token = await prepare();
    await permit(token, { mutable: true, tokenOwner: true, collectionAdmin: false });
    await setProps(alice, token, 'multiverse');
    await rft.transfer(chain, alice, token, charlie.address, 33n);
    expect(await failure(setProps(alice, token, 'want to rule the world'))).toBe('common.NoPermission');
  });

  it("sub/nesting/tokenProperties.test.ts: Forbids deleting token property with tokenOwner==true when signer doesn't have all pieces", async () => {
    const token = await prepare();
    await setProps(alice, token, 'one headline - why believe it');
    await rft.transfer(chain, alice, token, charlie.address, 33n);
    const deletion = chain.ok(alice, 'unique.deleteTokenProperties', { collectionId: token.collectionId, tokenId: token.tokenId, propertyKeys: ['fractals'] });
    expect(await failure(deletion)).toBe('common.NoPermission');
  });

  it("sub/nesting/tokenProperties.test.ts: Allows token property mutation with collectionOwner==true when admin doesn't have all pieces", async () => {
    const token = await prepare();
    await rft.transfer(chain, alice, token, charlie.address, 33n);
    await permit(token, { mutable: true, tokenOwner: false, collectionAdmin: true });
    await setProps(alice, token, 'multiverse');
    expect((await nftToken(chain, token))?.properties).toEqual([{ key: 'fractals', value: 'multiverse' }]);
  });
});

describe('sub/check-event: NFT events', () => {
  const eventStrings = (events: { section: string; method: string }[]) => events.map((e) => `${e.section}.${e.method}`);
  const newCollection = () => chain.createCollection(alice, { mode: 'NFT', name: 'test', description: 'test', tokenPrefix: 'test' });

  it('sub/check-event/createItemEvent.test.ts: Check event from createItem(): ', async () => {
    const events = await chain.ok(alice, 'unique.createItem', { collectionId: await newCollection(), owner: alice.address, properties: [] });
    expect(eventStrings(events)).toEqual(expect.arrayContaining(['common.ItemCreated', 'treasury.Deposit', 'system.ExtrinsicSuccess']));
  });

  it('sub/check-event/createMultipleItemsEvent.test.ts: Check event from createMultipleItems(): ', async () => {
    const collectionId = await newCollection();
    const events = await chain.ok(alice, 'unique.createMultipleItemsEx', { collectionId, items: [{ owner: alice.address, properties: [] }, { owner: alice.address, properties: [] }] });
    expect(eventStrings(events)).toEqual(expect.arrayContaining(['common.ItemCreated', 'treasury.Deposit', 'system.ExtrinsicSuccess']));
  });

  it('sub/check-event/transferEvent.test.ts: Check event from transfer(): ', async () => {
    const token = await nft.mint(chain, alice, await newCollection());
    const events = await nft.transfer(chain, alice, token, bob.address);
    expect(eventStrings(events)).toEqual(expect.arrayContaining(['common.Transfer', 'treasury.Deposit', 'system.ExtrinsicSuccess']));
  });

  it('sub/check-event/transferFromEvent.test.ts: Check event from transfer(): ', async () => {
    const token = await nft.mint(chain, alice, await newCollection());
    const events = await nftAllowance.transferFrom(chain, alice, token, alice.address, bob.address);
    expect(eventStrings(events)).toEqual(expect.arrayContaining(['common.Transfer', 'treasury.Deposit', 'system.ExtrinsicSuccess']));
  });

  it('sub/check-event/burnItemEvent.test.ts: Check event from burnItem(): ', async () => {
    const token = await nft.mint(chain, alice, await newCollection());
    const events = await nft.burn(chain, alice, token);
    expect(eventStrings(events)).toEqual(expect.arrayContaining(['common.ItemDestroyed', 'treasury.Deposit', 'system.ExtrinsicSuccess']));
  });
});

describe('adminTransferAndBurn.test.ts: Integration Test: ownerCanTransfer allows admins to use only transferFrom/burnFrom:', () => {
  const ownerCanTransferCollection = async () => {
    const collectionId = await chain.createCollection(alice, { mode: 'NFT', name: 'name', description: 'descr', tokenPrefix: 'COL' });
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId, limits: { ownerCanTransfer: true } });
    expect(effectiveLimits((await collectionOf(chain, collectionId))!.limits, RULE_SETS.unique).ownerCanTransfer).toBe(true);
    return collectionId;
  };

  it("adminTransferAndBurn.test.ts: admin transfers other user's token", async () => {
    const token = await nft.mint(chain, alice, await ownerCanTransferCollection(), bob.address);
    expect(await failure(nft.transfer(chain, alice, token, charlie.address))).toMatch(/^common\./);
    await nftAllowance.transferFrom(chain, alice, token, bob.address, charlie.address);
    expect((await nftToken(chain, token))?.owner).toBe(charlie.address);
  });

  it("adminTransferAndBurn.test.ts: admin burns other user's token", async () => {
    const token = await nft.mint(chain, alice, await ownerCanTransferCollection(), bob.address);
    expect(await failure(nft.burn(chain, alice, token))).toMatch(/^common\./);
    await nft.burn(chain, bob, token);
    expect(await nftToken(chain, token)).toBeUndefined();
  });
});

describe('enableDisableTransfer.test.ts: Enable/Disable Transfers', () => {
  const withTransfers = (transfersEnabled: boolean) => chain.createCollection(alice, { mode: 'NFT', name: 'test', description: 'test', tokenPrefix: 'test', limits: { transfersEnabled } });

  it('enableDisableTransfer.test.ts: User can transfer token with enabled transfer flag', async () => {
    const token = await nft.mint(chain, alice, await withTransfers(true));
    await nft.transfer(chain, alice, token, bob.address);
    expect((await nftToken(chain, token))?.owner).toBe(bob.address);
  });

  it("enableDisableTransfer.test.ts: User can'n transfer token with disabled transfer flag", async () => {
    const token = await nft.mint(chain, alice, await withTransfers(false));
    expect(await failure(nft.transfer(chain, alice, token, bob.address))).toBe('common.TransferNotAllowed');
  });

  it('enableDisableTransfer.test.ts: Non-owner cannot change transfer flag', async () => {
    const collectionId = await withTransfers(true);
    expect(await failure(chain.ok(bob, 'unique.setCollectionLimits', { collectionId, limits: { transfersEnabled: false } }))).toBe('common.NoPermission');
  });
});

describe('allowLists.test.ts: Integration Test ext. Transfer if included in Allow List', () => {
  /** An NFT collection in AllowList access with a token of Alice's, `listed` on its allow list. */
  async function allowListed(...listed: Account[]): Promise<TokenRef> {
    const collectionId = await chain.createCollection(alice, { mode: 'NFT', name: 'col', description: 'descr', tokenPrefix: 'COL' });
    const token = await nft.mint(chain, alice, collectionId, alice.address);
    await chain.ok(alice, 'unique.setCollectionPermissions', { collectionId, permissions: { access: 'AllowList' } });
    for (const who of listed) await chain.ok(alice, 'unique.addToAllowList', { collectionId, address: who.address });
    return token;
  }
  const unlist = (token: TokenRef, who: Account) => chain.ok(alice, 'unique.removeFromAllowList', { collectionId: token.collectionId, address: who.address });

  for (const [title, approveFirst] of [
    ['tokens can be transferred to a allowlisted address with transfer.', false],
    ['tokens can be transferred to a allowlisted address with transferFrom.', true],
    ['tokens can be transferred from a allowlisted address with transfer', false],
    ['tokens can be transferred from a allowlisted address with transferFrom', true]
  ] as const) {
    it(`allowLists.test.ts: If Public Access mode is set to AllowList, ${title}`, async () => {
      const token = await allowListed(alice, charlie);
      if (approveFirst) {
        await nftAllowance.approve(chain, alice, token, charlie.address);
        await nftAllowance.transferFrom(chain, alice, token, alice.address, charlie.address);
      } else {
        await nft.transfer(chain, alice, token, charlie.address);
      }
      expect((await nftToken(chain, token))?.owner).toBe(charlie.address);
    });
  }

  it("allowLists.test.ts: If Public Access mode is set to AllowList, tokens can't be transferred from a non-allowlisted address with transfer or transferFrom. Test1", async () => {
    const token = await allowListed(charlie);
    expect(await failure(nft.transfer(chain, alice, token, charlie.address))).toBe('common.AddressNotInAllowlist');
  });

  it("allowLists.test.ts: If Public Access mode is set to AllowList, tokens can't be transferred from a non-allowlisted address with transfer or transferFrom. Test2", async () => {
    const token = await allowListed(alice, charlie);
    await nftAllowance.approve(chain, alice, token, charlie.address);
    await unlist(token, alice);
    expect(await failure(nft.transfer(chain, alice, token, charlie.address))).toBe('common.AddressNotInAllowlist');
  });

  it("allowLists.test.ts: If Public Access mode is set to AllowList, tokens can't be transferred to a non-allowlisted address with transfer or transferFrom. Test1", async () => {
    const token = await allowListed(alice);
    expect(await failure(nft.transfer(chain, alice, token, charlie.address))).toBe('common.AddressNotInAllowlist');
  });

  it("allowLists.test.ts: If Public Access mode is set to AllowList, tokens can't be transferred to a non-allowlisted address with transfer or transferFrom. Test2", async () => {
    const token = await allowListed(alice, charlie);
    await nftAllowance.approve(chain, alice, token, charlie.address);
    await unlist(token, alice);
    expect(await failure(nft.transfer(chain, alice, token, charlie.address))).toBe('common.AddressNotInAllowlist');
  });

  it("allowLists.test.ts: If Public Access mode is set to AllowList, tokens can't be destroyed by a non-allowlisted address (even if it owned them before enabling AllowList mode)", async () => {
    const token = await allowListed();
    expect(await failure(nft.burn(chain, bob, token))).toBe('common.NoPermission');
  });

  it("allowLists.test.ts: If Public Access mode is set to AllowList, token transfers can't be Approved by a non-allowlisted address (see Approve method)", async () => {
    const token = await allowListed();
    expect(await failure(nftAllowance.approve(chain, alice, token, bob.address))).toBe('common.AddressNotInAllowlist');
  });
});

describe('allowLists.test.ts: Integration Test ext. Mint if included in Allow List', () => {
  for (const permissions of [
    { access: 'Normal', mintMode: false },
    { access: 'Normal', mintMode: true },
    { access: 'AllowList', mintMode: false },
    { access: 'AllowList', mintMode: true }
  ] as const) {
    const suite = `Public Access Mode = ${permissions.access}, Mint Mode = ${permissions.mintMode}`;
    const allowlistedMintingShouldFail = !permissions.mintMode;
    const rejection = permissions.mintMode ? 'common.AddressNotInAllowlist' : 'common.PublicMintingNotAllowed';
    const collectionWith = async () => {
      const collectionId = await chain.createCollection(alice, { mode: 'NFT' });
      await chain.ok(alice, 'unique.setCollectionPermissions', { collectionId, permissions });
      return collectionId;
    };

    it(`allowLists.test.ts: ${suite}: With the condtions above, tokens can be created by owner`, async () => {
      await nft.mint(chain, alice, await collectionWith(), alice.address);
    });

    it(`allowLists.test.ts: ${suite}: With the condtions above, tokens can be created by admin`, async () => {
      const collectionId = await collectionWith();
      await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId, newAdmin: bob.address });
      await nft.mint(chain, bob, collectionId, bob.address);
    });

    it(`allowLists.test.ts: ${suite}: With the condtions above, tokens can${allowlistedMintingShouldFail ? "'t" : ''} be created by allow-listed addresses`, async () => {
      const collectionId = await collectionWith();
      await chain.ok(alice, 'unique.addToAllowList', { collectionId, address: bob.address });
      const minting = nft.mint(chain, bob, collectionId, bob.address);
      if (allowlistedMintingShouldFail) expect(await failure(minting)).toBe(rejection);
      else expect((await nftToken(chain, await minting))?.owner).toBe(bob.address);
    });

    it(`allowLists.test.ts: ${suite}: With the condtions above, tokens can't be created by non-priviliged non-allow-listed address`, async () => {
      expect(await failure(nft.mint(chain, bob, await collectionWith(), bob.address))).toBe(rejection);
    });
  }
});

describe('sub/nesting/propertyPermissions.test.ts: Access Rights to Token Properties', () => {
  const permissionsOf = async (collectionId: number) => (await collectionOf(chain, collectionId))!.tokenPropertyPermissions;
  const setPermissions = (signer: Account, collectionId: number, propertyPermissions: { key: string; permission: Partial<{ mutable: boolean; collectionAdmin: boolean; tokenOwner: boolean }> }[]) =>
    chain.ok(signer, 'unique.setTokenPropertyPermissions', {
      collectionId,
      propertyPermissions: propertyPermissions.map(({ key, permission }) => ({ key, permission: { mutable: false, collectionAdmin: false, tokenOwner: false, ...permission } }))
    });
  const modes = [
    ['NFT', 'NFT'],
    ['ReFungible', 'ReFungible']
  ] as const;

  it('sub/nesting/propertyPermissions.test.ts: Reads access rights to properties of a collection', async () => {
    expect(await permissionsOf(await chain.createCollection(alice, { mode: 'NFT' }))).toEqual([]);
  });

  for (const [label, mode] of modes) {
    it(`sub/nesting/propertyPermissions.test.ts: Sets access rights to properties of a collection (${label})`, async () => {
      const collectionId = await chain.createCollection(alice, { mode });
      await setPermissions(alice, collectionId, [{ key: 'skullduggery', permission: { mutable: true } }]);
      await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId, newAdmin: bob.address });
      await setPermissions(bob, collectionId, [{ key: 'mindgame', permission: { collectionAdmin: true, tokenOwner: false } }]);
      expect(await permissionsOf(collectionId)).toEqual(
        expect.arrayContaining([
          { key: 'skullduggery', permission: { mutable: true, collectionAdmin: false, tokenOwner: false } },
          { key: 'mindgame', permission: { mutable: false, collectionAdmin: true, tokenOwner: false } }
        ])
      );
    });

    it(`sub/nesting/propertyPermissions.test.ts: Changes access rights to properties of a ${label === 'NFT' ? 'NFT' : 'ReFungible'} collection`, async () => {
      const collectionId = await chain.createCollection(alice, { mode });
      await setPermissions(alice, collectionId, [{ key: 'skullduggery', permission: { mutable: true, collectionAdmin: true } }]);
      await setPermissions(alice, collectionId, [{ key: 'skullduggery', permission: { mutable: false, tokenOwner: true } }]);
      expect(await permissionsOf(collectionId)).toEqual([{ key: 'skullduggery', permission: { mutable: false, collectionAdmin: false, tokenOwner: true } }]);
    });

    it(`sub/nesting/propertyPermissions.test.ts: Prevents from setting access rights to properties of a ${label === 'NFT' ? 'NFT' : 'ReFungible'} collection if not an onwer/admin`, async () => {
      const collectionId = await chain.createCollection(alice, { mode });
      expect(await failure(setPermissions(bob, collectionId, [{ key: 'skullduggery', permission: { mutable: true, tokenOwner: true } }]))).toBe('common.NoPermission');
      expect(await permissionsOf(collectionId)).toEqual([]);
    });

    it(`sub/nesting/propertyPermissions.test.ts: Prevents from adding too many possible properties (${label})`, async () => {
      const collectionId = await chain.createCollection(alice, { mode });
      // 65 entries in one call: the chain decodes them (a plain Vec) and refuses at dispatch, fee charged (decision 0008).
      const constitution = Array.from({ length: 65 }, (_, i) => ({ key: `property_${i}`, permission: { mutable: false, collectionAdmin: !!(i % 2), tokenOwner: !!(i % 2) } }));
      const before = await freeBalance(chain, alice.address);
      expect(await failure(setPermissions(alice, collectionId, constitution))).toBe('common.PropertyLimitReached');
      expect(await freeBalance(chain, alice.address)).toBeLessThan(before);
      expect(await permissionsOf(collectionId)).toEqual([]);
    });

    it(`sub/nesting/propertyPermissions.test.ts: Prevents access rights to be modified if constant (${label})`, async () => {
      const collectionId = await chain.createCollection(alice, { mode });
      await setPermissions(alice, collectionId, [{ key: 'skullduggery', permission: { mutable: false, tokenOwner: true } }]);
      expect(await failure(setPermissions(alice, collectionId, [{ key: 'skullduggery', permission: { collectionAdmin: true } }]))).toBe('common.NoPermission');
      expect(await permissionsOf(collectionId)).toEqual([{ key: 'skullduggery', permission: { mutable: false, collectionAdmin: false, tokenOwner: true } }]);
    });

    it(`sub/nesting/propertyPermissions.test.ts: Prevents adding properties with invalid names (${label})`, async () => {
      const collectionId = await chain.createCollection(alice, { mode });
      const invalidProperties = [
        [{ key: 'skullduggery', permission: { tokenOwner: true } }, { key: 'im possible', permission: { collectionAdmin: true } }],
        [{ key: 'G#4', permission: { tokenOwner: true } }],
        [{ key: 'HÆMILTON', permission: { mutable: false, collectionAdmin: true, tokenOwner: true } }]
      ];
      for (const set of invalidProperties) expect(await failure(setPermissions(alice, collectionId, set))).toBe('common.InvalidCharacterInPropertyKey');
      expect(await failure(setPermissions(alice, collectionId, [{ key: '', permission: {} }]))).toBe('common.EmptyPropertyKey');
      const correctKey = '--0x03116e387820CA05';
      await setPermissions(alice, collectionId, [{ key: correctKey, permission: { collectionAdmin: true } }]);
      expect(await permissionsOf(collectionId)).toEqual([{ key: correctKey, permission: { mutable: false, collectionAdmin: true, tokenOwner: false } }]);
    });
  }
});
