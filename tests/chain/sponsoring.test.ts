// The chain's sponsoring integration tests (js-packages/tests of UniqueNetwork/unique-chain:
// confirmSponsorship.test.ts, setCollectionSponsor.test.ts, removeCollectionSponsor.test.ts,
// nextSponsoring.test.ts and limits.test.ts "Collection zero limits"), ported to the ledger under
// `--rules unique`. Each test is named after its source file and title.
//
// Not ported:
// - confirmSponsorship.test.ts "NFT/Fungible: Transfer fees are paid by the sponsor after
//   confirmation" and "(!negative test!) Transfer fees are not paid by the sponsor if the transfer
//   failed": already in rules.test.ts (the ReFungible one is here).
// - limits.test.ts "Collection zero limits (NFT)": in nft.test.ts. "Sponsor timeout (...)"
//   describes: describe.skip upstream (they need a chain built with special limits).
// - nextSponsoring.test.ts step "Non-existing collection": the chain's RPC answers null; the REST
//   API answers 404 CollectionNotFoundError there (the SDK's contract), asserted as such.
import { beforeEach, describe, expect, it } from 'vitest';
import { createHandler } from '../../src/lib/api/handler';
import type { Address } from '../../src/lib/ledger/types';
import { Chain, alice, bob, charlie, collectionOf, failure, freeBalance, freshAccount, ft, nft, refusedBeforeInclusion, rft } from './kit';
import type { Account } from './kit';

let chain: Chain;
beforeEach(async () => {
  chain = await Chain.start();
});

const NON_EXISTENT_COLLECTION_ID = 4_294_967_295;
type Mode = 'NFT' | 'Fungible' | 'ReFungible';
const collectionOfMode = (mode: Mode, extra: Record<string, unknown> = {}) => chain.createCollection(alice, { mode, name: 'col', description: 'descr', tokenPrefix: 'COL', ...extra });
const setSponsor = (signer: Account, collectionId: number, sponsor: Address) => chain.ok(signer, 'unique.setCollectionSponsor', { collectionId, newSponsor: sponsor });
const confirm = (signer: Account, collectionId: number) => chain.ok(signer, 'unique.confirmSponsorship', { collectionId });
const removeSponsor = (signer: Account, collectionId: number) => chain.ok(signer, 'unique.removeCollectionSponsor', { collectionId });
const sponsorship = async (collectionId: number) => (await collectionOf(chain, collectionId))?.sponsorship ?? null;
const INABILITY_TO_PAY = /Inability to pay some fees/;

/** confirmSponsorship.test.ts `setSponsorHelper`: the collection's sponsorship is Unconfirmed(sponsor). */
async function setSponsorHelper(collectionId: number, signer: Account, sponsor: Address) {
  await setSponsor(signer, collectionId, sponsor);
  expect(await sponsorship(collectionId)).toEqual({ address: sponsor, isConfirmed: false });
}

/** confirmSponsorship.test.ts `confirmSponsorHelper`: the collection's sponsorship is Confirmed(signer). */
async function confirmSponsorHelper(collectionId: number, signer: Account) {
  await confirm(signer, collectionId);
  expect(await sponsorship(collectionId)).toEqual({ address: signer.address, isConfirmed: true });
}

describe('confirmSponsorship.test.ts: integration test: ext. confirmSponsorship():', () => {
  it('confirmSponsorship.test.ts: Confirm collection sponsorship', async () => {
    const collection = await collectionOfMode('NFT');
    await setSponsorHelper(collection, alice, bob.address);
    await confirmSponsorHelper(collection, bob);
  });

  it('confirmSponsorship.test.ts: Add sponsor to a collection after the same sponsor was already added and confirmed', async () => {
    const collection = await collectionOfMode('NFT');
    await setSponsorHelper(collection, alice, bob.address);
    await confirmSponsorHelper(collection, bob);
    await setSponsorHelper(collection, alice, bob.address);
  });

  it('confirmSponsorship.test.ts: Add new sponsor to a collection after another sponsor was already added and confirmed', async () => {
    const collection = await collectionOfMode('NFT');
    await setSponsorHelper(collection, alice, bob.address);
    await confirmSponsorHelper(collection, bob);
    await setSponsorHelper(collection, alice, charlie.address);
  });

  it('confirmSponsorship.test.ts: ReFungible: Transfer fees are paid by the sponsor after confirmation', async () => {
    const zeroBalance = freshAccount('//ZeroBalance');
    const collection = await collectionOfMode('ReFungible');
    await setSponsor(alice, collection, bob.address);
    await confirm(bob, collection);
    const bobBefore = await freeBalance(chain, bob.address);
    const token = await rft.mint(chain, alice, collection, 100n, zeroBalance.address);
    await rft.transfer(chain, zeroBalance, token, alice.address, 1n);
    expect(await freeBalance(chain, bob.address)).toBeLessThan(bobBefore);
  });

  it('confirmSponsorship.test.ts: CreateItem fees are paid by the sponsor after confirmation', async () => {
    const zeroBalance = freshAccount('//ZeroBalance');
    const collection = await collectionOfMode('NFT');
    await setSponsor(alice, collection, bob.address);
    await confirm(bob, collection);
    await chain.ok(alice, 'unique.setCollectionPermissions', { collectionId: collection, permissions: { access: 'AllowList', mintMode: true } });
    await chain.ok(alice, 'unique.addToAllowList', { collectionId: collection, address: zeroBalance.address });
    const bobBefore = await freeBalance(chain, bob.address);
    await nft.mint(chain, zeroBalance, collection, zeroBalance.address);
    expect(await freeBalance(chain, bob.address)).toBeLessThan(bobBefore);
    expect(await freeBalance(chain, zeroBalance.address)).toBe(0n);
  });

  it('confirmSponsorship.test.ts: NFT: Sponsoring of transfers is rate limited', async () => {
    const zeroBalance = freshAccount('//ZeroBalance');
    const collection = await collectionOfMode('NFT', { limits: { sponsorTransferTimeout: 1000 } });
    await setSponsor(alice, collection, bob.address);
    await confirm(bob, collection);
    const token = await nft.mint(chain, alice, collection, alice.address);
    await nft.transfer(chain, alice, token, zeroBalance.address);
    const bobBefore = await freeBalance(chain, bob.address);
    const transfer = { to: alice.address, collectionId: collection, tokenId: token.tokenId, value: 1n };
    expect(await refusedBeforeInclusion(chain, zeroBalance, 'unique.transfer', transfer)).toMatch(INABILITY_TO_PAY);
    expect(await freeBalance(chain, bob.address)).toBe(bobBefore);
  });

  it('confirmSponsorship.test.ts: Fungible: Sponsoring is rate limited', async () => {
    const zeroBalance = freshAccount('//ZeroBalance');
    const collection = await collectionOfMode('Fungible', { limits: { sponsorTransferTimeout: 1000 } });
    await setSponsor(alice, collection, bob.address);
    await confirm(bob, collection);
    await ft.mint(chain, alice, collection, 100n, zeroBalance.address);
    await ft.transfer(chain, zeroBalance, collection, zeroBalance.address, 1n);
    const bobBefore = await freeBalance(chain, bob.address);
    const transfer = { to: zeroBalance.address, collectionId: collection, tokenId: 0, value: 1n };
    expect(await refusedBeforeInclusion(chain, zeroBalance, 'unique.transfer', transfer)).toMatch(INABILITY_TO_PAY);
    expect(await freeBalance(chain, bob.address)).toBe(bobBefore);
  });

  it('confirmSponsorship.test.ts: ReFungible: Sponsoring is rate limited', async () => {
    const zeroBalance = freshAccount('//ZeroBalance');
    const collection = await collectionOfMode('ReFungible', { limits: { sponsorTransferTimeout: 1000 } });
    await setSponsor(alice, collection, bob.address);
    await confirm(bob, collection);
    const token = await rft.mint(chain, alice, collection, 100n, zeroBalance.address);
    await rft.transfer(chain, zeroBalance, token, alice.address, 1n);
    const bobBefore = await freeBalance(chain, bob.address);
    const transfer = { to: alice.address, collectionId: collection, tokenId: token.tokenId, value: 1n };
    expect(await refusedBeforeInclusion(chain, zeroBalance, 'unique.transfer', transfer)).toMatch(INABILITY_TO_PAY);
    expect(await freeBalance(chain, bob.address)).toBe(bobBefore);
  });

  it('confirmSponsorship.test.ts: NFT: Sponsoring of createItem is rate limited', async () => {
    const zeroBalance = freshAccount('//ZeroBalance');
    const collection = await collectionOfMode('NFT', { limits: { sponsoredDataRateLimit: 1000, sponsorTransferTimeout: 1000 } });
    await setSponsor(alice, collection, bob.address);
    await confirm(bob, collection);
    await chain.ok(alice, 'unique.setCollectionPermissions', { collectionId: collection, permissions: { mintMode: true, access: 'AllowList' } });
    await chain.ok(alice, 'unique.addToAllowList', { collectionId: collection, address: zeroBalance.address });
    await nft.mint(chain, zeroBalance, collection, zeroBalance.address);
    const bobBefore = await freeBalance(chain, bob.address);
    const mint = { collectionId: collection, owner: zeroBalance.address, properties: [] };
    expect(await refusedBeforeInclusion(chain, zeroBalance, 'unique.createItem', mint)).toMatch(INABILITY_TO_PAY);
    expect(await freeBalance(chain, bob.address)).toBe(bobBefore);
  });
});

describe('confirmSponsorship.test.ts: (!negative test!) integration test: ext. confirmSponsorship():', () => {
  it('confirmSponsorship.test.ts: (!negative test!) Confirm sponsorship for a collection that never existed', async () => {
    expect(await failure(confirm(bob, NON_EXISTENT_COLLECTION_ID))).toBe('common.CollectionNotFound');
  });

  it('confirmSponsorship.test.ts: (!negative test!) Confirm sponsorship using a non-sponsor address', async () => {
    const collection = await collectionOfMode('NFT');
    await setSponsor(alice, collection, bob.address);
    expect(await failure(confirm(charlie, collection))).toBe('common.ConfirmSponsorshipFail');
  });

  it('confirmSponsorship.test.ts: (!negative test!) Confirm sponsorship using owner address', async () => {
    const collection = await collectionOfMode('NFT');
    await setSponsor(alice, collection, bob.address);
    expect(await failure(confirm(alice, collection))).toBe('common.ConfirmSponsorshipFail');
  });

  it('confirmSponsorship.test.ts: (!negative test!) Confirm sponsorship by collection admin', async () => {
    const collection = await collectionOfMode('NFT');
    await setSponsor(alice, collection, bob.address);
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collection, newAdmin: charlie.address });
    expect(await failure(confirm(charlie, collection))).toBe('common.ConfirmSponsorshipFail');
  });

  it('confirmSponsorship.test.ts: (!negative test!) Confirm sponsorship without sponsor being set with setCollectionSponsor', async () => {
    const collection = await collectionOfMode('NFT');
    expect(await failure(confirm(charlie, collection))).toBe('common.ConfirmSponsorshipFail');
  });

  it('confirmSponsorship.test.ts: (!negative test!) Confirm sponsorship in a collection that was destroyed', async () => {
    const collection = await collectionOfMode('NFT');
    await chain.ok(alice, 'unique.destroyCollection', { collectionId: collection });
    expect(await failure(confirm(charlie, collection))).toBe('common.CollectionNotFound');
  });
});

describe('setCollectionSponsor.test.ts: integration test: ext. setCollectionSponsor():', () => {
  for (const [title, mode] of [
    ['Set NFT collection sponsor', 'NFT'],
    ['Set Fungible collection sponsor', 'Fungible'],
    ['Set ReFungible collection sponsor', 'ReFungible']
  ] as const) {
    it(`setCollectionSponsor.test.ts: ${title}`, async () => {
      const collection = await collectionOfMode(mode);
      await setSponsor(alice, collection, bob.address);
      expect(await sponsorship(collection)).toEqual({ address: bob.address, isConfirmed: false });
    });
  }

  it('setCollectionSponsor.test.ts: Set the same sponsor repeatedly', async () => {
    const collection = await collectionOfMode('NFT');
    await setSponsor(alice, collection, bob.address);
    await setSponsor(alice, collection, bob.address);
    expect(await sponsorship(collection)).toEqual({ address: bob.address, isConfirmed: false });
  });

  it('setCollectionSponsor.test.ts: Replace collection sponsor', async () => {
    const collection = await collectionOfMode('NFT');
    await setSponsor(alice, collection, bob.address);
    await setSponsor(alice, collection, charlie.address);
    expect(await sponsorship(collection)).toEqual({ address: charlie.address, isConfirmed: false });
  });

  it('setCollectionSponsor.test.ts: Collection admin add sponsor', async () => {
    const collection = await collectionOfMode('NFT');
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collection, newAdmin: bob.address });
    await setSponsor(bob, collection, charlie.address);
    expect(await sponsorship(collection)).toEqual({ address: charlie.address, isConfirmed: false });
  });
});

describe('setCollectionSponsor.test.ts: (!negative test!) integration test: ext. setCollectionSponsor():', () => {
  it('setCollectionSponsor.test.ts: (!negative test!) Add sponsor with a non-owner', async () => {
    const collection = await collectionOfMode('NFT');
    expect(await failure(setSponsor(bob, collection, bob.address))).toBe('common.NoPermission');
  });

  it('setCollectionSponsor.test.ts: (!negative test!) Add sponsor to a collection that never existed', async () => {
    expect(await failure(setSponsor(alice, NON_EXISTENT_COLLECTION_ID, bob.address))).toBe('common.CollectionNotFound');
  });

  it('setCollectionSponsor.test.ts: (!negative test!) Add sponsor to a collection that was destroyed', async () => {
    const collection = await collectionOfMode('NFT');
    await chain.ok(alice, 'unique.destroyCollection', { collectionId: collection });
    expect(await failure(setSponsor(alice, collection, bob.address))).toBe('common.CollectionNotFound');
  });
});

describe('removeCollectionSponsor.test.ts: integration test: ext. removeCollectionSponsor():', () => {
  it('removeCollectionSponsor.test.ts: Removing NFT collection sponsor stops sponsorship', async () => {
    const collection = await collectionOfMode('NFT');
    await setSponsor(alice, collection, bob.address);
    await confirm(bob, collection);
    await removeSponsor(alice, collection);
    const zeroBalance = freshAccount('//ZeroBalance');
    const token = await nft.mint(chain, alice, collection, zeroBalance.address);
    const sponsorBefore = await freeBalance(chain, bob.address);
    const transfer = { to: alice.address, collectionId: collection, tokenId: token.tokenId, value: 1n };
    expect(await refusedBeforeInclusion(chain, zeroBalance, 'unique.transfer', transfer)).toMatch(INABILITY_TO_PAY);
    expect(await freeBalance(chain, bob.address)).toBe(sponsorBefore);
  });

  it('removeCollectionSponsor.test.ts: Remove a sponsor after it was already removed', async () => {
    const collection = await collectionOfMode('NFT');
    await setSponsor(alice, collection, bob.address);
    await confirm(bob, collection);
    await removeSponsor(alice, collection);
    await removeSponsor(alice, collection);
    expect(await sponsorship(collection)).toBeNull();
  });

  it('removeCollectionSponsor.test.ts: Remove sponsor in a collection that never had the sponsor set', async () => {
    const collection = await collectionOfMode('NFT');
    await removeSponsor(alice, collection);
    expect(await sponsorship(collection)).toBeNull();
  });

  it('removeCollectionSponsor.test.ts: Remove sponsor for a collection that had the sponsor set, but not confirmed', async () => {
    const collection = await collectionOfMode('NFT');
    await setSponsor(alice, collection, bob.address);
    await removeSponsor(alice, collection);
    expect(await sponsorship(collection)).toBeNull();
  });

  it('removeCollectionSponsor.test.ts: Remove a sponsor from a collection with collection admin permissions', async () => {
    const collection = await collectionOfMode('NFT');
    await setSponsor(alice, collection, bob.address);
    await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: collection, newAdmin: charlie.address });
    await removeSponsor(charlie, collection);
    expect(await sponsorship(collection)).toBeNull();
  });
});

describe('removeCollectionSponsor.test.ts: (!negative test!) integration test: ext. removeCollectionSponsor():', () => {
  it('removeCollectionSponsor.test.ts: (!negative test!) Remove sponsor for a collection that never existed', async () => {
    expect(await failure(removeSponsor(alice, NON_EXISTENT_COLLECTION_ID))).toBe('common.CollectionNotFound');
  });

  it('removeCollectionSponsor.test.ts: (!negative test!) Remove sponsor for a collection by regular user', async () => {
    const collection = await collectionOfMode('NFT');
    await setSponsor(alice, collection, bob.address);
    expect(await failure(removeSponsor(charlie, collection))).toBe('common.NoPermission');
  });

  it('removeCollectionSponsor.test.ts: (!negative test!) Remove sponsor in a destroyed collection', async () => {
    const collection = await collectionOfMode('NFT');
    await setSponsor(alice, collection, bob.address);
    await chain.ok(alice, 'unique.destroyCollection', { collectionId: collection });
    expect(await failure(removeSponsor(alice, collection))).toBe('common.CollectionNotFound');
  });

  it('removeCollectionSponsor.test.ts: Set - remove - confirm: fails', async () => {
    const collection = await collectionOfMode('NFT');
    await setSponsor(alice, collection, bob.address);
    await removeSponsor(alice, collection);
    expect(await failure(confirm(bob, collection))).toBe('common.ConfirmSponsorshipFail');
  });

  it('removeCollectionSponsor.test.ts: Set - confirm - remove - confirm: Sponsor cannot come back', async () => {
    const collection = await collectionOfMode('NFT');
    await setSponsor(alice, collection, bob.address);
    await confirm(bob, collection);
    await removeSponsor(alice, collection);
    expect(await failure(confirm(bob, collection))).toBe('common.ConfirmSponsorshipFail');
  });
});

describe('limits.test.ts: Collection zero limits (sponsoring)', () => {
  for (const mode of ['Fungible', 'ReFungible'] as const) {
    it(`limits.test.ts: Collection zero limits (${mode}): Limits have 0 in sponsor timeout, no limits are applied`, async () => {
      const collection = await collectionOfMode(mode);
      await chain.ok(alice, 'unique.setCollectionLimits', { collectionId: collection, limits: { sponsorTransferTimeout: 0 } });
      const token = mode === 'Fungible' ? (await ft.mint(chain, alice, collection, 3n), { collectionId: collection, tokenId: 0 }) : await rft.mint(chain, alice, collection, 3n);
      await setSponsor(alice, collection, alice.address);
      await confirm(alice, collection);
      await rft.transfer(chain, alice, token, bob.address, 2n);
      const aliceBefore = await freeBalance(chain, alice.address);
      const bobBefore = await freeBalance(chain, bob.address);
      await rft.transfer(chain, bob, token, charlie.address, 1n);
      expect(await freeBalance(chain, alice.address)).toBeLessThan(aliceBefore);
      expect(await freeBalance(chain, bob.address)).toBe(bobBefore);
    });
  }
});

describe('nextSponsoring.test.ts: Integration Test getNextSponsored(collection_id, owner, item_id):', () => {
  const SPONSORING_TIMEOUT = 5;
  /** `GET /collections/next-sponsored` of the REST API over this chain's ledger: the chain's `unique_nextSponsored`. */
  async function nextSponsored(collectionId: number, address: Address, tokenId: number): Promise<{ status: number; blockNumber?: number | null }> {
    const handler = createHandler({ ledger: chain.ledger, browserRequests: false });
    const response = await handler(new Request(`http://127.0.0.1/sandbox/v1/collections/next-sponsored?collectionId=${collectionId}&address=${address}&tokenId=${tokenId}`));
    const body = (await response.json()) as { blockNumber?: number | null };
    return { status: response.status, blockNumber: body.blockNumber };
  }
  const blocks = async (collectionId: number, address: Address, tokenId: number) => (await nextSponsored(collectionId, address, tokenId)).blockNumber;

  it('nextSponsoring.test.ts: NFT', async () => {
    expect((await nextSponsored(NON_EXISTENT_COLLECTION_ID, alice.address, 0)).status).toBe(404);
    const collection = await collectionOfMode('NFT');
    const token = await nft.mint(chain, alice, collection);
    expect(await blocks(collection, alice.address, token.tokenId)).toBeNull();
    await setSponsor(alice, collection, bob.address);
    expect(await blocks(collection, alice.address, token.tokenId)).toBeNull();
    await confirm(bob, collection);
    expect(await blocks(collection, alice.address, token.tokenId)).toBe(0);
    // The chain's `UniqueSponsorshipPredict::predict` reads the token's basket only: Alice no
    // longer holds the token, and still gets the blocks left, not null.
    await nft.transfer(chain, alice, token, bob.address);
    const afterTransfer = await blocks(collection, alice.address, token.tokenId);
    expect(afterTransfer).toBeGreaterThan(0);
    expect(afterTransfer).toBeLessThanOrEqual(SPONSORING_TIMEOUT);
    expect(await blocks(collection, alice.address, 0)).toBeNull();
  });

  it('nextSponsoring.test.ts: Fungible', async () => {
    const collection = await collectionOfMode('Fungible');
    await ft.mint(chain, alice, collection, 10n);
    expect(await blocks(collection, alice.address, 0)).toBeNull();
    await setSponsor(alice, collection, bob.address);
    await confirm(bob, collection);
    expect(await blocks(collection, alice.address, 0)).toBe(0);
    await ft.transfer(chain, alice, collection, bob.address, 1n);
    const afterTransfer = await blocks(collection, alice.address, 0);
    expect(afterTransfer).toBeGreaterThan(0);
    expect(afterTransfer).toBeLessThanOrEqual(SPONSORING_TIMEOUT);
  });

  it('nextSponsoring.test.ts: ReFungible', async () => {
    const collection = await collectionOfMode('ReFungible');
    const token = await rft.mint(chain, alice, collection, 10n);
    expect(await blocks(collection, alice.address, token.tokenId)).toBeNull();
    await setSponsor(alice, collection, bob.address);
    await confirm(bob, collection);
    expect(await blocks(collection, alice.address, token.tokenId)).toBe(0);
    await rft.transfer(chain, alice, token, bob.address, 1n);
    const afterTransfer = await blocks(collection, alice.address, token.tokenId);
    expect(afterTransfer).toBeGreaterThan(0);
    expect(afterTransfer).toBeLessThanOrEqual(SPONSORING_TIMEOUT);
    expect(await blocks(collection, alice.address, 0)).toBeNull();
  });
});
