// The chain's allowance integration tests (js-packages/tests of UniqueNetwork/unique-chain:
// approve.test.ts and transferFrom.test.ts; the operator tests of eth/nonFungible.test.ts and
// eth/reFungible.test.ts through the substrate calls that reach the same pallet functions), ported
// to the ledger under `--rules unique`. Each test is named after its source file and title.
//
// Not ported:
// - approve.test.ts, the whole `approveTokenFromEth` round: `approveFrom` with the owner's EVM
//   mirror (CrossAccountId.toEthereum); Opalite has no approveFrom call and no EVM mirrors.
// - approve.test.ts "Repeated approvals add up": itSub.skip upstream.
// - transferFrom.test.ts "[fungible]/[refungible] Execute the extrinsic ...", "Should reduce
//   allowance if value is big", "[fungible]/[refungible] transferFrom for not approved address"
//   and "... incorrect token count": already in fungible.test.ts and refungible.test.ts.
// - transferFrom.test.ts "transferFrom burnt token before/after approve Fungible/ReFungible":
//   Fungible and ReFungible burns, covered by those files' burn tests; the NFT ones are here.
// - transferFrom.test.ts "transferFrom for a collection that was destroyed", "... a token that
//   does not exist", "... a token that was deleted": commented out upstream.
import { beforeEach, describe, expect, it } from 'vitest';
import { Chain, alice, bob, charlie, dave, failure, ft, nftAllowance, nftToken, nft, rft } from './kit';
import type { Account } from './kit';
import type { TokenRef } from '../../src/lib/ledger/types';

let chain: Chain;
beforeEach(async () => {
  chain = await Chain.start();
});

const NONEXISTENT_COLLECTION = 2 ** 32 - 1;
const col = { name: 'col', description: 'descr', tokenPrefix: 'COL' };
const nftCollection = (owner = alice) => chain.createCollection(owner, { mode: 'NFT', ...col });
const ftCollection = (owner = alice) => chain.createCollection(owner, { mode: 'Fungible', decimals: 0, ...col });
const rftCollection = (owner = alice) => chain.createCollection(owner, { mode: 'ReFungible', ...col });
const approve = (signer: Account, collectionId: number, tokenId: number, spender: string, amount = 1n) =>
  chain.ok(signer, 'unique.approve', { spender, collectionId, tokenId, amount });
const isApproved = (token: TokenRef, spender: string) => nftToken(chain, token).then((t) => t?.approved === spender);

describe('approve.test.ts: Integration Test approveToken(spender, collection_id, item_id, amount):', () => {
  it('approve.test.ts: [nft] Execute the extrinsic and check approvedList', async () => {
    const token = await nft.mint(chain, alice, await nftCollection());
    await nftAllowance.approve(chain, alice, token, bob.address);
    expect(await isApproved(token, bob.address)).toBe(true);
  });

  it('approve.test.ts: [fungible] Execute the extrinsic and check approvedList', async () => {
    const collection = await ftCollection();
    await ft.mint(chain, alice, collection, 10n);
    await ft.approve(chain, alice, collection, bob.address, 1n);
    expect(await chain.ftAllowance(collection, alice.address, bob.address)).toBe(1n);
  });

  it('approve.test.ts: [refungible] Execute the extrinsic and check approvedList', async () => {
    const token = await rft.mint(chain, alice, await rftCollection(), 100n);
    await rft.approve(chain, alice, token, bob.address, 1n);
    expect(await chain.rftAllowance(token.collectionId, token.tokenId, alice.address, bob.address)).toBe(1n);
  });

  it('approve.test.ts: [nft] Remove approval by using 0 amount', async () => {
    const token = await nft.mint(chain, alice, await nftCollection());
    await nftAllowance.approve(chain, alice, token, bob.address);
    expect(await isApproved(token, bob.address)).toBe(true);
    await nftAllowance.approve(chain, alice, token, bob.address, 0n);
    expect(await isApproved(token, bob.address)).toBe(false);
  });

  it('approve.test.ts: [fungible] Remove approval by using 0 amount', async () => {
    const collection = await ftCollection();
    await ft.mint(chain, alice, collection, 10n);
    await ft.approve(chain, alice, collection, bob.address, 1n);
    expect(await chain.ftAllowance(collection, alice.address, bob.address)).toBe(1n);
    await ft.approve(chain, alice, collection, bob.address, 0n);
    expect(await chain.ftAllowance(collection, alice.address, bob.address)).toBe(0n);
  });

  it('approve.test.ts: [refungible] Remove approval by using 0 amount', async () => {
    const token = await rft.mint(chain, alice, await rftCollection(), 100n);
    await rft.approve(chain, alice, token, bob.address, 1n);
    expect(await chain.rftAllowance(token.collectionId, token.tokenId, alice.address, bob.address)).toBe(1n);
    await rft.approve(chain, alice, token, bob.address, 0n);
    expect(await chain.rftAllowance(token.collectionId, token.tokenId, alice.address, bob.address)).toBe(0n);
  });

  it('approve.test.ts: can`t be called by collection owner on non-owned item when OwnerCanTransfer == false', async () => {
    const token = await nft.mint(chain, alice, await nftCollection(), bob.address);
    expect(await failure(nftAllowance.approve(chain, alice, token, charlie.address))).toBe('common.CantApproveMoreThanOwned');
  });
});

describe('approve.test.ts: [approveToken] Normal user can approve other users to transfer:', () => {
  it('approve.test.ts: NFT', async () => {
    const token = await nft.mint(chain, alice, await nftCollection(), bob.address);
    await nftAllowance.approve(chain, bob, token, charlie.address);
    expect(await isApproved(token, charlie.address)).toBe(true);
  });

  it('approve.test.ts: Fungible up to an approved amount', async () => {
    const collection = await ftCollection();
    await ft.mint(chain, alice, collection, 10n, bob.address);
    await ft.approve(chain, bob, collection, charlie.address, 1n);
    expect(await chain.ftAllowance(collection, bob.address, charlie.address)).toBe(1n);
  });

  it('approve.test.ts: ReFungible up to an approved amount', async () => {
    const token = await rft.mint(chain, alice, await rftCollection(), 100n, bob.address);
    await rft.approve(chain, bob, token, charlie.address, 100n);
    expect(await chain.rftAllowance(token.collectionId, token.tokenId, bob.address, charlie.address)).toBe(100n);
  });
});

describe('approve.test.ts: [approveToken] Approved users can transferFrom up to approved amount:', () => {
  it('approve.test.ts: NFT', async () => {
    const token = await nft.mint(chain, alice, await nftCollection(), bob.address);
    await nftAllowance.approve(chain, bob, token, charlie.address);
    await nftAllowance.transferFrom(chain, charlie, token, bob.address, alice.address);
    expect((await nftToken(chain, token))?.owner).toBe(alice.address);
  });

  it('approve.test.ts: Fungible up to an approved amount', async () => {
    const collection = await ftCollection();
    await ft.mint(chain, alice, collection, 10n, bob.address);
    await ft.approve(chain, bob, collection, charlie.address, 1n);
    const before = await chain.ftBalance(collection, alice.address);
    await ft.transferFrom(chain, charlie, collection, bob.address, alice.address, 1n);
    expect((await chain.ftBalance(collection, alice.address)) - before).toBe(1n);
  });

  it('approve.test.ts: ReFungible up to an approved amount', async () => {
    const token = await rft.mint(chain, alice, await rftCollection(), 100n, bob.address);
    await rft.approve(chain, bob, token, charlie.address, 1n);
    const before = await chain.rftBalance(token.collectionId, token.tokenId, alice.address);
    await rft.transferFrom(chain, charlie, token, bob.address, alice.address, 1n);
    expect((await chain.rftBalance(token.collectionId, token.tokenId, alice.address)) - before).toBe(1n);
  });
});

describe('approve.test.ts: [approveToken] Approved users cannot use transferFrom to repeat transfers if approved amount was already transferred:', () => {
  it('approve.test.ts: NFT', async () => {
    const token = await nft.mint(chain, alice, await nftCollection(), bob.address);
    await nftAllowance.approve(chain, bob, token, charlie.address);
    await nftAllowance.transferFrom(chain, charlie, token, bob.address, alice.address);
    expect((await nftToken(chain, token))?.owner).toBe(alice.address);
    expect(await failure(nftAllowance.transferFrom(chain, charlie, token, bob.address, alice.address))).toBe('common.ApprovedValueTooLow');
  });

  it('approve.test.ts: Fungible up to an approved amount', async () => {
    const collection = await ftCollection();
    await ft.mint(chain, alice, collection, 10n, bob.address);
    await ft.approve(chain, bob, collection, charlie.address, 1n);
    await ft.transferFrom(chain, charlie, collection, bob.address, alice.address, 1n);
    expect(await chain.ftBalance(collection, alice.address)).toBe(1n);
    expect(await failure(ft.transferFrom(chain, charlie, collection, bob.address, alice.address, 1n))).toBe('common.ApprovedValueTooLow');
  });

  it('approve.test.ts: ReFungible up to an approved amount', async () => {
    const token = await rft.mint(chain, alice, await rftCollection(), 100n, bob.address);
    await rft.approve(chain, bob, token, charlie.address, 100n);
    await rft.transferFrom(chain, charlie, token, bob.address, alice.address, 100n);
    expect(await chain.rftBalance(token.collectionId, token.tokenId, alice.address)).toBe(100n);
    expect(await failure(rft.transferFrom(chain, charlie, token, bob.address, alice.address, 100n))).toBe('common.ApprovedValueTooLow');
  });
});

describe('approve.test.ts: [approveToken] Approved amount decreases by the transferred amount:', () => {
  it('approve.test.ts: If a user B is approved to transfer 10 Fungible tokens from user A, they can transfer 2 tokens to user C, which will result in decreasing approval from 10 to 8. Then user B can transfer 8 tokens to user D.', async () => {
    const collection = await ftCollection();
    await ft.mint(chain, alice, collection, 10n);
    await ft.approve(chain, alice, collection, bob.address, 10n);
    await ft.transferFrom(chain, bob, collection, alice.address, charlie.address, 2n);
    expect(await chain.ftBalance(collection, charlie.address)).toBe(2n);
    expect(await chain.ftAllowance(collection, alice.address, bob.address)).toBe(8n);
    await ft.transferFrom(chain, bob, collection, alice.address, dave.address, 8n);
    expect(await chain.ftBalance(collection, dave.address)).toBe(8n);
  });
});

describe('approve.test.ts: [approveToken] User may clear the approvals to approving for 0 amount:', () => {
  it('approve.test.ts: NFT', async () => {
    const token = await nft.mint(chain, alice, await nftCollection());
    await nftAllowance.approve(chain, alice, token, bob.address);
    expect(await isApproved(token, bob.address)).toBe(true);
    await nftAllowance.approve(chain, alice, token, bob.address, 0n);
    expect(await isApproved(token, bob.address)).toBe(false);
    expect(await failure(nftAllowance.transferFrom(chain, bob, token, alice.address, bob.address))).toBe('common.ApprovedValueTooLow');
  });

  it('approve.test.ts: Fungible', async () => {
    const collection = await ftCollection();
    await ft.mint(chain, alice, collection, 10n);
    await ft.approve(chain, alice, collection, bob.address, 1n);
    expect(await chain.ftAllowance(collection, alice.address, bob.address)).toBe(1n);
    await ft.approve(chain, alice, collection, bob.address, 0n);
    expect(await chain.ftAllowance(collection, alice.address, bob.address)).toBe(0n);
    expect(await failure(ft.transferFrom(chain, bob, collection, alice.address, charlie.address, 1n))).toBe('common.ApprovedValueTooLow');
  });

  it('approve.test.ts: ReFungible', async () => {
    const token = await rft.mint(chain, alice, await rftCollection(), 100n);
    await rft.approve(chain, alice, token, bob.address, 1n);
    expect(await chain.rftAllowance(token.collectionId, token.tokenId, alice.address, bob.address)).toBe(1n);
    await rft.approve(chain, alice, token, bob.address, 0n);
    expect(await chain.rftAllowance(token.collectionId, token.tokenId, alice.address, bob.address)).toBe(0n);
    expect(await failure(rft.transferFrom(chain, bob, token, alice.address, charlie.address, 1n))).toBe('common.ApprovedValueTooLow');
  });
});

describe('approve.test.ts: [approveToken] User cannot approve for the amount greater than they own:', () => {
  it('approve.test.ts: 1 for NFT', async () => {
    const token = await nft.mint(chain, alice, await nftCollection(), bob.address);
    expect(await failure(nftAllowance.approve(chain, bob, token, charlie.address, 2n))).toBe('nonfungible.NonfungibleItemsHaveNoAmount');
    expect(await isApproved(token, charlie.address)).toBe(false);
  });

  it('approve.test.ts: Fungible', async () => {
    const collection = await ftCollection();
    await ft.mint(chain, alice, collection, 10n);
    expect(await failure(ft.approve(chain, alice, collection, bob.address, 11n))).toBe('common.CantApproveMoreThanOwned');
  });

  it('approve.test.ts: ReFungible', async () => {
    const token = await rft.mint(chain, alice, await rftCollection(), 100n);
    expect(await failure(rft.approve(chain, alice, token, bob.address, 101n))).toBe('common.CantApproveMoreThanOwned');
  });
});

describe('approve.test.ts: [approveToken] Integration Test approve(spender, collection_id, item_id, amount) with collection admin permissions:', () => {
  it('approve.test.ts: cannot be called by collection admin on non-owned item', async () => {
    const collection = await nftCollection();
    const token = await nft.mint(chain, alice, collection);
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collection, newAdmin: bob.address });
    expect(await failure(nftAllowance.approve(chain, bob, token, charlie.address))).toBe('common.CantApproveMoreThanOwned');
  });
});

describe('approve.test.ts: [approveToken] Negative Integration Test approve(spender, collection_id, item_id, amount):', () => {
  for (const mode of ['nft', 'fungible', 'refungible'] as const) {
    it(`approve.test.ts: [${mode}] Approve for a collection that does not exist`, async () => {
      expect(await failure(approve(bob, NONEXISTENT_COLLECTION, 1, charlie.address))).toBe('common.CollectionNotFound');
    });

    it(`approve.test.ts: [${mode}] Approve for a collection that was destroyed`, async () => {
      const collection = await { nft: nftCollection, fungible: ftCollection, refungible: rftCollection }[mode]();
      await chain.ok(alice, 'unique.destroyCollection', { collectionId: collection });
      expect(await failure(approve(alice, collection, 1, bob.address))).toBe('common.CollectionNotFound');
    });
  }

  it('approve.test.ts: [nft] Approve transfer of a token that does not exist', async () => {
    expect(await failure(approve(alice, await nftCollection(), 2, bob.address))).toBe('common.TokenNotFound');
  });

  it('approve.test.ts: [refungible] Approve transfer of a token that does not exist', async () => {
    expect(await failure(approve(alice, await rftCollection(), 2, bob.address))).toBe('common.CantApproveMoreThanOwned');
  });

  it('approve.test.ts: [nft] Approve using the address that does not own the approved token', async () => {
    const token = await nft.mint(chain, alice, await nftCollection());
    expect(await failure(nftAllowance.approve(chain, bob, token, alice.address))).toBe('common.CantApproveMoreThanOwned');
  });

  it('approve.test.ts: [fungible] Approve using the address that does not own the approved token', async () => {
    const collection = await ftCollection();
    await ft.mint(chain, alice, collection, 10n);
    expect(await failure(ft.approve(chain, bob, collection, alice.address, 1n))).toBe('common.CantApproveMoreThanOwned');
  });

  it('approve.test.ts: [refungible] Approve using the address that does not own the approved token', async () => {
    const token = await rft.mint(chain, alice, await rftCollection(), 100n);
    expect(await failure(rft.approve(chain, bob, token, alice.address, 1n))).toBe('common.CantApproveMoreThanOwned');
  });

  it('approve.test.ts: should fail if approved more ReFungibles than owned', async () => {
    const token = await rft.mint(chain, alice, await rftCollection(), 100n);
    await rft.transfer(chain, alice, token, bob.address, 100n);
    await rft.approve(chain, bob, token, alice.address, 100n);
    expect(await failure(rft.approve(chain, bob, token, alice.address, 101n))).toBe('common.CantApproveMoreThanOwned');
  });

  it('approve.test.ts: should fail if approved more Fungibles than owned', async () => {
    const collection = await ftCollection();
    await ft.mint(chain, alice, collection, 10n);
    await ft.transfer(chain, alice, collection, bob.address, 10n);
    await ft.approve(chain, bob, collection, alice.address, 10n);
    expect(await failure(ft.approve(chain, bob, collection, alice.address, 11n))).toBe('common.CantApproveMoreThanOwned');
  });

  it('approve.test.ts: fails when called by collection owner on non-owned item when OwnerCanTransfer == false', async () => {
    const collection = await nftCollection();
    const token = await nft.mint(chain, alice, collection, bob.address);
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId: collection, limits: { ownerCanTransfer: false } });
    expect(await failure(nftAllowance.approve(chain, alice, token, charlie.address))).toBe('common.CantApproveMoreThanOwned');
  });
});

describe('approve.test.ts: Administrator and collection owner do not need approval in order to execute TransferFrom (with owner_can_transfer_flag = true):', () => {
  it('approve.test.ts: NFT', async () => {
    const collection = await nftCollection();
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId: collection, limits: { ownerCanTransfer: true } });
    const token = await nft.mint(chain, alice, collection, charlie.address);
    await nftAllowance.transferFrom(chain, alice, token, charlie.address, dave.address);
    expect((await nftToken(chain, token))?.owner).toBe(dave.address);
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collection, newAdmin: bob.address });
    await nftAllowance.transferFrom(chain, bob, token, dave.address, alice.address);
    expect((await nftToken(chain, token))?.owner).toBe(alice.address);
  });

  it('approve.test.ts: Fungible up to an approved amount', async () => {
    const collection = await ftCollection();
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId: collection, limits: { ownerCanTransfer: true } });
    await ft.mint(chain, alice, collection, 10n, charlie.address);
    await ft.transferFrom(chain, alice, collection, charlie.address, dave.address, 1n);
    expect(await chain.ftBalance(collection, dave.address)).toBe(1n);
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collection, newAdmin: bob.address });
    await ft.transferFrom(chain, bob, collection, dave.address, alice.address, 1n);
    expect(await chain.ftBalance(collection, alice.address)).toBe(1n);
  });

  it('approve.test.ts: ReFungible up to an approved amount', async () => {
    const collection = await rftCollection();
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId: collection, limits: { ownerCanTransfer: true } });
    const token = await rft.mint(chain, alice, collection, 100n, charlie.address);
    await rft.transferFrom(chain, alice, token, charlie.address, dave.address, 1n);
    expect(await chain.rftBalance(collection, token.tokenId, dave.address)).toBe(1n);
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collection, newAdmin: bob.address });
    await rft.transferFrom(chain, bob, token, dave.address, alice.address, 1n);
    expect(await chain.rftBalance(collection, token.tokenId, alice.address)).toBe(1n);
  });
});

describe('transferFrom.test.ts: Integration Test transferFrom(from, recipient, collection_id, item_id, value):', () => {
  it('transferFrom.test.ts: [nft] Execute the extrinsic and check nftItemList - owner of token', async () => {
    const token = await nft.mint(chain, alice, await nftCollection());
    await nftAllowance.approve(chain, alice, token, bob.address);
    expect(await isApproved(token, bob.address)).toBe(true);
    await nftAllowance.transferFrom(chain, bob, token, alice.address, charlie.address);
    expect((await nftToken(chain, token))?.owner).toBe(charlie.address);
  });

  it('transferFrom.test.ts: can be called by collection owner on non-owned item when OwnerCanTransfer == true', async () => {
    const collection = await nftCollection();
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId: collection, limits: { ownerCanTransfer: true } });
    const token = await nft.mint(chain, alice, collection, bob.address);
    await nftAllowance.transferFrom(chain, alice, token, bob.address, charlie.address);
    expect((await nftToken(chain, token))?.owner).toBe(charlie.address);
  });
});

describe('transferFrom.test.ts: Negative Integration Test transferFrom(from, recipient, collection_id, item_id, value):', () => {
  it('transferFrom.test.ts: transferFrom for a collection that does not exist', async () => {
    expect(await failure(approve(alice, NONEXISTENT_COLLECTION, 0, bob.address))).toBe('common.CollectionNotFound');
    const transferFrom = chain.ok(bob, 'unique.transferFrom', { from: alice.address, to: bob.address, collectionId: NONEXISTENT_COLLECTION, tokenId: 0, value: 1n });
    expect(await failure(transferFrom)).toBe('common.CollectionNotFound');
  });

  it('transferFrom.test.ts: [nft] transferFrom for not approved address', async () => {
    const token = await nft.mint(chain, alice, await nftCollection());
    expect(await failure(nftAllowance.transferFrom(chain, bob, token, alice.address, charlie.address))).toBe('common.ApprovedValueTooLow');
    expect((await nftToken(chain, token))?.owner).toBe(alice.address);
  });

  it('transferFrom.test.ts: [nft] transferFrom incorrect token count', async () => {
    const token = await nft.mint(chain, alice, await nftCollection());
    await nftAllowance.approve(chain, alice, token, bob.address);
    expect(await isApproved(token, bob.address)).toBe(true);
    expect(await failure(nftAllowance.transferFrom(chain, bob, token, alice.address, charlie.address, 2n))).toBe('nonfungible.NonfungibleItemsHaveNoAmount');
    expect((await nftToken(chain, token))?.owner).toBe(alice.address);
  });

  it('transferFrom.test.ts: [nft] execute transferFrom from account that is not owner of collection', async () => {
    const token = await nft.mint(chain, alice, await nftCollection());
    expect(await failure(nftAllowance.approve(chain, charlie, token, bob.address))).toBe('common.CantApproveMoreThanOwned');
    expect(await isApproved(token, bob.address)).toBe(false);
    expect(await failure(nftAllowance.transferFrom(chain, charlie, token, alice.address, charlie.address))).toBe('common.ApprovedValueTooLow');
    expect((await nftToken(chain, token))?.owner).toBe(alice.address);
  });

  it('transferFrom.test.ts: [fungible] execute transferFrom from account that is not owner of collection', async () => {
    const collection = await ftCollection();
    await ft.mint(chain, alice, collection, 10_000n);
    expect(await failure(ft.approve(chain, charlie, collection, bob.address, 1n))).toBe('common.CantApproveMoreThanOwned');
    expect(await chain.ftAllowance(collection, alice.address, bob.address)).toBe(0n);
    expect(await chain.ftAllowance(collection, charlie.address, bob.address)).toBe(0n);
    expect(await failure(ft.transferFrom(chain, charlie, collection, alice.address, charlie.address, 1n))).toBe('common.ApprovedValueTooLow');
    expect(await chain.ftBalance(collection, alice.address)).toBe(10_000n);
    expect(await chain.ftBalance(collection, bob.address)).toBe(0n);
    expect(await chain.ftBalance(collection, charlie.address)).toBe(0n);
  });

  it('transferFrom.test.ts: [refungible] execute transferFrom from account that is not owner of collection', async () => {
    const token = await rft.mint(chain, alice, await rftCollection(), 10_000n);
    expect(await failure(rft.approve(chain, charlie, token, bob.address, 1n))).toBe('common.CantApproveMoreThanOwned');
    expect(await chain.rftAllowance(token.collectionId, token.tokenId, alice.address, bob.address)).toBe(0n);
    expect(await chain.rftAllowance(token.collectionId, token.tokenId, charlie.address, bob.address)).toBe(0n);
    expect(await failure(rft.transferFrom(chain, charlie, token, alice.address, charlie.address, 1n))).toBe('common.ApprovedValueTooLow');
    expect(await chain.rftBalance(token.collectionId, token.tokenId, alice.address)).toBe(10_000n);
    expect(await chain.rftBalance(token.collectionId, token.tokenId, bob.address)).toBe(0n);
    expect(await chain.rftBalance(token.collectionId, token.tokenId, charlie.address)).toBe(0n);
  });

  it('transferFrom.test.ts: transferFrom burnt token before approve NFT', async () => {
    const collection = await nftCollection();
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId: collection, limits: { ownerCanTransfer: true } });
    const token = await nft.mint(chain, alice, collection);
    await nft.burn(chain, alice, token);
    expect(await failure(nftAllowance.approve(chain, alice, token, bob.address))).toBe('common.TokenNotFound');
    expect(await failure(nftAllowance.transferFrom(chain, bob, token, alice.address, charlie.address))).toBe('common.ApprovedValueTooLow');
  });

  it('transferFrom.test.ts: transferFrom burnt token after approve NFT', async () => {
    const token = await nft.mint(chain, alice, await nftCollection());
    await nftAllowance.approve(chain, alice, token, bob.address);
    expect(await isApproved(token, bob.address)).toBe(true);
    await nft.burn(chain, alice, token);
    expect(await failure(nftAllowance.transferFrom(chain, bob, token, alice.address, charlie.address))).toBe('common.ApprovedValueTooLow');
  });

  it('transferFrom.test.ts: fails when called by collection owner on non-owned item when OwnerCanTransfer == false', async () => {
    const collection = await nftCollection();
    const token = await nft.mint(chain, alice, collection, bob.address);
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId: collection, limits: { ownerCanTransfer: false } });
    expect(await failure(nftAllowance.transferFrom(chain, alice, token, bob.address, charlie.address))).toBe('common.ApprovedValueTooLow');
  });

  it('transferFrom.test.ts: zero transfer NFT', async () => {
    const collection = await nftCollection();
    const notApprovedNft = await nft.mint(chain, alice, collection, bob.address);
    const approvedNft = await nft.mint(chain, alice, collection, bob.address);
    await nftAllowance.approve(chain, bob, approvedNft, alice.address);
    const zero = (tokenId: number) => chain.ok(alice, 'unique.transferFrom', { from: bob.address, to: alice.address, collectionId: collection, tokenId, value: 0n });
    expect(await failure(zero(9999))).toBe('common.ApprovedValueTooLow');
    expect(await failure(zero(notApprovedNft.tokenId))).toBe('common.ApprovedValueTooLow');
    await zero(approvedNft.tokenId);
    expect(await isApproved(approvedNft, alice.address)).toBe(true);
    expect((await nftToken(chain, approvedNft))?.owner).toBe(bob.address);
    expect((await nftToken(chain, notApprovedNft))?.owner).toBe(bob.address);
    await nftAllowance.transferFrom(chain, alice, approvedNft, bob.address, alice.address);
    expect((await nftToken(chain, approvedNft))?.owner).toBe(alice.address);
  });
});

describe('approve.test.ts: Normal user can approve other users to be wallet operator:', () => {
  const setAllowanceForAll = (signer: Account, collectionId: number, operator: string, approve: boolean) =>
    chain.ok(signer, 'unique.setAllowanceForAll', { collectionId, operator, approve });

  for (const [label, create] of [
    ['nft', nftCollection],
    ['rft', rftCollection]
  ] as const) {
    it(`approve.test.ts: [${label}] Enable and disable approval`, async () => {
      const collectionId = await create();
      expect(await chain.allowanceForAll(collectionId, alice.address, bob.address)).toBe(false);
      const events = await setAllowanceForAll(alice, collectionId, bob.address, true);
      expect(events.find((e) => e.method === 'ApprovedForAll')?.data).toEqual({ collectionId, owner: alice.address, operator: bob.address, approve: true });
      expect(await chain.allowanceForAll(collectionId, alice.address, bob.address)).toBe(true);
      // Only that owner's tokens: Bob is no operator of Charlie's.
      expect(await chain.allowanceForAll(collectionId, charlie.address, bob.address)).toBe(false);
      await setAllowanceForAll(alice, collectionId, bob.address, false);
      expect(await chain.allowanceForAll(collectionId, alice.address, bob.address)).toBe(false);
    });
  }

  it('refuses it in a Fungible collection (fungible.SettingAllowanceForAllNotAllowed), in a missing one, and for the zero address', async () => {
    const fungible = await ftCollection();
    expect(await failure(setAllowanceForAll(alice, fungible, bob.address, true))).toBe('fungible.SettingAllowanceForAllNotAllowed');
    expect(await chain.allowanceForAll(fungible, alice.address, bob.address)).toBe(false);
    expect(await failure(setAllowanceForAll(alice, NONEXISTENT_COLLECTION, bob.address, true))).toBe('common.CollectionNotFound');
    const nfts = await nftCollection();
    expect(await failure(setAllowanceForAll(alice, nfts, '0x0000000000000000000000000000000000000000', true))).toBe('common.AddressIsZero');
  });

  it('with access AllowList, owner and operator must both be listed', async () => {
    const collectionId = await nftCollection();
    await chain.ok(alice, 'unique.setCollectionPermissions', { collectionId, permissions: { access: 'AllowList' } });
    await chain.ok(alice, 'unique.addToAllowList', { collectionId, address: alice.address });
    expect(await failure(setAllowanceForAll(alice, collectionId, bob.address, true))).toBe('common.AddressNotInAllowlist');
    await chain.ok(alice, 'unique.addToAllowList', { collectionId, address: bob.address });
    await setAllowanceForAll(alice, collectionId, bob.address, true);
    expect(await chain.allowanceForAll(collectionId, alice.address, bob.address)).toBe(true);
  });

  it('eth/nonFungible.test.ts: Can perform transfer with ApprovalForAll, and not once it is switched off', async () => {
    const collectionId = await nftCollection();
    const [first, second] = [await nft.mint(chain, alice, collectionId, bob.address), await nft.mint(chain, alice, collectionId, bob.address)];
    await setAllowanceForAll(bob, collectionId, charlie.address, true);
    await nftAllowance.transferFrom(chain, charlie, first, bob.address, dave.address);
    expect((await nftToken(chain, first))?.owner).toBe(dave.address);
    await setAllowanceForAll(bob, collectionId, charlie.address, false);
    expect(await failure(nftAllowance.transferFrom(chain, charlie, second, bob.address, dave.address))).toBe('common.ApprovedValueTooLow');
    expect((await nftToken(chain, second))?.owner).toBe(bob.address);
    // Dave's new token is not Charlie's to move: the operator is Bob's.
    await setAllowanceForAll(bob, collectionId, charlie.address, true);
    expect(await failure(nftAllowance.transferFrom(chain, charlie, first, dave.address, bob.address))).toBe('common.ApprovedValueTooLow');
  });

  it('eth/nonFungible.test.ts: Can perform burn with ApprovalForAll', async () => {
    const collectionId = await nftCollection();
    const token = await nft.mint(chain, alice, collectionId, bob.address);
    await setAllowanceForAll(bob, collectionId, charlie.address, true);
    const events = await nftAllowance.burnFrom(chain, charlie, token, bob.address);
    expect(events.find((e) => e.method === 'ItemDestroyed')?.data).toMatchObject({ collectionId, tokenId: token.tokenId, owner: bob.address });
    expect(await nftToken(chain, token)).toBeUndefined();
  });

  it('eth/reFungible.test.ts: Can perform burn with ApprovalForAll', async () => {
    const collectionId = await rftCollection();
    const token = await rft.mint(chain, alice, collectionId, 100n, bob.address);
    await setAllowanceForAll(bob, collectionId, charlie.address, true);
    await rft.burnFrom(chain, charlie, token, bob.address, 100n);
    expect(await chain.rftTotalPieces(collectionId, token.tokenId)).toBeNull();
  });

  it('eth/reFungible.test.ts: Can perform burn with approve and approvalForAll', async () => {
    const collectionId = await rftCollection();
    const token = await rft.mint(chain, alice, collectionId, 100n, bob.address);
    await rft.approve(chain, bob, token, charlie.address, 15n);
    await setAllowanceForAll(bob, collectionId, charlie.address, true);
    await rft.burnFrom(chain, charlie, token, bob.address, 10n);
    // An allowance that covers the amount is spent first, as check_allowed does.
    expect(await chain.rftAllowance(collectionId, token.tokenId, bob.address, charlie.address)).toBe(5n);
    // One it does not cover stays as it is: the operator right moves the rest.
    await rft.transferFrom(chain, charlie, token, bob.address, dave.address, 30n);
    expect(await chain.rftAllowance(collectionId, token.tokenId, bob.address, charlie.address)).toBe(5n);
    expect(await chain.rftBalance(collectionId, token.tokenId, dave.address)).toBe(30n);
    await setAllowanceForAll(bob, collectionId, charlie.address, false);
    expect(await failure(rft.transferFrom(chain, charlie, token, bob.address, dave.address, 30n))).toBe('common.ApprovedValueTooLow');
  });
});
