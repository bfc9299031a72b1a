// The real @unique-nft/sdk 0.7.7 `refungible.*` methods against the Node host, signing locally:
// every method, with the real service's paths, bodies, `parsed` results and errors.
import type Sdk from '@unique-nft/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../server/host';
import { ALICE, BOB, CHARLIE, generic, http, isError, startSdkHost } from './support';

const errorOf = (result: unknown) => (result as { error?: { details?: { section?: string; name?: string } } }).error;

let host: RunningHost;
let alice: Sdk;
let bob: Sdk;

beforeAll(async () => ({ host, alice, bob } = await startSdkHost()));
afterAll(() => host?.stop());

async function newRefungible(): Promise<number> {
  const result = await alice.refungible.createCollection.submitWaitResult({ address: ALICE, name: 'Art', description: 'Shared art', tokenPrefix: 'ART' });
  expect(isError(result)).toBe(false);
  return result.parsed!.collectionId;
}

async function newToken(collectionId: number, amount: number, owner = ALICE): Promise<number> {
  const result = await alice.refungible.createToken.submitWaitResult({ address: ALICE, collectionId, owner, amount, data: { name: { _: 'Piece' } } } as never);
  expect(isError(result)).toBe(false);
  return result.parsed!.tokenId;
}

describe('sdk.refungible', () => {
  it('createCollection and getCollection', async () => {
    const collectionId = await newRefungible();
    const collection = await alice.refungible.getCollection({ collectionId });
    expect(collection).toMatchObject({ id: collectionId, owner: ALICE, mode: 'ReFungible', name: 'Art', tokenPrefix: 'ART' });
    expect(await alice.refungible.getCollection({ collectionId: 999_999 })).toBeNull();
  });

  it('createToken, getBalance, totalPieces and accountTokens; the token reads back with its data', async () => {
    const collectionId = await newRefungible();
    const created = await alice.refungible.createToken.submitWaitResult({ address: ALICE, collectionId, amount: 100, data: { name: { _: 'Piece' } } } as never);
    expect(isError(created)).toBe(false);
    const tokenId = created.parsed!.tokenId;
    expect(created.parsed).toEqual({ collectionId, tokenId, owner: ALICE, amount: 100 });
    expect(await alice.refungible.getBalance({ collectionId, tokenId, address: ALICE })).toEqual({ collectionId, tokenId, amount: 100 });
    expect(await alice.refungible.totalPieces({ collectionId, tokenId })).toEqual({ collectionId, tokenId, amount: 100 });
    const second = await newToken(collectionId, 1);
    expect(await alice.refungible.accountTokens({ collectionId, address: ALICE })).toEqual({
      tokens: [
        { collectionId, tokenId, amount: 100 },
        { collectionId, tokenId: second, amount: 1 }
      ]
    });
    const token = await alice.token.get({ collectionId, tokenId });
    expect(token).toMatchObject({ collectionId, tokenId, owner: ALICE, name: { _: 'Piece' } });
    await expect(alice.refungible.totalPieces({ collectionId, tokenId: 999 })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('transferToken splits a token: its owner reads 0xff…ff and its topmost owner null while the pieces are spread', async () => {
    const collectionId = await newRefungible();
    const tokenId = await newToken(collectionId, 10);
    const moved = await alice.refungible.transferToken.submitWaitResult({ address: ALICE, to: BOB, collectionId, tokenId, amount: 4 });
    expect(isError(moved)).toBe(false);
    expect(moved.parsed).toEqual({ collectionId, tokenId, from: ALICE, to: BOB, amount: 4 });
    expect((await alice.refungible.getBalance({ collectionId, tokenId, address: BOB })).amount).toBe(4);
    expect((await alice.token.owner({ collectionId, tokenId }))?.owner).toBe('0xffffffffffffffffffffffffffffffffffffffff');
    expect(await alice.token.topmostOwner({ collectionId, tokenId })).toEqual({ topmostOwner: null });
    const tooMuch = await alice.refungible.transferToken.submitWaitResult({ address: ALICE, to: BOB, collectionId, tokenId, amount: 7 });
    expect(errorOf(tooMuch)?.details).toMatchObject({ section: 'common', name: 'TokenValueTooLow' });
    const back = await bob.refungible.transferToken.submitWaitResult({ address: BOB, to: ALICE, collectionId, tokenId, amount: 4 });
    expect(isError(back)).toBe(false);
    expect((await alice.token.owner({ collectionId, tokenId }))?.owner).toBe(ALICE);
    expect(await alice.token.topmostOwner({ collectionId, tokenId })).toEqual({ topmostOwner: ALICE });
  });

  it('token.nest and token.unnest move a ReFungible token\'s pieces (`value`, the specification\'s nest row)', async () => {
    const nft = await alice.collection.create.submitWaitResult({ address: ALICE, name: 'Boxes', description: 'b', tokenPrefix: 'BOX', permissions: { nesting: { tokenOwner: true } } } as never);
    const parents = nft.parsed!.collectionId;
    const box = async () => (await alice.token.create.submitWaitResult({ address: ALICE, collectionId: parents } as never)).parsed!.tokenId;
    const [first, second] = [await box(), await box()];
    const collectionId = await newRefungible();
    const tokenId = await newToken(collectionId, 10);
    const nested = { collectionId, tokenId };
    const nest = (parent: number, value: number) => alice.token.nest.submitWaitResult({ address: ALICE, parent: { collectionId: parents, tokenId: parent }, nested, value } as never);
    const into = await nest(first, 3);
    expect(isError(into)).toBe(false);
    expect(into.parsed).toMatchObject(nested);
    expect((await alice.refungible.getBalance({ collectionId, tokenId, address: ALICE })).amount).toBe(7);
    expect((await alice.token.children({ collectionId: parents, tokenId: first })).children).toEqual([nested]);
    expect(isError(await nest(second, 2))).toBe(false);
    // Pieces under two tokens: the unnest must say which.
    await expect(alice.token.unnest.submitWaitResult({ address: ALICE, nested, value: 1 } as never)).rejects.toMatchObject({ name: 'ValidationError' });
    const out = await alice.token.unnest.submitWaitResult({ address: ALICE, nested, value: 3, parent: { collectionId: parents, tokenId: first } } as never);
    expect(isError(out)).toBe(false);
    expect((await alice.refungible.getBalance({ collectionId, tokenId, address: ALICE })).amount).toBe(8);
    await expect(alice.token.unnest.submitWaitResult({ address: ALICE, nested, parent: { collectionId: parents, tokenId: first } } as never)).rejects.toMatchObject({
      message: expect.stringMatching(/not nested under token/)
    });
    // One parent left with pieces: it is looked up.
    expect(isError(await alice.token.unnest.submitWaitResult({ address: ALICE, nested, value: 2 } as never))).toBe(false);
    expect((await alice.refungible.getBalance({ collectionId, tokenId, address: ALICE })).amount).toBe(10);
    await expect(alice.token.unnest.submitWaitResult({ address: ALICE, nested } as never)).rejects.toMatchObject({ name: 'ValidationError', message: expect.stringMatching(/Token is not nested/) });
  });

  it('approveToken, allowanceToken and a spender’s transferToken with from', async () => {
    const collectionId = await newRefungible();
    const tokenId = await newToken(collectionId, 10);
    const approved = await alice.refungible.approveToken.submitWaitResult({ address: ALICE, spender: BOB, collectionId, tokenId, amount: 5 });
    expect(approved.parsed).toEqual({ collectionId, tokenId, amount: 5 });
    expect(await alice.refungible.allowanceToken({ collectionId, tokenId, from: ALICE, to: BOB })).toEqual({ amount: 5 });
    const spent = await bob.refungible.transferToken.submitWaitResult({ address: BOB, from: ALICE, to: CHARLIE, collectionId, tokenId, amount: 3 });
    expect(spent.parsed).toEqual({ collectionId, tokenId, from: ALICE, to: CHARLIE, amount: 3 });
    expect(await alice.refungible.allowanceToken({ collectionId, tokenId, from: ALICE, to: BOB })).toEqual({ amount: 2 });
    const beyond = await bob.refungible.transferToken.submitWaitResult({ address: BOB, from: ALICE, to: BOB, collectionId, tokenId, amount: 3 });
    expect(errorOf(beyond)?.details).toMatchObject({ section: 'common', name: 'ApprovedValueTooLow' });
  });

  it('repartitionToken: only the holder of every piece', async () => {
    const collectionId = await newRefungible();
    const tokenId = await newToken(collectionId, 10);
    const split = await alice.refungible.repartitionToken.submitWaitResult({ address: ALICE, collectionId, tokenId, amount: 25 });
    expect(isError(split)).toBe(false);
    expect(split.parsed).toEqual({ success: true });
    expect((await alice.refungible.totalPieces({ collectionId, tokenId })).amount).toBe(25);
    await alice.refungible.transferToken.submitWaitResult({ address: ALICE, to: BOB, collectionId, tokenId, amount: 1 });
    const refused = await alice.refungible.repartitionToken.submitWaitResult({ address: ALICE, collectionId, tokenId, amount: 5 });
    expect(errorOf(refused)?.details).toMatchObject({ section: 'refungible', name: 'RepartitionWhileNotOwningAllPieces' });
  });

  it('burn: some pieces, then the last ones destroy the token', async () => {
    const collectionId = await newRefungible();
    const tokenId = await newToken(collectionId, 10);
    const some = await alice.refungible.burn.submitWaitResult({ address: ALICE, collectionId, tokenId, amount: 4 });
    expect(isError(some)).toBe(false);
    expect(some.parsed).toEqual({ address: ALICE, collectionId, tokenId, amount: 4 });
    const rest = await alice.refungible.burn.submitWaitResult({ address: ALICE, collectionId, tokenId, amount: 6 });
    expect(rest.parsed).toEqual({ address: ALICE, collectionId, tokenId, amount: 6 });
    expect((await alice.token.exists({ collectionId, tokenId })).isExists).toBe(false);
    expect(await alice.refungible.accountTokens({ collectionId, address: ALICE })).toEqual({ tokens: [] });
  });

  it('errors of a bad request: another mode, a missing token, bad pieces', async () => {
    const collectionId = await newRefungible();
    const nft = await alice.collection.create.submitWaitResult({ address: ALICE, name: 'N', description: 'd', tokenPrefix: 'N' });
    const nftId = nft.parsed!.collectionId;
    await expect(alice.refungible.getCollection({ collectionId: nftId })).rejects.toMatchObject({ name: 'ValidationError', message: `Collection ${nftId} is NFT, not ReFungible` });
    await expect(alice.refungible.transferToken.build({ address: ALICE, to: BOB, collectionId, tokenId: 77 })).rejects.toMatchObject({ name: 'NotFoundError' });
    await expect(alice.refungible.createToken.build({ address: ALICE, collectionId, amount: 1.5 } as never)).rejects.toMatchObject({ name: 'ValidationError' });
    const tooMany = await alice.refungible.createToken.submitWaitResult({ address: ALICE, collectionId, amount: 1e22 } as never).catch((e) => e);
    expect(tooMany).toMatchObject({ name: 'ValidationError' });
    // The NFT token routes name the mode of a ReFungible collection.
    const tokenId = await newToken(collectionId, 2);
    const asNft = await http(host, 'PATCH', '/tokens/transfer', { address: ALICE, collectionId, tokenId, to: BOB });
    expect(asNft.status).toBe(400);
  });
});

describe('sdk.extrinsic: ReFungible mints whose pieces are in lists', () => {
  const permission = { key: 'k', permission: { mutable: false, collectionAdmin: true, tokenOwner: false } };

  async function listsCollection(): Promise<number> {
    const result = await alice.refungible.createCollection.submitWaitResult({ address: ALICE, name: 'Lists', description: 'd', tokenPrefix: 'LST', tokenPropertyPermissions: [permission] } as never);
    expect(isError(result)).toBe(false);
    return result.parsed!.collectionId;
  }

  it('createMultipleItemsEx: one token with pieces per owner (RefungibleMultipleOwners), and tokens with properties per item (RefungibleMultipleItems)', async () => {
    const collectionId = await listsCollection();
    const shared = await alice.extrinsic.submitWaitResult({
      address: ALICE,
      ...generic('unique', 'createMultipleItemsEx', {
        collectionId,
        kind: 'RefungibleMultipleOwners',
        items: [
          { owner: ALICE, properties: [], amount: 1 },
          { owner: BOB, properties: [], amount: '2' }
        ],
        properties: [{ key: 'k', value: 'shared' }]
      })
    });
    expect(isError(shared)).toBe(false);
    const tokenId = shared.parsed!.tokenId as number;
    expect(await alice.refungible.getBalance({ collectionId, tokenId, address: ALICE })).toEqual({ collectionId, tokenId, amount: 1 });
    expect(await alice.refungible.getBalance({ collectionId, tokenId, address: BOB })).toEqual({ collectionId, tokenId, amount: 2 });
    expect(await alice.refungible.totalPieces({ collectionId, tokenId })).toEqual({ collectionId, tokenId, amount: 3 });
    expect((await alice.token.properties({ collectionId, tokenId })).properties).toEqual([expect.objectContaining({ key: 'k', value: 'shared' })]);

    const several = await alice.extrinsic.submitWaitResult({
      address: ALICE,
      ...generic('unique', 'createMultipleItemsEx', {
        collectionId,
        kind: 'ReFungible',
        items: [
          { owner: CHARLIE, properties: [{ key: 'k', value: 'v1' }], amount: 10 },
          { owner: BOB, properties: [{ key: 'k', value: 'v2' }], amount: '1000000000000000000000' }
        ]
      })
    });
    expect(isError(several)).toBe(false);
    expect(await alice.refungible.getBalance({ collectionId, tokenId: tokenId + 1, address: CHARLIE })).toEqual({ collectionId, tokenId: tokenId + 1, amount: 10 });
    expect(await alice.refungible.totalPieces({ collectionId, tokenId: tokenId + 2 })).toEqual({ collectionId, tokenId: tokenId + 2, amount: 1e21 });
    expect((await alice.token.properties({ collectionId, tokenId: tokenId + 2 })).properties).toEqual([expect.objectContaining({ key: 'k', value: 'v2' })]);
  });

  it('createMultipleItems for one owner; a regular user’s fails with common.PublicMintingNotAllowed; mixed item types in an NFT collection fail with the nonfungible error', async () => {
    const collectionId = await listsCollection();
    const items = [1, '2', 3].map((amount) => ({ properties: [], kind: 'ReFungible', amount }));
    const minted = await alice.extrinsic.submitWaitResult({ address: ALICE, ...generic('unique', 'createMultipleItems', { collectionId, owner: BOB, items }) });
    expect(isError(minted)).toBe(false);
    expect((await alice.refungible.accountTokens({ collectionId, address: BOB })).tokens.map((t) => t.amount)).toEqual([1, 2, 3]);
    // createToken takes pieces as a decimal string too (its typings say number).
    const asText = await alice.refungible.createToken.submitWaitResult({ address: ALICE, collectionId, amount: '1000000000000000000000' as never } as never);
    expect(isError(asText)).toBe(false);
    expect(await alice.refungible.totalPieces({ collectionId, tokenId: asText.parsed!.tokenId })).toMatchObject({ amount: 1e21 });

    const refused = await bob.extrinsic.submitWaitResult({ address: BOB, ...generic('unique', 'createMultipleItems', { collectionId, owner: BOB, items }) });
    expect(errorOf(refused)?.details).toMatchObject({ section: 'common', name: 'PublicMintingNotAllowed' });

    const nft = await alice.collection.create.submitWaitResult({ address: ALICE, name: 'N', description: 'd', tokenPrefix: 'N' });
    const mixed = [{ properties: [] }, { properties: [], kind: 'Fungible', amount: 0 }, { properties: [], kind: 'ReFungible', amount: 0 }];
    const wrong = await alice.extrinsic.submitWaitResult({ address: ALICE, ...generic('unique', 'createMultipleItems', { collectionId: nft.parsed!.collectionId, owner: ALICE, items: mixed }) });
    expect(errorOf(wrong)?.details).toMatchObject({ section: 'nonfungible', name: 'NotNonfungibleDataUsedToMintFungibleCollectionToken' });
  });

  it('a token property value over 32,768 bytes builds, and under the spec rules is a dispatch error (fee charged; --rules unique refuses it before inclusion)', async () => {
    const collectionId = await listsCollection();
    const before = await alice.balance.get({ address: ALICE });
    const result = await alice.extrinsic.submitWaitResult({
      address: ALICE,
      ...generic('unique', 'createMultipleItemsEx', {
        collectionId,
        kind: 'RefungibleMultipleOwners',
        items: [{ owner: ALICE, properties: [], amount: 1 }],
        properties: [{ key: 'k', value: 'A'.repeat(32_769) }]
      })
    });
    expect(isError(result)).toBe(true);
    expect(errorOf(result)?.details).toMatchObject({ section: 'common', name: 'NoSpaceForProperty' });
    expect(BigInt((await alice.balance.get({ address: ALICE })).availableBalance.raw)).toBeLessThan(BigInt(before.availableBalance.raw));
  });
});
