// The chain's ReFungible integration tests (js-packages/tests of UniqueNetwork/unique-chain:
// refungible.test.ts and sub/refungible/*.test.ts), ported to the ledger under `--rules unique`.
// Each test is named after its source file and title.
import { beforeEach, describe, expect, it } from 'vitest';
import { topmostOwner } from '../../src/lib/ledger/tokens/nesting';
import { Chain, ETH, MAX_REFUNGIBLE_PIECES, alice, bob, charlie, dave, eve, failure, ferdie, nestingAccount, nestingTarget, nft, ownerOrAdminUnnest, refusedBeforeInclusion, rft } from './kit';

let chain: Chain;
beforeEach(async () => {
  chain = await Chain.start();
});

const rftCollection = (owner = alice, extra: Record<string, unknown> = {}) => chain.createCollection(owner, { mode: 'ReFungible', ...extra });

describe('refungible.test.ts: integration test: Refungible functionality', () => {
  it('refungible.test.ts: Create refungible collection and token', async () => {
    const collection = await rftCollection();
    const itemCountBefore = await chain.lastTokenId(collection);
    const token = await rft.mint(chain, alice, collection, 100n);
    const itemCountAfter = await chain.lastTokenId(collection);
    expect(token.tokenId).toBeGreaterThanOrEqual(itemCountBefore);
    expect(itemCountAfter).toBe(itemCountBefore + 1);
    expect(itemCountAfter).toBe(token.tokenId);
  });

  it('refungible.test.ts: Checking RPC methods when interacting with maximum allowed values (MAX_REFUNGIBLE_PIECES)', async () => {
    const collection = await rftCollection();
    const token = await rft.mint(chain, alice, collection, MAX_REFUNGIBLE_PIECES);
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(MAX_REFUNGIBLE_PIECES);
    await rft.transfer(chain, alice, token, bob.address, MAX_REFUNGIBLE_PIECES);
    expect(await chain.rftBalance(collection, token.tokenId, bob.address)).toBe(MAX_REFUNGIBLE_PIECES);
    expect(await chain.rftTotalPieces(collection, token.tokenId)).toBe(MAX_REFUNGIBLE_PIECES);
    expect(await failure(rft.mint(chain, alice, collection, MAX_REFUNGIBLE_PIECES + 1n))).toBe('refungible.WrongRefungiblePieces');
  });

  it('refungible.test.ts: RPC method tokenOwners for refungible collection and token', async () => {
    // The chain test's seven fresh accounts are dev accounts and Ethereum addresses here.
    const crowd = [charlie.address, dave.address, eve.address, ferdie.address, '0x' + '11'.repeat(20), '0x' + '22'.repeat(20), '0x' + '33'.repeat(20)];
    const collection = await rftCollection();
    const token = await rft.mint(chain, alice, collection, 10_000n);
    await rft.transfer(chain, alice, token, bob.address, 1000n);
    await rft.transfer(chain, alice, token, ETH, 900n);
    for (let i = 0; i < 7; i++) await rft.transfer(chain, alice, token, crowd[i], 50n * BigInt(i + 1));
    const owners = await chain.rftOwners(collection, token.tokenId);
    expect(owners).toEqual(expect.arrayContaining([alice.address, ETH, bob.address, ...crowd]));
    expect(owners.length).toBe(10);
    await rft.transfer(chain, alice, token, '0x' + '44'.repeat(20), 10n);
    expect((await chain.rftOwners(collection, token.tokenId)).length).toBe(10);
  });

  it('refungible.test.ts: Create multiple tokens', async () => {
    const collection = await rftCollection();
    await chain.ok(alice, 'unique.createMultipleItems', {
      collectionId: collection,
      owner: alice.address,
      items: [1n, 2n, 100n].map((amount) => ({ properties: [], kind: 'ReFungible' as const, amount }))
    });
    const lastTokenId = await chain.lastTokenId(collection);
    expect(lastTokenId).toBe(3);
    expect(await chain.rftBalance(collection, lastTokenId, alice.address)).toBe(100n);
  });

  it('refungible.test.ts: Set allowance for token', async () => {
    const collection = await rftCollection();
    const token = await rft.mint(chain, alice, collection, 100n);
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(100n);
    await rft.approve(chain, alice, token, bob.address, 60n);
    expect(await chain.rftAllowance(collection, token.tokenId, alice.address, bob.address)).toBe(60n);
    await rft.transferFrom(chain, bob, token, alice.address, bob.address, 20n);
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(80n);
    expect(await chain.rftBalance(collection, token.tokenId, bob.address)).toBe(20n);
    expect(await chain.rftAllowance(collection, token.tokenId, alice.address, bob.address)).toBe(40n);
  });

  it('refungible.test.ts: Create new collection with properties', async () => {
    const properties = [{ key: 'key1', value: 'val1' }];
    const tokenPropertyPermissions = [{ key: 'key1', permission: { tokenOwner: true, mutable: false, collectionAdmin: true } }];
    const collection = await rftCollection(alice, { properties, tokenPropertyPermissions });
    const info = await chain.ledger.read((tx) => tx.get('collections', collection));
    expect(info?.properties).toEqual(properties);
    expect(info?.tokenPropertyPermissions).toEqual(tokenPropertyPermissions);
  });
});

describe('createMultipleItems.test.ts: createMultipleItems(collection_id, owner, items_data) in a ReFungible collection', () => {
  const items = (pieces: bigint[], properties: { key: string; value: string }[][] = []) =>
    pieces.map((amount, i) => ({ properties: properties[i] ?? [], kind: 'ReFungible' as const, amount }));

  it('createMultipleItems.test.ts: Create 0x31, 0x32, 0x33 items in active ReFungible collection and verify tokens data in chain', async () => {
    const collection = await rftCollection();
    await chain.ok(alice, 'unique.createMultipleItems', { collectionId: collection, owner: alice.address, items: items([1n, 2n, 3n]) });
    for (const tokenId of [1, 2, 3]) expect(await chain.rftBalance(collection, tokenId, alice.address)).toBe(BigInt(tokenId));
  });

  it('createMultipleItems.test.ts: Regular user cannot create items in active ReFungible collection', async () => {
    const collection = await rftCollection();
    const mint = chain.ok(bob, 'unique.createMultipleItems', { collectionId: collection, owner: alice.address, items: items([1n, 1n, 1n]) });
    expect(await failure(mint)).toBe('common.PublicMintingNotAllowed');
    expect(await chain.lastTokenId(collection)).toBe(0);
  });

  it('createMultipleItems.test.ts: Create Refungible tokens that has reached the maximum data limit', async () => {
    const collection = await rftCollection(alice, { tokenPropertyPermissions: [{ key: 'data', permission: { tokenOwner: true, mutable: true, collectionAdmin: true } }] });
    const values = ['A', 'B', 'C'].map((letter) => [{ key: 'data', value: letter.repeat(32769) }]);
    // The chain cannot decode the call ("Verification Error"): refused before inclusion.
    const refusal = await refusedBeforeInclusion(chain, alice, 'unique.createMultipleItems', { collectionId: collection, owner: alice.address, items: items([10n, 10n, 10n], values) });
    expect(refusal).toMatch(/^BadPayload/);
  });
});

describe('sub/refungible/burn.test.ts: Refungible: burn', () => {
  it('sub/refungible/burn.test.ts: can burn some pieces', async () => {
    const collection = await rftCollection();
    const token = await rft.mint(chain, alice, collection, 100n);
    expect(await chain.tokenExists(collection, token.tokenId)).toBe(true);
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(100n);
    await rft.burn(chain, alice, token, 99n);
    expect(await chain.tokenExists(collection, token.tokenId)).toBe(true);
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(1n);
  });

  it('sub/refungible/burn.test.ts: can burn all pieces', async () => {
    const collection = await rftCollection();
    const token = await rft.mint(chain, alice, collection, 100n);
    expect(await chain.tokenExists(collection, token.tokenId)).toBe(true);
    await rft.burn(chain, alice, token, 100n);
    expect(await chain.tokenExists(collection, token.tokenId)).toBe(false);
  });

  it('sub/refungible/burn.test.ts: burn pieces for multiple users', async () => {
    const collection = await rftCollection();
    const token = await rft.mint(chain, alice, collection, 100n);
    await rft.transfer(chain, alice, token, bob.address, 60n);
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(40n);
    expect(await chain.rftBalance(collection, token.tokenId, bob.address)).toBe(60n);
    await rft.burn(chain, alice, token, 40n);
    expect(await chain.tokenExists(collection, token.tokenId)).toBe(true);
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(0n);
    await rft.burn(chain, bob, token, 59n);
    expect(await chain.rftBalance(collection, token.tokenId, bob.address)).toBe(1n);
    expect(await chain.tokenExists(collection, token.tokenId)).toBe(true);
    await rft.burn(chain, bob, token, 1n);
    expect(await chain.tokenExists(collection, token.tokenId)).toBe(false);
  });

  it('sub/refungible/burn.test.ts: burn pieces by admin', async () => {
    const collection = await rftCollection();
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId: collection, limits: { ownerCanTransfer: true } });
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collection, newAdmin: bob.address });
    const token = await rft.mint(chain, alice, collection, 100n);
    await rft.burnFrom(chain, bob, token, alice.address, 100n);
    expect(await chain.tokenExists(collection, token.tokenId)).toBe(false);
  });
});

describe('sub/refungible/burn.test.ts: Refungible: burn negative tests', () => {
  it('sub/refungible/burn.test.ts: cannot burn non-owned token pieces', async () => {
    const collection = await rftCollection();
    const aliceToken = await rft.mint(chain, alice, collection, 10n, alice.address);
    const bobToken = await rft.mint(chain, alice, collection, 10n, bob.address);
    // 1. Cannot burn non-owned token:
    expect(await failure(rft.burn(chain, alice, bobToken, 0n))).toBe('common.TokenValueTooLow');
    expect(await failure(rft.burn(chain, alice, bobToken, 5n))).toBe('common.TokenValueTooLow');
    // 2. Cannot burn non-existing token:
    expect(await failure(rft.burn(chain, alice, { collectionId: 99999, tokenId: 10 }, 1n))).toBe('common.CollectionNotFound');
    expect(await failure(rft.burn(chain, alice, { collectionId: collection, tokenId: 99999 }, 1n))).toBe('common.TokenValueTooLow');
    // 3. Can burn zero amount of owned tokens (EIP-20):
    await rft.burn(chain, alice, aliceToken, 0n);
    // 4. Storage is not corrupted:
    expect(await chain.rftOwners(collection, aliceToken.tokenId)).toEqual([alice.address]);
    expect(await chain.rftOwners(collection, bobToken.tokenId)).toEqual([bob.address]);
    // 4.1 Tokens can be transferred:
    await rft.transfer(chain, alice, aliceToken, bob.address, 10n);
    await rft.transfer(chain, bob, bobToken, alice.address, 10n);
    expect(await chain.rftOwners(collection, aliceToken.tokenId)).toEqual([bob.address]);
    expect(await chain.rftOwners(collection, bobToken.tokenId)).toEqual([alice.address]);
  });
});

describe('sub/refungible/transfer.test.ts: Refungible transfer tests', () => {
  it('sub/refungible/transfer.test.ts: Can transfer token pieces', async () => {
    const collection = await rftCollection();
    const token = await rft.mint(chain, alice, collection, 100n);
    await rft.transfer(chain, alice, token, bob.address, 60n);
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(40n);
    expect(await chain.rftBalance(collection, token.tokenId, bob.address)).toBe(60n);
  });

  it('sub/refungible/transfer.test.ts: Cannot transfer incorrect amount of token pieces', async () => {
    const collection = await rftCollection();
    const tokenAlice = await rft.mint(chain, alice, collection, 10n, alice.address);
    const tokenBob = await rft.mint(chain, alice, collection, 10n, bob.address);
    // 1. Alice cannot transfer Bob's token:
    for (const amount of [0n, 1n, 10n, 100n]) {
      expect(await failure(rft.transfer(chain, alice, tokenBob, charlie.address, amount))).toBe('common.TokenValueTooLow');
    }
    // 2. Alice cannot transfer non-existing token:
    expect(await failure(rft.transfer(chain, alice, { collectionId: collection, tokenId: 100 }, charlie.address, 0n))).toBe('common.TokenValueTooLow');
    expect(await failure(rft.transfer(chain, alice, { collectionId: collection, tokenId: 100 }, charlie.address, 1n))).toBe('common.TokenValueTooLow');
    // 3. Cannot transfer more than have:
    expect(await failure(rft.transfer(chain, alice, tokenAlice, bob.address, 11n))).toBe('common.TokenValueTooLow');
    // 4. Zero transfer allowed (EIP-20):
    await rft.transfer(chain, alice, tokenAlice, charlie.address, 0n);
    expect(await chain.rftOwners(collection, tokenAlice.tokenId)).toEqual([alice.address]);
    expect(await chain.rftOwners(collection, tokenBob.tokenId)).toEqual([bob.address]);
    expect(await chain.rftBalance(collection, tokenAlice.tokenId, alice.address)).toBe(10n);
    expect(await chain.rftBalance(collection, tokenBob.tokenId, bob.address)).toBe(10n);
    expect(await chain.rftBalance(collection, tokenBob.tokenId, charlie.address)).toBe(0n);
  });
});

describe('sub/refungible/repartition.test.ts: integration test: Refungible functionality', () => {
  it('sub/refungible/repartition.test.ts: Repartition', async () => {
    const collection = await rftCollection();
    const token = await rft.mint(chain, alice, collection, 100n);
    await rft.repartition(chain, alice, token, 200n);
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(200n);
    expect(await chain.rftTotalPieces(collection, token.tokenId)).toBe(200n);
    await rft.transfer(chain, alice, token, bob.address, 110n);
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(90n);
    expect(await chain.rftBalance(collection, token.tokenId, bob.address)).toBe(110n);
    expect(await failure(rft.repartition(chain, alice, token, 80n))).toBe('refungible.RepartitionWhileNotOwningAllPieces');
    await rft.transfer(chain, alice, token, bob.address, 90n);
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(0n);
    expect(await chain.rftBalance(collection, token.tokenId, bob.address)).toBe(200n);
    await rft.repartition(chain, bob, token, 150n);
    expect(await failure(rft.transfer(chain, bob, token, alice.address, 160n))).toBe('common.TokenValueTooLow');
  });

  it('sub/refungible/repartition.test.ts: Repartition with increased amount', async () => {
    const collection = await rftCollection();
    const token = await rft.mint(chain, alice, collection, 100n);
    const events = await rft.repartition(chain, alice, token, 200n);
    const event = events.find((e) => e.section === 'common' && e.method === 'ItemCreated');
    expect(event?.data).toEqual({ collectionId: collection, tokenId: token.tokenId, owner: alice.address, amount: '100' });
  });

  it('sub/refungible/repartition.test.ts: Repartition with decreased amount', async () => {
    const collection = await rftCollection();
    const token = await rft.mint(chain, alice, collection, 100n);
    const events = await rft.repartition(chain, alice, token, 50n);
    const event = events.find((e) => e.section === 'common' && e.method === 'ItemDestroyed');
    expect(event?.data).toEqual({ collectionId: collection, tokenId: token.tokenId, owner: alice.address, amount: '50' });
  });
});

describe('sub/refungible/nesting.test.ts: Refungible nesting', () => {
  for (const restrictedMode of [true, false]) {
    it(`sub/refungible/nesting.test.ts: Owner can nest their token${restrictedMode ? ': Restricted mode' : ''}`, async () => {
      const collectionNFT = await chain.createCollection(alice, { mode: 'NFT', permissions: { access: 'AllowList', mintMode: true, nesting: { tokenOwner: true } } });
      const collectionRFT = await rftCollection();
      const targetToken = await nft.mint(chain, alice, collectionNFT, charlie.address);
      const target = nestingAccount(targetToken);
      await chain.ok(alice, 'unique.setCollectionPermissions', {
        collectionId: collectionNFT,
        permissions: { access: 'AllowList', mintMode: true, nesting: { tokenOwner: true, restricted: restrictedMode ? [collectionRFT] : null } }
      });
      await chain.ok(alice, 'unique.addToAllowList', { collectionId: collectionNFT, address: charlie.address });
      await chain.ok(alice, 'unique.addToAllowList', { collectionId: collectionNFT, address: target });
      await chain.ok(alice, 'unique.setCollectionPermissions', { collectionId: collectionRFT, permissions: { access: 'AllowList', mintMode: true } });
      await chain.ok(alice, 'unique.addToAllowList', { collectionId: collectionRFT, address: charlie.address });
      await chain.ok(alice, 'unique.addToAllowList', { collectionId: collectionRFT, address: target });

      // Create an immediately nested token
      const nestedToken = await rft.mint(chain, charlie, collectionRFT, 5n, target);
      expect(await chain.rftBalance(collectionRFT, nestedToken.tokenId, target)).toBe(5n);
      // Create a token to be nested and nest
      const newToken = await rft.mint(chain, charlie, collectionRFT, 5n);
      await rft.transfer(chain, charlie, newToken, target, 2n);
      expect(await chain.rftBalance(collectionRFT, newToken.tokenId, target)).toBe(2n);
      expect(await chain.rftBalance(collectionRFT, newToken.tokenId, charlie.address)).toBe(3n);
    });
  }

  it('sub/refungible/nesting.test.ts: Owner can unnest nested token', async () => {
    const { collection, targetToken, target } = await nestingTarget(chain);
    const collectionRFT = await rftCollection();
    const token = await rft.mint(chain, alice, collectionRFT, 10n, target);
    // 1.1 Owner can partially unnest token pieces with transferFrom:
    await rft.transferFrom(chain, alice, token, target, alice.address, 9n);
    expect(await chain.rftBalance(collectionRFT, token.tokenId, alice.address)).toBe(9n);
    expect(await chain.rftBalance(collectionRFT, token.tokenId, target)).toBe(1n);
    // 1.2 Owner can unnest all pieces:
    await rft.transferFrom(chain, alice, token, target, alice.address, 1n);
    expect(await chain.rftBalance(collectionRFT, token.tokenId, alice.address)).toBe(10n);
    expect(await chain.rftBalance(collectionRFT, token.tokenId, target)).toBe(0n);
  });

  it('sub/refungible/nesting.test.ts: Owner can burn nested token pieces', async () => {
    const { collection, targetToken, target } = await nestingTarget(chain);
    const collectionRFT = await rftCollection();
    const token = await rft.mint(chain, alice, collectionRFT, 100n, alice.address);
    await rft.transfer(chain, alice, token, target, 30n);
    // 1.1 Owner can partially burnFrom nested pieces:
    await rft.burnFrom(chain, alice, token, target, 10n);
    expect(await chain.rftBalance(collectionRFT, token.tokenId, alice.address)).toBe(70n);
    expect(await chain.rftBalance(collectionRFT, token.tokenId, target)).toBe(20n);
    expect(await chain.children(targetToken)).toHaveLength(1);
    // 1.2 Owner can burnFrom all nested pieces:
    await rft.burnFrom(chain, alice, token, target, 20n);
    expect(await chain.rftBalance(collectionRFT, token.tokenId, target)).toBe(0n);
    expect(await chain.children(targetToken)).toHaveLength(0);
    expect(await chain.tokenExists(collectionRFT, token.tokenId)).toBe(true);
    // 2. Target token does not contain any pieces and can be burnt:
    await nft.burn(chain, alice, targetToken);
    expect(await chain.tokenExists(collection, targetToken.tokenId)).toBe(false);
  });
});

describe('sub/refungible/nesting.test.ts: Refungible nesting negative tests', () => {
  for (const restrictedMode of [true, false]) {
    it(`sub/refungible/nesting.test.ts: non-Owner cannot nest someone else's token${restrictedMode ? ': Restricted mode' : ''}`, async () => {
      const collectionNFT = await chain.createCollection(alice, { mode: 'NFT' });
      const collectionRFT = await rftCollection();
      const targetToken = await nft.mint(chain, alice, collectionNFT);
      const target = nestingAccount(targetToken);
      await chain.ok(alice, 'unique.setCollectionPermissions', {
        collectionId: collectionNFT,
        permissions: { access: 'AllowList', mintMode: true, nesting: { tokenOwner: true, restricted: restrictedMode ? [collectionRFT] : null } }
      });
      await chain.ok(alice, 'unique.addToAllowList', { collectionId: collectionNFT, address: bob.address });
      await chain.ok(alice, 'unique.addToAllowList', { collectionId: collectionNFT, address: target });
      // Try to create a token to be nested and nest
      const newToken = await rft.mint(chain, alice, collectionRFT, 1n);
      expect(await failure(rft.transfer(chain, bob, newToken, target))).toBe('common.TokenValueTooLow');
      expect(await chain.children(targetToken)).toHaveLength(0);
      expect(await chain.rftBalance(collectionRFT, newToken.tokenId, alice.address)).toBe(1n);
      // Nest some tokens as Alice into Bob's token
      await rft.transfer(chain, alice, newToken, target);
      // Try to pull it out
      expect(await failure(rft.transferFrom(chain, bob, newToken, target, alice.address, 1n))).toBe('common.ApprovedValueTooLow');
      expect(await chain.rftBalance(collectionRFT, newToken.tokenId, target)).toBe(1n);
    });
  }
});

describe('sub/nesting: ReFungible pieces in NFT bundles', () => {
  for (const restrictedMode of [true, false]) {
    it(`sub/nesting/common.test.ts: Token owner can nest RFT in NFT if "tokenOwner" permission set ${restrictedMode ? 'in restricted mode' : ''}`, async () => {
      const targetNFTCollection = await chain.createCollection(alice, { mode: 'NFT' });
      const targetTokenBob = await nft.mint(chain, alice, targetNFTCollection, bob.address);
      const target = nestingAccount(targetTokenBob);
      const collectionForNesting = await rftCollection(bob);
      await chain.ok(alice, 'unique.setCollectionPermissions', {
        collectionId: targetNFTCollection,
        permissions: { nesting: { tokenOwner: true, restricted: restrictedMode ? [collectionForNesting] : null } }
      });
      // 1. Bob can immediately create nested token:
      const nestedToken1 = await rft.mint(chain, bob, collectionForNesting, 10n, target);
      expect(await chain.ledger.read((tx) => topmostOwner(tx, collectionForNesting, nestedToken1.tokenId))).toBe(bob.address);
      expect(await chain.tokenOwner(collectionForNesting, nestedToken1.tokenId)).toBe(target.toLowerCase());
      // 2. Bob can mint and nest token:
      const nestedToken2 = await rft.mint(chain, bob, collectionForNesting, 1n);
      await rft.transfer(chain, bob, nestedToken2, target);
      expect(await chain.ledger.read((tx) => topmostOwner(tx, collectionForNesting, nestedToken2.tokenId))).toBe(bob.address);
      expect(await chain.tokenOwner(collectionForNesting, nestedToken2.tokenId)).toBe(target.toLowerCase());
    });
  }

  it('sub/nesting/common.test.ts: Owner can unnest tokens using transferFrom', async () => {
    // The chain test also nests the native currency (collection 0), which is not a collection here.
    const collectionToNest = await chain.createCollection(alice, { mode: 'NFT', permissions: { nesting: { tokenOwner: true } } });
    const tokenA = await nft.mint(chain, alice, collectionToNest);
    const tokenB = await nft.mint(chain, alice, collectionToNest);
    const [a, b] = [nestingAccount(tokenA), nestingAccount(tokenB)];
    const nftCollectionToBeNested = await chain.createCollection(alice, { mode: 'NFT', permissions: { nesting: { tokenOwner: true } } });
    const rftCollectionToBeNested = await rftCollection(alice, { permissions: { nesting: { tokenOwner: true } } });
    const ftCollectionToBeNested = await chain.createCollection(alice, { mode: 'Fungible', permissions: { nesting: { tokenOwner: true } } });
    const nestedNFT = await nft.mint(chain, alice, nftCollectionToBeNested, a);
    const nestedRFT = await rft.mint(chain, alice, rftCollectionToBeNested, 100n, a);
    await chain.ok(alice, 'unique.createItem', { collectionId: ftCollectionToBeNested, owner: a, properties: [], kind: 'Fungible', amount: 100n });
    expect(await chain.tokenOwner(nftCollectionToBeNested, nestedNFT.tokenId)).toBe(a.toLowerCase());
    expect(await chain.tokenOwner(rftCollectionToBeNested, nestedRFT.tokenId)).toBe(a.toLowerCase());
    expect(await chain.ftBalance(ftCollectionToBeNested, a)).toBe(100n);
    expect(await chain.children(tokenA)).toHaveLength(3);
    expect(await chain.children(tokenB)).toHaveLength(0);
    // Transfer the nested token to another token
    await chain.ok(alice, 'unique.transferFrom', { from: a, to: b, ...nestedNFT, value: 1n });
    await rft.transferFrom(chain, alice, nestedRFT, a, b, 25n);
    await chain.ok(alice, 'unique.transferFrom', { from: a, to: b, collectionId: ftCollectionToBeNested, tokenId: 0, value: 25n });
    expect(await chain.ledger.read((tx) => topmostOwner(tx, nestedNFT.collectionId, nestedNFT.tokenId))).toBe(alice.address);
    expect(await chain.tokenOwner(nftCollectionToBeNested, nestedNFT.tokenId)).toBe(b.toLowerCase());
    expect(await chain.rftBalance(rftCollectionToBeNested, nestedRFT.tokenId, b)).toBe(25n);
    expect(await chain.rftBalance(rftCollectionToBeNested, nestedRFT.tokenId, a)).toBe(75n);
    expect(await chain.ftBalance(ftCollectionToBeNested, b)).toBe(25n);
    expect(await chain.ftBalance(ftCollectionToBeNested, a)).toBe(75n);
    // RFT and FT
    expect(await chain.children(tokenA)).toHaveLength(2);
    // NFT, RFT and FT
    expect(await chain.children(tokenB)).toHaveLength(3);
  });

  it('sub/nesting/unnest.test.ts: ReFungible: allows the owner to successfully unnest a token', async () => {
    const { collection, targetToken, target } = await nestingTarget(chain);
    const collectionRFT = await rftCollection();
    // Nest and unnest
    const token = await rft.mint(chain, alice, collectionRFT, 10n, target);
    await rft.transferFrom(chain, alice, token, target, alice.address, 9n);
    expect(await chain.rftBalance(collectionRFT, token.tokenId, alice.address)).toBe(9n);
    expect(await chain.rftBalance(collectionRFT, token.tokenId, target)).toBe(1n);
    // Nest and burn
    await rft.transfer(chain, alice, token, target, 5n);
    await rft.burnFrom(chain, alice, token, target, 6n);
    expect(await chain.rftBalance(collectionRFT, token.tokenId, alice.address)).toBe(4n);
    expect(await chain.rftBalance(collectionRFT, token.tokenId, target)).toBe(0n);
    expect(await chain.children(targetToken)).toHaveLength(0);
  });

  for (const sender of ['owner', 'admin'] as const) {
    for (const op of ['transfer', 'burn'] as const) {
      it(`sub/nesting/unnest.test.ts: [rft]: allows a collection ${sender} to ${op} nested token`, async () => {
        const collectionId = await rftCollection(alice, { limits: { ownerCanTransfer: true } });
        const tokenId = (await chain.lastTokenId(collectionId)) + 1;
        await ownerOrAdminUnnest(chain, sender, op, {
          collectionId,
          tokenId,
          balance: (holder) => chain.rftBalance(collectionId, tokenId, holder),
          mint: (amount, to) => rft.mint(chain, alice, collectionId, amount, to)
        });
      });
    }
  }
});

describe('transfer.test.ts: ReFungible transfers', () => {
  it('transfer.test.ts: [refungible] User can transfer owned token', async () => {
    const collection = await rftCollection(alice, { name: 'Transfer-1-RFT', description: '', tokenPrefix: 'T' });
    const token = await rft.mint(chain, alice, collection, 10n);
    await rft.transfer(chain, alice, token, bob.address, 9n);
    expect(await chain.rftBalance(collection, token.tokenId, bob.address)).toBe(9n);
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(1n);
  });

  it('transfer.test.ts: [refungible] Collection admin can transfer owned token', async () => {
    const collection = await rftCollection(alice, { name: 'Transfer-2-RFT', description: '', tokenPrefix: 'T' });
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collection, newAdmin: bob.address });
    const token = await rft.mint(chain, bob, collection, 10n, bob.address);
    await rft.transfer(chain, bob, token, alice.address, 1n);
    expect(await chain.rftBalance(collection, token.tokenId, bob.address)).toBe(9n);
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(1n);
  });

  it('transfer.test.ts: [refungible] Transfer with not existed collection_id', async () => {
    expect(await failure(rft.transfer(chain, alice, { collectionId: 4_294_967_295, tokenId: 1 }, bob.address))).toBe('common.CollectionNotFound');
  });

  it('transfer.test.ts: [refungible] Transfer with deleted collection_id', async () => {
    const collection = await rftCollection(alice, { name: 'Transfer-Neg-1-RFT', description: '', tokenPrefix: 'T' });
    const token = await rft.mint(chain, alice, collection, 10n);
    await rft.burn(chain, alice, token, 10n);
    await chain.ok(alice, 'unique.destroyCollection', { collectionId: collection });
    expect(await failure(rft.transfer(chain, alice, token, bob.address))).toBe('common.CollectionNotFound');
  });

  it('transfer.test.ts: [refungible] Transfer with not existed item_id', async () => {
    const collection = await rftCollection(alice, { name: 'Transfer-Neg-2-RFT', description: '', tokenPrefix: 'T' });
    expect(await failure(rft.transfer(chain, alice, { collectionId: collection, tokenId: 1 }, bob.address))).toBe('common.TokenValueTooLow');
  });

  it('transfer.test.ts: [refungible] Transfer with deleted item_id', async () => {
    const collection = await rftCollection(alice, { name: 'Transfer-Neg-3-RFT', description: '', tokenPrefix: 'T' });
    const token = await rft.mint(chain, alice, collection, 10n);
    await rft.burn(chain, alice, token, 10n);
    expect(await failure(rft.transfer(chain, alice, token, bob.address))).toBe('common.TokenValueTooLow');
  });

  it('transfer.test.ts: [refungible] Transfer with recipient that is not owner', async () => {
    const collection = await rftCollection(alice, { name: 'Transfer-1-RFT', description: '', tokenPrefix: 'T' });
    const token = await rft.mint(chain, alice, collection, 10n);
    expect(await failure(rft.transfer(chain, bob, token, bob.address, 9n))).toBe('common.TokenValueTooLow');
    expect(await chain.rftBalance(collection, token.tokenId, bob.address)).toBe(0n);
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(10n);
  });
});

describe('transferFrom.test.ts: ReFungible transferFrom', () => {
  it('transferFrom.test.ts: [refungible] Execute the extrinsic and check nftItemList - owner of token', async () => {
    const collection = await rftCollection(alice, { name: 'TransferFrom-3', description: '', tokenPrefix: 'TF' });
    const token = await rft.mint(chain, alice, collection, 10n);
    await rft.approve(chain, alice, token, bob.address, 7n);
    expect(await chain.rftAllowance(collection, token.tokenId, alice.address, bob.address)).toBe(7n);
    await rft.transferFrom(chain, bob, token, alice.address, charlie.address, 6n);
    expect(await chain.rftBalance(collection, token.tokenId, charlie.address)).toBe(6n);
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(4n);
    expect(await chain.rftAllowance(collection, token.tokenId, alice.address, bob.address)).toBe(1n);
  });

  it('transferFrom.test.ts: [refungible] transferFrom for not approved address', async () => {
    const collection = await rftCollection(alice, { name: 'TransferFrom-Neg-3', description: '', tokenPrefix: 'TF' });
    const token = await rft.mint(chain, alice, collection, 10n);
    expect(await failure(rft.transferFrom(chain, bob, token, alice.address, charlie.address))).toBe('common.ApprovedValueTooLow');
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(10n);
    expect(await chain.rftBalance(collection, token.tokenId, bob.address)).toBe(0n);
    expect(await chain.rftBalance(collection, token.tokenId, charlie.address)).toBe(0n);
  });

  it('transferFrom.test.ts: [refungible] transferFrom incorrect token count', async () => {
    const collection = await rftCollection(alice, { name: 'TransferFrom-Neg-6', description: '', tokenPrefix: 'TF' });
    const token = await rft.mint(chain, alice, collection, 10n);
    await rft.approve(chain, alice, token, bob.address, 5n);
    expect(await chain.rftAllowance(collection, token.tokenId, alice.address, bob.address)).toBe(5n);
    expect(await failure(rft.transferFrom(chain, bob, token, alice.address, charlie.address, 7n))).toBe('common.ApprovedValueTooLow');
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(10n);
    expect(await chain.rftBalance(collection, token.tokenId, bob.address)).toBe(0n);
    expect(await chain.rftBalance(collection, token.tokenId, charlie.address)).toBe(0n);
  });
});
