// The chain's Fungible integration tests (js-packages/tests of UniqueNetwork/unique-chain), ported
// to the ledger under `--rules unique`. Each test is named after its source file and title.
import { beforeEach, describe, expect, it } from 'vitest';
import { Chain, ETH, U128_MAX, alice, bob, charlie, failure, ft, nestingAccount, nestingTarget, nft, ownerOrAdminUnnest } from './kit';

let chain: Chain;
beforeEach(async () => {
  chain = await Chain.start();
});

const ftCollection = (owner = alice, extra: Parameters<Chain['createCollection']>[1] extends infer D ? Partial<D> : never = {}) =>
  chain.createCollection(owner, { mode: 'Fungible', decimals: 0, ...extra });

describe('fungible.test.ts: integration test: Fungible functionality', () => {
  it('fungible.test.ts: Create fungible collection and token', async () => {
    const collection = await ftCollection(alice, { tokenPrefix: 'trest' });
    const defaultTokenId = await chain.lastTokenId(collection);
    expect(defaultTokenId).toBe(0);
    await ft.mint(chain, alice, collection, U128_MAX);
    expect(await chain.lastTokenId(collection)).toBe(defaultTokenId);
    expect(await chain.ftBalance(collection, alice.address)).toBe(U128_MAX);
  });

  it('fungible.test.ts: Transfer token', async () => {
    const collection = await ftCollection();
    await ft.mint(chain, alice, collection, 500n);
    expect(await chain.ftBalance(collection, alice.address)).toBe(500n);
    await ft.transfer(chain, alice, collection, bob.address, 60n);
    await ft.transfer(chain, alice, collection, ETH, 140n);
    expect(await chain.ftBalance(collection, alice.address)).toBe(300n);
    expect(await chain.ftBalance(collection, bob.address)).toBe(60n);
    expect(await chain.ftBalance(collection, ETH)).toBe(140n);
    expect(await failure(ft.transfer(chain, alice, collection, bob.address, 350n))).toBe('common.TokenValueTooLow');
  });

  it('fungible.test.ts: Tokens multiple creation', async () => {
    const collection = await ftCollection();
    await chain.ok(alice, 'unique.createMultipleItems', {
      collectionId: collection,
      owner: alice.address,
      items: [500n, 400n, 300n].map((amount) => ({ properties: [], kind: 'Fungible' as const, amount }))
    });
    expect(await chain.ftBalance(collection, alice.address)).toBe(1200n);
  });

  it('fungible.test.ts: Burn some tokens ', async () => {
    const collection = await ftCollection();
    await ft.mint(chain, alice, collection, 500n);
    expect(await chain.tokenExists(collection, 0)).toBe(true);
    expect(await chain.ftBalance(collection, alice.address)).toBe(500n);
    await ft.burn(chain, alice, collection, 499n);
    expect(await chain.tokenExists(collection, 0)).toBe(true);
    expect(await chain.ftBalance(collection, alice.address)).toBe(1n);
  });

  it('fungible.test.ts: Burn all tokens ', async () => {
    const collection = await ftCollection();
    await ft.mint(chain, alice, collection, 500n);
    expect(await chain.tokenExists(collection, 0)).toBe(true);
    await ft.burn(chain, alice, collection, 500n);
    expect(await chain.tokenExists(collection, 0)).toBe(true);
    expect(await chain.ftBalance(collection, alice.address)).toBe(0n);
    expect(await chain.ftSupply(collection)).toBe(0n);
  });

  it('fungible.test.ts: Set allowance for token', async () => {
    const collection = await ftCollection();
    await ft.mint(chain, alice, collection, 100n);
    expect(await chain.ftBalance(collection, alice.address)).toBe(100n);
    await ft.approve(chain, alice, collection, bob.address, 60n);
    expect(await chain.ftAllowance(collection, alice.address, bob.address)).toBe(60n);
    expect(await chain.ftBalance(collection, bob.address)).toBe(0n);

    await ft.transferFrom(chain, bob, collection, alice.address, bob.address, 20n);
    expect(await chain.ftBalance(collection, alice.address)).toBe(80n);
    expect(await chain.ftBalance(collection, bob.address)).toBe(20n);
    expect(await chain.ftAllowance(collection, alice.address, bob.address)).toBe(40n);

    await ft.burnFrom(chain, bob, collection, alice.address, 10n);
    expect(await chain.ftBalance(collection, alice.address)).toBe(70n);
    expect(await chain.ftAllowance(collection, alice.address, bob.address)).toBe(30n);
    await ft.transferFrom(chain, bob, collection, alice.address, ETH, 10n);
    expect(await chain.ftBalance(collection, ETH)).toBe(10n);
  });
});

describe('fungible.test.ts: Fungible negative tests', () => {
  it('fungible.test.ts: Cannot transfer incorrect amount of tokens', async () => {
    const collection = await ftCollection();
    const nonExisting = 99999;
    await ft.mint(chain, alice, collection, 10n, bob.address);

    // 1. Alice cannot transfer more than 0 tokens if balance low:
    expect(await failure(ft.transfer(chain, alice, collection, charlie.address, 1n))).toBe('common.TokenValueTooLow');
    expect(await failure(ft.transfer(chain, alice, collection, charlie.address, 100n))).toBe('common.TokenValueTooLow');

    // 2. Alice cannot transfer non-existing token:
    expect(await failure(ft.transfer(chain, alice, nonExisting, charlie.address, 0n))).toBe('common.CollectionNotFound');
    expect(await failure(ft.transfer(chain, alice, nonExisting, charlie.address, 1n))).toBe('common.CollectionNotFound');

    // 3. Zero transfer allowed (EIP-20), even if the balance = 0:
    await ft.transfer(chain, bob, collection, charlie.address, 0n);
    await ft.transfer(chain, alice, collection, charlie.address, 0n);

    expect(await chain.ftBalance(collection, alice.address)).toBe(0n);
    expect(await chain.ftBalance(collection, bob.address)).toBe(10n);
    expect(await chain.ftBalance(collection, charlie.address)).toBe(0n);
  });
});

describe('createMultipleItems.test.ts: createMultipleItems(collection_id, owner, items_data) in a Fungible collection', () => {
  const items = (values: bigint[]) => values.map((amount) => ({ properties: [], kind: 'Fungible' as const, amount }));

  it('createMultipleItems.test.ts: Create 0x01, 0x02, 0x03 items in active Fungible collection and verify tokens data in chain', async () => {
    const collection = await ftCollection();
    await chain.ok(alice, 'unique.createMultipleItems', { collectionId: collection, owner: alice.address, items: items([1n, 2n, 3n]) });
    expect(await chain.ftBalance(collection, alice.address)).toBe(6n);
  });

  it('createMultipleItems.test.ts: Regular user cannot create items in active Fungible collection', async () => {
    const collection = await ftCollection();
    const mint = chain.ok(bob, 'unique.createMultipleItems', { collectionId: collection, owner: alice.address, items: items([1n, 2n, 3n]) });
    expect(await failure(mint)).toBe('common.PublicMintingNotAllowed');
    expect(await chain.ftSupply(collection)).toBe(0n);
  });

  it('createMultipleItems (pallets/fungible): the running sum overflows at the item that passes 2^128 - 1, before a later item of another kind', async () => {
    const collection = await ftCollection();
    const overflowing = [...items([U128_MAX, 1n]), { properties: [] }];
    expect(await failure(chain.ok(alice, 'unique.createMultipleItems', { collectionId: collection, owner: alice.address, items: overflowing }))).toBe('arithmetic.Overflow');
    const wrongKindFirst = [...items([1n]), { properties: [] }, ...items([U128_MAX])];
    expect(await failure(chain.ok(alice, 'unique.createMultipleItems', { collectionId: collection, owner: alice.address, items: wrongKindFirst }))).toBe(
      'common.NotFungibleDataUsedToMintFungibleCollectionToken'
    );
  });
});

describe('sub/nesting: Fungible amounts in NFT bundles', () => {
  for (const restrictedMode of [true, false]) {
    it(`sub/nesting/common.test.ts: Token owner can nest FT in NFT if "tokenOwner" permission set  ${restrictedMode ? 'in restricted mode' : ''}`, async () => {
      const targetNFTCollection = await chain.createCollection(alice, { mode: 'NFT' });
      const targetTokenBob = await nft.mint(chain, alice, targetNFTCollection, bob.address);
      const target = nestingAccount(targetTokenBob);
      const collectionForNesting = await ftCollection(bob);
      await chain.ok(alice, 'unique.setCollectionPermissions', {
        collectionId: targetNFTCollection,
        permissions: { nesting: { tokenOwner: true, restricted: restrictedMode ? [collectionForNesting] : null } }
      });
      // 1. Bob can immediately create nested tokens (the chain test also reads the collection's
      // top-10 holders, [the NFT]; the ledger keeps no holder list of a Fungible collection).
      await ft.mint(chain, bob, collectionForNesting, 100n, target);
      expect(await chain.ftBalance(collectionForNesting, target)).toBe(100n);
      expect(await chain.ftBalance(collectionForNesting, bob.address)).toBe(0n);
      // 2. Bob can mint and nest token:
      await ft.mint(chain, bob, collectionForNesting, 100n);
      await ft.transfer(chain, bob, collectionForNesting, target, 50n);
      expect(await chain.ftBalance(collectionForNesting, target)).toBe(150n);
      expect(await chain.children(targetTokenBob)).toEqual([{ collectionId: collectionForNesting, tokenId: 0 }]);
    });
  }

  it('sub/nesting/unnest.test.ts: Fungible: allows the owner to successfully unnest a token', async () => {
    const { collection, targetToken, target } = await nestingTarget(chain);
    const collectionFT = await ftCollection(alice);
    // Nest and unnest
    await ft.mint(chain, alice, collectionFT, 10n, target);
    await ft.transferFrom(chain, alice, collectionFT, target, alice.address, 9n);
    expect(await chain.ftBalance(collectionFT, alice.address)).toBe(9n);
    expect(await chain.ftBalance(collectionFT, target)).toBe(1n);
    // Nest and burn
    await ft.transfer(chain, alice, collectionFT, target, 5n);
    await ft.burnFrom(chain, alice, collectionFT, target, 6n);
    expect(await chain.ftBalance(collectionFT, alice.address)).toBe(4n);
    expect(await chain.ftBalance(collectionFT, target)).toBe(0n);
    expect(await chain.children(targetToken)).toHaveLength(0);
  });

  for (const sender of ['owner', 'admin'] as const) {
    for (const op of ['transfer', 'burn'] as const) {
      it(`sub/nesting/unnest.test.ts: [ft]: allows a collection ${sender} to ${op} nested token`, async () => {
        const collectionId = await ftCollection(alice, { limits: { ownerCanTransfer: true } });
        await ownerOrAdminUnnest(chain, sender, op, {
          collectionId,
          tokenId: 0,
          balance: (holder) => chain.ftBalance(collectionId, holder),
          mint: (amount, to) => ft.mint(chain, alice, collectionId, amount, to)
        });
      });
    }
  }
});

describe('transfer.test.ts: Fungible transfers', () => {
  it('transfer.test.ts: [fungible] User can transfer owned token', async () => {
    const collection = await ftCollection(alice, { name: 'Transfer-1-FT', description: '', tokenPrefix: 'T' });
    await ft.mint(chain, alice, collection, 10n);
    await ft.transfer(chain, alice, collection, bob.address, 9n);
    expect(await chain.ftBalance(collection, bob.address)).toBe(9n);
    expect(await chain.ftBalance(collection, alice.address)).toBe(1n);
  });

  it('transfer.test.ts: [fungible] Collection admin can transfer owned token', async () => {
    const collection = await ftCollection(alice, { name: 'Transfer-2-FT', description: '', tokenPrefix: 'T' });
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collection, newAdmin: bob.address });
    await ft.mint(chain, bob, collection, 10n, bob.address);
    await ft.transfer(chain, bob, collection, alice.address, 1n);
    expect(await chain.ftBalance(collection, bob.address)).toBe(9n);
    expect(await chain.ftBalance(collection, alice.address)).toBe(1n);
  });

  it('transfer.test.ts: [fungible] Transfer with not existed collection_id', async () => {
    expect(await failure(ft.transfer(chain, alice, 4_294_967_295, bob.address, 1n))).toBe('common.CollectionNotFound');
  });

  it('transfer.test.ts: [fungible] Transfer with deleted collection_id', async () => {
    const collection = await ftCollection(alice, { name: 'Transfer-Neg-1-FT', description: '', tokenPrefix: 'T' });
    await ft.mint(chain, alice, collection, 10n);
    await ft.burn(chain, alice, collection, 10n);
    await chain.ok(alice, 'unique.destroyCollection', { collectionId: collection });
    expect(await failure(ft.transfer(chain, alice, collection, bob.address, 1n))).toBe('common.CollectionNotFound');
  });

  it('transfer.test.ts: [fungible] Transfer with not existed item_id', async () => {
    const collection = await ftCollection(alice, { name: 'Transfer-Neg-2-FT', description: '', tokenPrefix: 'T' });
    expect(await failure(ft.transfer(chain, alice, collection, bob.address, 1n))).toBe('common.TokenValueTooLow');
  });

  it('transfer.test.ts: [fungible] Transfer with deleted item_id', async () => {
    const collection = await ftCollection(alice, { name: 'Transfer-Neg-3-FT', description: '', tokenPrefix: 'T' });
    await ft.mint(chain, alice, collection, 10n);
    await ft.burn(chain, alice, collection, 10n);
    expect(await failure(ft.transfer(chain, alice, collection, bob.address, 1n))).toBe('common.TokenValueTooLow');
  });

  it('transfer.test.ts: [fungible] Transfer with recipient that is not owner', async () => {
    const collection = await ftCollection(alice, { name: 'Transfer-Neg-4-FT', description: '', tokenPrefix: 'T' });
    await ft.mint(chain, alice, collection, 10n);
    expect(await failure(ft.transfer(chain, bob, collection, bob.address, 9n))).toBe('common.TokenValueTooLow');
    expect(await chain.ftBalance(collection, bob.address)).toBe(0n);
    expect(await chain.ftBalance(collection, alice.address)).toBe(10n);
  });
});

describe('transferFrom.test.ts: Fungible transferFrom', () => {
  it('transferFrom.test.ts: [fungible] Execute the extrinsic and check nftItemList - owner of token', async () => {
    const collection = await ftCollection(alice, { name: 'TransferFrom-2', description: '', tokenPrefix: 'TF' });
    await ft.mint(chain, alice, collection, 10n);
    await ft.approve(chain, alice, collection, bob.address, 7n);
    expect(await chain.ftAllowance(collection, alice.address, bob.address)).toBe(7n);
    await ft.transferFrom(chain, bob, collection, alice.address, charlie.address, 6n);
    expect(await chain.ftBalance(collection, charlie.address)).toBe(6n);
    expect(await chain.ftBalance(collection, alice.address)).toBe(4n);
    expect(await chain.ftAllowance(collection, alice.address, bob.address)).toBe(1n);
  });

  it('transferFrom.test.ts: Should reduce allowance if value is big', async () => {
    const collection = await ftCollection(alice, { name: 'TransferFrom-4', description: '', tokenPrefix: 'TF' });
    await ft.mint(chain, alice, collection, 500000n);
    await ft.approve(chain, alice, collection, bob.address, 500000n);
    expect(await chain.ftAllowance(collection, alice.address, bob.address)).toBe(500000n);
    await ft.transferFrom(chain, bob, collection, alice.address, charlie.address, 500000n);
    expect(await chain.ftAllowance(collection, alice.address, bob.address)).toBe(0n);
  });

  it('transferFrom.test.ts: [fungible] transferFrom for not approved address', async () => {
    const collection = await ftCollection(alice, { name: 'TransferFrom-Neg-1', description: '', tokenPrefix: 'TF' });
    await ft.mint(chain, alice, collection, 10n);
    expect(await failure(ft.transferFrom(chain, bob, collection, alice.address, charlie.address, 5n))).toBe('common.ApprovedValueTooLow');
    expect(await chain.ftBalance(collection, alice.address)).toBe(10n);
    expect(await chain.ftBalance(collection, bob.address)).toBe(0n);
    expect(await chain.ftBalance(collection, charlie.address)).toBe(0n);
  });

  it('transferFrom.test.ts: [fungible] transferFrom incorrect token count', async () => {
    const collection = await ftCollection(alice, { name: 'TransferFrom-Neg-5', description: '', tokenPrefix: 'TF' });
    await ft.mint(chain, alice, collection, 10n);
    await ft.approve(chain, alice, collection, bob.address, 2n);
    expect(await chain.ftAllowance(collection, alice.address, bob.address)).toBe(2n);
    expect(await failure(ft.transferFrom(chain, bob, collection, alice.address, charlie.address, 5n))).toBe('common.ApprovedValueTooLow');
    expect(await chain.ftBalance(collection, alice.address)).toBe(10n);
    expect(await chain.ftBalance(collection, bob.address)).toBe(0n);
    expect(await chain.ftBalance(collection, charlie.address)).toBe(0n);
  });
});

describe('burnItem.test.ts: Fungible burns', () => {
  it('burnItem.test.ts: Burn item in Fungible collection', async () => {
    const collection = await ftCollection(alice, { decimals: 10 });
    await ft.mint(chain, alice, collection, 10n);
    await ft.burn(chain, alice, collection, 1n);
    expect(await chain.ftBalance(collection, alice.address)).toBe(9n);
  });

  it('burnItem.test.ts: Burn item in Fungible collection (by an admin, ownerCanTransfer)', async () => {
    const collection = await ftCollection(alice, { decimals: 0 });
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId: collection, limits: { ownerCanTransfer: true } });
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collection, newAdmin: bob.address });
    await ft.mint(chain, alice, collection, 10n);
    await ft.burnFrom(chain, bob, collection, alice.address, 1n);
    expect(await chain.ftBalance(collection, alice.address)).toBe(9n);
  });

  it('burnItem.test.ts: Burn more than owned in Fungible collection', async () => {
    const collection = await ftCollection(alice, { decimals: 0 });
    await ft.mint(chain, alice, collection, 10n);
    expect(await failure(ft.burn(chain, alice, collection, 11n))).toBe('common.TokenValueTooLow');
    expect(await chain.ftBalance(collection, alice.address)).toBe(10n);
  });
});
