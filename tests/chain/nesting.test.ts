// The chain's nesting integration tests (js-packages/tests of UniqueNetwork/unique-chain:
// sub/nesting/*.test.ts), ported to the ledger under `--rules unique`, NFT parents and NFT
// children first. Each test is named after its source file and title.
//
// Not ported:
// - common.test.ts "Token owner can nest FT/RFT in NFT ..." and "Owner can unnest tokens using
//   transferFrom", unnest.test.ts "Fungible/ReFungible: allows the owner ..." and "[ft]/[rft]:
//   allows a collection owner/admin ...": already in fungible.test.ts and refungible.test.ts.
// - common.test.ts "Token owner can nest Native FT in NFT ...", unnest.test.ts "NativeFungible:
//   allows the owner to successfully unnest a token", unnesting.negative.test.ts "[native ft]"
//   cases, and the native-FT steps of nesting.negative.test.ts and e2e.test.ts: the native
//   fungible collection 0 is not modelled by Opalite.
// - tokenProperties.test.ts and propertyPermissions.test.ts: token properties, not nesting (they
//   live under sub/nesting upstream); ported in nft.test.ts. collectionProperties.test.ts,
//   collectionProperties.seqtest.ts, tokenProperties.seqtest.ts: collection properties and
//   runtime-upgrade repairs, outside these areas.
import { beforeEach, describe, expect, it } from 'vitest';
import { collectionContractAddress } from '../../src/lib/codec/nesting';
import { topmostOwner } from '../../src/lib/ledger/tokens/nesting';
import type { TokenRef } from '../../src/lib/ledger/types';
import { Chain, alice, bob, charlie, failure, ft, nestingAccount, nft, nftAllowance, nftToken, rft } from './kit';
import type { Account } from './kit';

let chain: Chain;
beforeEach(async () => {
  chain = await Chain.start();
});

type Nesting = { tokenOwner?: boolean; collectionAdmin?: boolean; restricted?: number[] | null };
const nftCollection = (owner: Account = alice, nesting?: Nesting, extra: Record<string, unknown> = {}) =>
  chain.createCollection(owner, { mode: 'NFT', ...(nesting ? { permissions: { nesting } } : {}), ...extra });
const setNesting = (owner: Account, collectionId: number, nesting: Nesting) => chain.ok(owner, 'unique.setCollectionPermissions', { collectionId, permissions: { nesting } });
const topmost = (ref: TokenRef) => chain.ledger.read((tx) => topmostOwner(tx, ref.collectionId, ref.tokenId));
const ownerOf = async (ref: TokenRef) => (await nftToken(chain, ref))?.owner;
/** `token.nest(signer, target)`: a transfer to the target's nesting address. */
const nest = (signer: Account, token: TokenRef, target: TokenRef) => nft.transfer(chain, signer, token, nestingAccount(target));
/** `token.unnest(signer, from, to)`: a transferFrom out of the parent's nesting address. */
const unnest = (signer: Account, token: TokenRef, from: TokenRef, to: string) => nftAllowance.transferFrom(chain, signer, token, nestingAccount(from), to);

describe('sub/nesting/common.test.ts: Common nesting tests', () => {
  for (const restrictedMode of [true, false]) {
    it(`sub/nesting/common.test.ts: Token owner can nest NFT in NFT if "tokenOwner" permission set ${restrictedMode ? 'in restricted mode' : ''}`, async () => {
      const targetNFTCollection = await nftCollection(alice);
      const targetTokenBob = await nft.mint(chain, alice, targetNFTCollection, bob.address);
      const collectionForNesting = await nftCollection(bob);
      await setNesting(alice, targetNFTCollection, { tokenOwner: true, restricted: restrictedMode ? [collectionForNesting] : null });

      const nestedToken1 = await nft.mint(chain, bob, collectionForNesting, nestingAccount(targetTokenBob));
      expect(await topmost(nestedToken1)).toBe(bob.address);
      expect(await ownerOf(nestedToken1)).toBe(nestingAccount(targetTokenBob));

      const nestedToken2 = await nft.mint(chain, bob, collectionForNesting);
      await nest(bob, nestedToken2, targetTokenBob);
      expect(await topmost(nestedToken2)).toBe(bob.address);
      expect(await ownerOf(nestedToken2)).toBe(nestingAccount(targetTokenBob));
    });
  }
});

describe('sub/nesting/admin.test.ts: Nesting by collection admin', () => {
  for (const restricted of [true, false]) {
    it(`sub/nesting/admin.test.ts: can nest tokens if "collectionAdmin" permission set ${restricted ? ', in restricted mode' : ''}`, async () => {
      const collectionA = await nftCollection(alice);
      await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collectionA, newAdmin: bob.address });
      const collectionB = await nftCollection(alice);
      await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collectionB, newAdmin: bob.address });
      await setNesting(alice, collectionA, { collectionAdmin: true, restricted: restricted ? [collectionA, collectionB] : null });
      const targetTokenA = await nft.mint(chain, alice, collectionA, charlie.address);

      const nestedTokenA = await nft.mint(chain, bob, collectionA, nestingAccount(targetTokenA));
      const nestedTokenB = await nft.mint(chain, bob, collectionB, nestingAccount(targetTokenA));
      for (const nested of [nestedTokenA, nestedTokenB]) {
        expect(await topmost(nested)).toBe(charlie.address);
        expect(await ownerOf(nested)).toBe(nestingAccount(targetTokenA));
      }

      const newNestedTokenA = await nft.mint(chain, bob, collectionA);
      const newNestedTokenB = await nft.mint(chain, bob, collectionB);
      await nest(bob, newNestedTokenA, targetTokenA);
      await nest(bob, newNestedTokenB, targetTokenA);
      expect(await topmost(newNestedTokenB)).toBe(charlie.address);
      expect(await ownerOf(newNestedTokenB)).toBe(nestingAccount(targetTokenA));
    });
  }

  it('sub/nesting/admin.test.ts: can operate together with token owner if "collectionAdmin" and "tokenOwner" permissions set', async () => {
    const collection = await nftCollection(alice, { collectionAdmin: true, tokenOwner: true });
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collection, newAdmin: bob.address });
    const targetToken = await nft.mint(chain, alice, collection, charlie.address);

    const nestedToken = await nft.mint(chain, bob, collection, nestingAccount(targetToken));
    expect(await topmost(nestedToken)).toBe(charlie.address);
    expect(await ownerOf(nestedToken)).toBe(nestingAccount(targetToken));

    const newToken = await nft.mint(chain, alice, collection, charlie.address);
    await nest(charlie, newToken, targetToken);
    expect(await topmost(newToken)).toBe(charlie.address);
    expect(await ownerOf(newToken)).toBe(nestingAccount(targetToken));
  });
});

describe('sub/nesting/graphs.test.ts: Graphs', () => {
  /** 4 -> 3 -> 2 -> 1, 7 -> 6 -> 5 -> 2, 8 -> 5 (token ids; tokens[i] is id i + 1). */
  async function buildComplexObjectGraph(sender: Account): Promise<[number, TokenRef[]]> {
    const collection = await nftCollection(sender, { tokenOwner: true });
    await chain.ok(sender, 'unique.createMultipleItemsEx', { collectionId: collection, items: Array.from({ length: 8 }, () => ({ owner: sender.address, properties: [] })) });
    const tokens = Array.from({ length: 8 }, (_, i) => ({ collectionId: collection, tokenId: i + 1 }));
    for (const [child, parent] of [[7, 4], [6, 5], [5, 4], [4, 1], [3, 2], [2, 1], [1, 0]]) await nest(sender, tokens[child], tokens[parent]);
    return [collection, tokens];
  }

  it("sub/nesting/graphs.test.ts: Ouroboros can't be created in a complex graph", async () => {
    const [collection, tokens] = await buildComplexObjectGraph(alice);
    await setNesting(alice, collection, { collectionAdmin: false, tokenOwner: true });
    expect(await failure(nest(alice, tokens[0], tokens[0]))).toBe('structure.OuroborosDetected');
    expect(await failure(nest(alice, tokens[0], tokens[4]))).toBe('structure.OuroborosDetected');
    expect(await failure(nftAllowance.transferFrom(chain, alice, tokens[1], nestingAccount(tokens[0]), nestingAccount(tokens[7])))).toBe('structure.OuroborosDetected');

    await setNesting(alice, collection, { collectionAdmin: true, tokenOwner: false });
    expect(await failure(nest(alice, tokens[0], tokens[0]))).toBe('structure.OuroborosDetected');
    expect(await failure(nest(alice, tokens[0], tokens[4]))).toBe('structure.OuroborosDetected');
  });
});

describe('sub/nesting/e2e.test.ts: Composite nesting tests', () => {
  const members = (refs: TokenRef[]) => [...refs].sort((a, b) => a.collectionId - b.collectionId || a.tokenId - b.tokenId);

  it('sub/nesting/e2e.test.ts: Checks token children e2e', async () => {
    const collectionA = await nftCollection(alice, { tokenOwner: true });
    const collectionB = await chain.createCollection(alice, { mode: 'Fungible' });
    const collectionC = await chain.createCollection(alice, { mode: 'ReFungible' });
    const targetToken = await nft.mint(chain, alice, collectionA);
    const children = async (ref = targetToken) => members(await chain.children(ref));
    expect(await children()).toEqual([]);

    const tokenA = await nft.mint(chain, alice, collectionA, nestingAccount(targetToken));
    expect(await children()).toEqual(members([tokenA]));

    const tokenB = await nft.mint(chain, alice, collectionA);
    await nest(alice, tokenB, targetToken);
    expect(await children()).toEqual(members([tokenA, tokenB]));

    await unnest(alice, tokenB, targetToken, bob.address);
    expect(await children()).toEqual(members([tokenA]));

    const ftRef = { collectionId: collectionB, tokenId: 0 };
    await ft.mint(chain, alice, collectionB, 10n);
    await ft.transfer(chain, alice, collectionB, nestingAccount(targetToken), 2n);
    expect(await children()).toEqual(members([tokenA, ftRef]));

    const tokenC = await rft.mint(chain, alice, collectionC, 10n);
    await rft.transfer(chain, alice, tokenC, nestingAccount(targetToken), 2n);
    expect(await children()).toEqual(members([tokenA, ftRef, tokenC]));

    await rft.burnFrom(chain, alice, tokenC, nestingAccount(targetToken), 2n);
    expect(await children()).toEqual(members([tokenA, ftRef]));

    await ft.transferFrom(chain, alice, collectionB, nestingAccount(targetToken), nestingAccount(tokenA), 1n);
    expect(await children()).toEqual(members([tokenA, ftRef]));
    expect(await children(tokenA)).toEqual([ftRef]);

    await ft.transferFrom(chain, alice, collectionB, nestingAccount(targetToken), nestingAccount(tokenA), 1n);
    expect(await children()).toEqual(members([tokenA]));
    expect(await children(tokenA)).toEqual([ftRef]);
  });

  it('sub/nesting/e2e.test.ts: Performs the full suite: bundles a token, transfers, and unnests', async () => {
    const collection = await nftCollection(alice, { tokenOwner: true });
    const targetToken = await nft.mint(chain, alice, collection);

    const nestedToken = await nft.mint(chain, alice, collection, nestingAccount(targetToken));
    expect(await topmost(nestedToken)).toBe(alice.address);
    expect(await ownerOf(nestedToken)).toBe(nestingAccount(targetToken));

    const newToken = await nft.mint(chain, alice, collection);
    await nest(alice, newToken, targetToken);
    expect(await topmost(newToken)).toBe(alice.address);
    expect(await ownerOf(newToken)).toBe(nestingAccount(targetToken));

    await nft.transfer(chain, alice, targetToken, bob.address);
    for (const nested of [nestedToken, newToken]) {
      expect(await topmost(nested)).toBe(bob.address);
      expect(await ownerOf(nested)).toBe(nestingAccount(targetToken));
    }

    await unnest(bob, newToken, targetToken, bob.address);
    expect(await topmost(newToken)).toBe(bob.address);
    expect(await ownerOf(newToken)).toBe(bob.address);
  });
});

describe('sub/nesting/nesting.negative.test.ts: Negative Test: Nesting', () => {
  for (const mode of ['nft', 'rft'] as const) {
    it(`sub/nesting/nesting.negative.test.ts: Owner cannot nest ${mode.toUpperCase()} if nesting is disabled`, async () => {
      const targetToken = await nft.mint(chain, alice, await nftCollection(alice));
      const collectionForNesting = await chain.createCollection(alice, { mode: mode === 'nft' ? 'NFT' : 'ReFungible' });
      const mint = (owner?: string) => (mode === 'nft' ? nft.mint(chain, alice, collectionForNesting, owner) : rft.mint(chain, alice, collectionForNesting, 10n, owner));
      expect(await failure(mint(nestingAccount(targetToken)))).toBe('common.UserIsNotAllowedToNest');
      const nestedToken2 = await mint();
      const nesting = mode === 'nft' ? nest(alice, nestedToken2, targetToken) : rft.transfer(chain, alice, nestedToken2, nestingAccount(targetToken), 10n);
      expect(await failure(nesting)).toBe('common.UserIsNotAllowedToNest');
    });
  }

  it('sub/nesting/nesting.negative.test.ts: Owner cannot nest [ft] if nesting is disabled (except for native fungible collection)', async () => {
    const targetToken = await nft.mint(chain, alice, await nftCollection(alice));
    const collectionForNesting = await chain.createCollection(alice, { mode: 'Fungible' });
    expect(await failure(ft.mint(chain, alice, collectionForNesting, 100n, nestingAccount(targetToken)))).toBe('common.UserIsNotAllowedToNest');
    await ft.mint(chain, alice, collectionForNesting, 100n);
    expect(await failure(ft.transfer(chain, alice, collectionForNesting, nestingAccount(targetToken), 50n))).toBe('common.UserIsNotAllowedToNest');
  });

  for (const mode of ['nft', 'rft', 'ft'] as const) {
    it(`sub/nesting/nesting.negative.test.ts: Non-owner and non-admin cannot nest ${mode.toUpperCase()} in someone else's tokens (except for native fungible collection)`, async () => {
      const targetCollection = await nftCollection(alice, { tokenOwner: true, collectionAdmin: true });
      const targetToken = await nft.mint(chain, alice, targetCollection);
      const target = nestingAccount(targetToken);
      const nestedCollectionBob = await chain.createCollection(bob, { mode: { nft: 'NFT', rft: 'ReFungible', ft: 'Fungible' }[mode] as 'NFT' | 'ReFungible' | 'Fungible' });
      if (mode === 'nft') {
        const nestedTokenBob = await nft.mint(chain, bob, nestedCollectionBob);
        expect(await failure(nft.mint(chain, bob, nestedCollectionBob, target))).toBe('common.UserIsNotAllowedToNest');
        expect(await failure(nft.transfer(chain, bob, nestedTokenBob, target))).toBe('common.UserIsNotAllowedToNest');
      } else if (mode === 'rft') {
        const nestedTokenBob = await rft.mint(chain, bob, nestedCollectionBob, 100n);
        expect(await failure(rft.mint(chain, bob, nestedCollectionBob, 100n, target))).toBe('common.UserIsNotAllowedToNest');
        expect(await failure(rft.transfer(chain, bob, nestedTokenBob, target, 1n))).toBe('common.UserIsNotAllowedToNest');
      } else {
        await ft.mint(chain, bob, nestedCollectionBob, 100n);
        expect(await failure(ft.mint(chain, bob, nestedCollectionBob, 100n, target))).toBe('common.UserIsNotAllowedToNest');
        expect(await failure(ft.transfer(chain, bob, nestedCollectionBob, target, 100n))).toBe('common.UserIsNotAllowedToNest');
      }
    });
  }

  for (const nesting of [
    { tokenOwner: true, collectionAdmin: false },
    { tokenOwner: false, collectionAdmin: true }
  ]) {
    it(`sub/nesting/nesting.negative.test.ts: ${nesting.tokenOwner ? 'Admin' : 'Token owner'} cannot nest when only ${nesting.tokenOwner ? 'tokenOwner' : 'collectionAdmin'} is allowed`, async () => {
      const targetCollection = await nftCollection(alice, nesting);
      const targetTokenCharlie = await nft.mint(chain, alice, targetCollection, charlie.address);
      await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: targetCollection, newAdmin: bob.address });
      const nestedCollectionCharlie = await nftCollection(charlie);
      const nestedCollectionBob = await nftCollection(bob);
      const attempt = nesting.tokenOwner
        ? nft.mint(chain, bob, nestedCollectionBob, nestingAccount(targetTokenCharlie))
        : nft.mint(chain, charlie, nestedCollectionCharlie, nestingAccount(targetTokenCharlie));
      expect(await failure(attempt)).toBe('common.UserIsNotAllowedToNest');
    });
  }

  it('sub/nesting/nesting.negative.test.ts: Cannot nest in non existing token (except for native fungible collection)', async () => {
    const collection = await nftCollection(alice);
    await setNesting(alice, collection, { collectionAdmin: true });
    const tokenFromNonExistingCollection = { collectionId: 9_999_999, tokenId: 1 };
    const tokenBurnt = await nft.mint(chain, alice, collection);
    await nft.burn(chain, alice, tokenBurnt);
    const tokenNotMintedYet = { collectionId: collection, tokenId: 2 };

    const nftCollectionForNesting = await nftCollection(alice);
    const rftCollectionForNesting = await chain.createCollection(alice, { mode: 'ReFungible' });
    const ftCollectionForNesting = await chain.createCollection(alice, { mode: 'Fungible' });

    for (const { token, error } of [
      { token: tokenFromNonExistingCollection, error: 'CollectionNotFound' },
      { token: tokenBurnt, error: 'TokenNotFound' },
      { token: tokenNotMintedYet, error: 'TokenNotFound' }
    ]) {
      const target = nestingAccount(token);
      expect(await failure(nft.mint(chain, alice, nftCollectionForNesting, target))).toMatch(error);
      expect(await failure(rft.mint(chain, alice, rftCollectionForNesting, 10n, target))).toMatch(error);
      expect(await failure(ft.mint(chain, alice, ftCollectionForNesting, 10n, target))).toMatch(error);

      const nftToken = await nft.mint(chain, alice, nftCollectionForNesting);
      const rftToken = await rft.mint(chain, alice, rftCollectionForNesting, 100n);
      await ft.mint(chain, alice, ftCollectionForNesting, 100n);
      expect(await failure(nft.transfer(chain, alice, nftToken, target))).toMatch(error);
      expect(await failure(rft.transfer(chain, alice, rftToken, target, 1n))).toMatch(error);
      expect(await failure(ft.transfer(chain, alice, ftCollectionForNesting, target, 50n))).toMatch(error);
    }
  });

  it('sub/nesting/nesting.negative.test.ts: Cannot nest in collection address', async () => {
    const existingCollection = await nftCollection(alice);
    const existingCollectionAddress = collectionContractAddress(existingCollection);
    const futureCollectionAddress = collectionContractAddress(99_999_999);
    const nftCollectionForNesting = await nftCollection(alice);
    expect(await failure(nft.mint(chain, alice, nftCollectionForNesting, existingCollectionAddress))).toMatch(/CantNestTokenUnderCollection/);
    expect(await failure(nft.mint(chain, alice, nftCollectionForNesting, futureCollectionAddress))).toMatch(/CantNestTokenUnderCollection/);
    const token = await nft.mint(chain, alice, nftCollectionForNesting);
    expect(await failure(nft.transfer(chain, alice, token, existingCollectionAddress))).toMatch(/CantNestTokenUnderCollection/);
    expect(await failure(nft.transfer(chain, alice, token, futureCollectionAddress))).toMatch(/CantNestTokenUnderCollection/);
  });

  it('sub/nesting/nesting.negative.test.ts: Cannot nest in RFT or FT (except for native fungible collection)', async () => {
    const rftCollection = await chain.createCollection(alice, { mode: 'ReFungible' });
    const ftCollection = await chain.createCollection(alice, { mode: 'Fungible' });
    const rftToken = await rft.mint(chain, alice, rftCollection, 1n);
    await ft.mint(chain, alice, ftCollection, 100n);
    const ftTokenAddress = nestingAccount({ collectionId: ftCollection, tokenId: 0 });
    const collectionForNesting = await nftCollection(alice);

    expect(await failure(nft.mint(chain, alice, collectionForNesting, nestingAccount(rftToken)))).toBe('refungible.RefungibleDisallowsNesting');
    expect(await failure(nft.mint(chain, alice, collectionForNesting, ftTokenAddress))).toBe('fungible.FungibleDisallowsNesting');

    const nestedToken2 = await nft.mint(chain, alice, collectionForNesting);
    expect(await failure(nest(alice, nestedToken2, rftToken))).toBe('refungible.RefungibleDisallowsNesting');
    expect(await failure(ft.transfer(chain, alice, ftCollection, ftTokenAddress, 1n))).toBe('fungible.FungibleDisallowsNesting');
  });

  it('sub/nesting/nesting.negative.test.ts: Cannot nest in restricted collection if collection is not in the list (except native fungible collection)', async () => {
    const allowedCollectionId = await nftCollection(alice);
    const notAllowedCollectionNFT = await nftCollection(alice);
    const notAllowedCollectionRFT = await chain.createCollection(alice, { mode: 'ReFungible' });
    const notAllowedCollectionFT = await chain.createCollection(alice, { mode: 'Fungible' });
    const restrictedCollectionA = await nftCollection(alice, { tokenOwner: true, restricted: [allowedCollectionId] });
    const restrictedCollectionB = await nftCollection(alice, { tokenOwner: true, restricted: [] });
    const targetA = nestingAccount(await nft.mint(chain, alice, restrictedCollectionA));
    const targetB = nestingAccount(await nft.mint(chain, alice, restrictedCollectionB));
    const notAllowed = 'common.SourceCollectionIsNotAllowedToNest';

    expect(await failure(nft.mint(chain, alice, restrictedCollectionA, targetA))).toBe(notAllowed);
    expect(await failure(nft.mint(chain, alice, restrictedCollectionB, targetB))).toBe(notAllowed);
    for (const target of [targetA, targetB]) {
      expect(await failure(nft.mint(chain, alice, notAllowedCollectionNFT, target))).toBe(notAllowed);
      expect(await failure(rft.mint(chain, alice, notAllowedCollectionRFT, 100n, target))).toBe(notAllowed);
      expect(await failure(ft.mint(chain, alice, notAllowedCollectionFT, 100n, target))).toBe(notAllowed);
    }
  });

  it('sub/nesting/nesting.negative.test.ts: Cannot create nesting chains greater than 5', async () => {
    const collection = await nftCollection(alice, { tokenOwner: true });
    let token = await nft.mint(chain, alice, collection);
    for (let i = 0; i < 5; i++) token = await nft.mint(chain, alice, collection, nestingAccount(token));

    expect(await failure(nft.mint(chain, alice, collection, nestingAccount(token)))).toBe('structure.DepthLimit');
    const anotherToken = await nft.mint(chain, alice, collection);
    expect(await failure(nft.transfer(chain, alice, anotherToken, nestingAccount(token)))).toBe('structure.DepthLimit');
    const ftCollection = await chain.createCollection(alice, { mode: 'Fungible' });
    expect(await failure(ft.mint(chain, alice, ftCollection, 100n, nestingAccount(token)))).toBe('structure.DepthLimit');

    expect(await topmost(token)).toBe(alice.address);
    expect(await chain.children(token)).toHaveLength(0);
  });
});

describe('sub/nesting/unnest.test.ts: Integration Test: Unnesting', () => {
  it('sub/nesting/unnest.test.ts: NFT: allows the owner to successfully unnest a token', async () => {
    const collection = await nftCollection(alice, { tokenOwner: true });
    const targetToken = await nft.mint(chain, alice, collection);
    const nestedToken = await nft.mint(chain, alice, collection, nestingAccount(targetToken));

    await unnest(alice, nestedToken, targetToken, alice.address);
    expect(await ownerOf(nestedToken)).toBe(alice.address);

    await nest(alice, nestedToken, targetToken);
    await nftAllowance.burnFrom(chain, alice, nestedToken, nestingAccount(targetToken));
    expect(await ownerOf(nestedToken)).toBeUndefined();
  });

  for (const sender of ['owner', 'admin'] as const) {
    for (const op of ['transfer', 'burn'] as const) {
      it(`sub/nesting/unnest.test.ts: [nft]: allows a collection ${sender} to ${op} nested token`, async () => {
        const unnester = sender === 'owner' ? alice : bob;
        const collectionNFT = await nftCollection(alice);
        await setNesting(alice, collectionNFT, { tokenOwner: true });
        const collectionNested = await nftCollection(alice, undefined, { limits: { ownerCanTransfer: true } });
        await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collectionNested, newAdmin: bob.address });
        const targetNft = await nft.mint(chain, alice, collectionNFT, charlie.address);
        const nested = await nft.mint(chain, alice, collectionNested, charlie.address);

        await nft.transfer(chain, charlie, nested, nestingAccount(targetNft));
        expect(await chain.children(targetNft)).toEqual([nested]);

        if (op === 'transfer') await unnest(unnester, nested, targetNft, bob.address);
        else await nftAllowance.burnFrom(chain, unnester, nested, nestingAccount(targetNft));
        expect(await chain.children(targetNft)).toHaveLength(0);
      });
    }
  }
});

describe('sub/nesting/unnest.test.ts: Negative Test: Unnesting', () => {
  it('sub/nesting/unnest.test.ts: Disallows a non-owner to unnest/burn a token', async () => {
    const collection = await nftCollection(alice, { tokenOwner: true });
    const targetToken = await nft.mint(chain, alice, collection);
    const nestedToken = await nft.mint(chain, alice, collection, nestingAccount(targetToken));

    expect(await failure(unnest(bob, nestedToken, targetToken, alice.address))).toBe('common.ApprovedValueTooLow');
    expect(await ownerOf(nestedToken)).toBe(nestingAccount(targetToken));
    expect(await failure(nftAllowance.burnFrom(chain, bob, nestedToken, nestingAccount(targetToken)))).toBe('common.ApprovedValueTooLow');
    expect(await ownerOf(nestedToken)).toBe(nestingAccount(targetToken));
  });

  it('sub/nesting/unnest.test.ts: Prevents Ouroboros creation', async () => {
    const collection = await nftCollection(alice, { tokenOwner: true });
    const targetToken = await nft.mint(chain, alice, collection);
    const nestedToken = await nft.mint(chain, alice, collection, nestingAccount(targetToken));
    expect(await failure(nest(alice, targetToken, nestedToken))).toBe('structure.OuroborosDetected');
  });
});

describe('sub/nesting/unnesting.negative.test.ts: Negative Test: Unnesting', () => {
  it("sub/nesting/unnesting.negative.test.ts: Admin (NFT): disallows an Admin to unnest someone else's token", async () => {
    const collection = await nftCollection(alice, undefined, { limits: { ownerCanTransfer: true }, permissions: { access: 'AllowList', mintMode: true, nesting: { collectionAdmin: true } } });
    const targetToken = await nft.mint(chain, alice, collection, bob.address);
    await chain.ok(alice, 'unique.addToAllowList', { collectionId: collection, address: bob.address });
    await chain.ok(alice, 'unique.addToAllowList', { collectionId: collection, address: nestingAccount(targetToken) });

    const newToken = await nft.mint(chain, bob, collection);
    expect(await failure(nest(alice, newToken, targetToken))).toBe('common.NoPermission');

    const nestedToken = await nft.mint(chain, alice, collection, nestingAccount(targetToken));
    expect(await failure(unnest(alice, nestedToken, targetToken, bob.address))).toBe('common.AddressNotInAllowlist');

    expect(await chain.children(targetToken)).toHaveLength(1);
    expect(await topmost(nestedToken)).toBe(bob.address);
    expect(await ownerOf(nestedToken)).toBe(nestingAccount(targetToken));
  });

  for (const restrictedMode of [true, false]) {
    it(`sub/nesting/unnesting.negative.test.ts: Fungible: disallows a non-Owner to unnest someone else's token [ft${restrictedMode ? ' (Restricted nesting)' : ''}]`, async () => {
      const collectionNFT = await nftCollection(alice);
      const collectionFT = await chain.createCollection(alice, { mode: 'Fungible' });
      const targetToken = await nft.mint(chain, alice, collectionNFT, bob.address);
      await setNesting(alice, collectionNFT, { collectionAdmin: true, tokenOwner: true, restricted: restrictedMode ? [collectionFT] : null });

      await ft.mint(chain, alice, collectionFT, 5n, nestingAccount(targetToken));
      expect(await failure(ft.transferFrom(chain, alice, collectionFT, nestingAccount(targetToken), bob.address, 1n))).toBe('common.ApprovedValueTooLow');
      expect(await chain.ftBalance(collectionFT, nestingAccount(targetToken))).toBe(5n);
    });
  }
});

describe('refungible.test.ts: ReFungible-specific nesting tests', () => {
  it('refungible.test.ts: ReFungible: getTopmostOwner works correctly with Nesting', async () => {
    const collectionNFT = await nftCollection(alice, { tokenOwner: true });
    const collectionRFT = await chain.createCollection(alice, { mode: 'ReFungible' });
    const parent = await nft.mint(chain, alice, collectionNFT);
    const token = await rft.mint(chain, alice, collectionRFT, 100n);
    expect(await topmost(token)).toBe(alice.address);
    await rft.transfer(chain, alice, token, nestingAccount(parent), 40n);
    // Split between Alice and the NFT: the structure pallet finds multiple owners.
    expect(await topmost(token)).toBeNull();
    await rft.transfer(chain, alice, token, nestingAccount(parent), 60n);
    expect(await topmost(token)).toBe(alice.address);
    await rft.transferFrom(chain, alice, token, nestingAccount(parent), alice.address, 30n);
    expect(await topmost(token)).toBeNull();
    await rft.transferFrom(chain, alice, token, nestingAccount(parent), alice.address, 70n);
    expect(await topmost(token)).toBe(alice.address);
  });
});
