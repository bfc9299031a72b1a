// The real @unique-nft/sdk 0.7.7 `refungible.*` methods against the Node host, signing locally:
// every method, with the real service's paths, bodies, `parsed` results and errors.
import type Sdk from '@unique-nft/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../server/host';
import { ALICE, BOB, CHARLIE, http, isError, startSdkHost } from './support';

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
