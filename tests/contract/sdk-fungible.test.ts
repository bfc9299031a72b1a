// The real @unique-nft/sdk 0.7.7 `fungible.*` methods against the Node host, signing locally:
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

async function newFungible(decimals = 2, tokenPrefix = 'GLD'): Promise<number> {
  const result = await alice.fungible.createCollection.submitWaitResult({ address: ALICE, name: 'Gold', description: 'A fungible', tokenPrefix, decimals });
  expect(isError(result)).toBe(false);
  return result.parsed!.collectionId;
}

describe('sdk.fungible', () => {
  it('createCollection and getCollection: a Fungible collection with its decimals', async () => {
    const collectionId = await newFungible(2);
    const collection = await alice.fungible.getCollection({ collectionId });
    expect(collection).toMatchObject({ id: collectionId, owner: ALICE, mode: 'Fungible', decimals: 2, name: 'Gold', tokenPrefix: 'GLD' });
    expect(await alice.fungible.getCollection({ collectionId: 999_999 })).toBeNull();
  });

  it('addTokens, getBalance and totalPieces: amounts in whole units of the collection', async () => {
    const collectionId = await newFungible(2);
    const minted = await alice.fungible.addTokens.submitWaitResult({ address: ALICE, collectionId, amount: 10.5 });
    expect(isError(minted)).toBe(false);
    expect(minted.parsed).toEqual({ collectionId, recipient: ALICE, amount: 10.5 });
    const toBob = await alice.fungible.addTokens.submitWaitResult({ address: ALICE, recipient: BOB, collectionId, amount: 0.05 });
    expect(toBob.parsed).toEqual({ collectionId, recipient: BOB, amount: 0.05 });
    expect(await alice.fungible.getBalance({ collectionId, address: ALICE })).toMatchObject({ raw: '1050', amount: '10.5', unit: 'GLD', decimals: 2 });
    expect(await alice.fungible.getBalance({ collectionId, address: BOB })).toMatchObject({ raw: '5', amount: '0.05' });
    expect(await alice.fungible.getBalance({ collectionId, address: CHARLIE })).toMatchObject({ raw: '0', amount: '0' });
    expect(await alice.fungible.totalPieces({ collectionId })).toEqual({ collectionId, amount: 10.55 });
  });

  it('transferTokens moves an amount; a transfer beyond the balance fails with common.TokenValueTooLow', async () => {
    const collectionId = await newFungible(3);
    await alice.fungible.addTokens.submitWaitResult({ address: ALICE, collectionId, amount: 5 });
    const moved = await alice.fungible.transferTokens.submitWaitResult({ address: ALICE, recipient: BOB, collectionId, amount: 1.25 });
    expect(isError(moved)).toBe(false);
    expect(moved.parsed).toEqual({ collectionId, sender: ALICE, recipient: BOB, amount: 1.25 });
    expect((await alice.fungible.getBalance({ collectionId, address: ALICE })).amount).toBe('3.75');
    expect((await alice.fungible.getBalance({ collectionId, address: BOB })).raw).toBe('1250');

    const tooMuch = await alice.fungible.transferTokens.submitWaitResult({ address: ALICE, recipient: BOB, collectionId, amount: 4 });
    expect(isError(tooMuch)).toBe(true);
    expect(errorOf(tooMuch)?.details).toMatchObject({ section: 'common', name: 'TokenValueTooLow' });
    expect((await alice.fungible.getBalance({ collectionId, address: ALICE })).amount).toBe('3.75');
  });

  it('approveTokens, allowanceTokens and a spender’s transferTokens with from', async () => {
    const collectionId = await newFungible(0, 'CNT');
    await alice.fungible.addTokens.submitWaitResult({ address: ALICE, collectionId, amount: 100 });
    const approved = await alice.fungible.approveTokens.submitWaitResult({ address: ALICE, spender: BOB, collectionId, amount: 60 });
    expect(approved.parsed).toEqual({ collectionId, amount: 60 });
    expect(await alice.fungible.allowanceTokens({ collectionId, from: ALICE, to: BOB })).toMatchObject({ raw: '60', amount: '60', unit: 'CNT', decimals: 0 });

    const spent = await bob.fungible.transferTokens.submitWaitResult({ address: BOB, from: ALICE, recipient: CHARLIE, collectionId, amount: 20 });
    expect(spent.parsed).toEqual({ collectionId, sender: ALICE, recipient: CHARLIE, amount: 20 });
    expect((await alice.fungible.allowanceTokens({ collectionId, from: ALICE, to: BOB })).raw).toBe('40');

    const beyond = await bob.fungible.transferTokens.submitWaitResult({ address: BOB, from: ALICE, recipient: BOB, collectionId, amount: 41 });
    expect(errorOf(beyond)?.details).toMatchObject({ section: 'common', name: 'ApprovedValueTooLow' });
    // Bob holds none and is no admin: he cannot approve more than he holds.
    const overOwned = await bob.fungible.approveTokens.submitWaitResult({ address: BOB, spender: ALICE, collectionId, amount: 1 });
    expect(errorOf(overOwned)?.details).toMatchObject({ section: 'common', name: 'CantApproveMoreThanOwned' });
  });

  it('burn: own balance, and a spender burns from an owner within its allowance', async () => {
    const collectionId = await newFungible(2);
    await alice.fungible.addTokens.submitWaitResult({ address: ALICE, collectionId, amount: 3 });
    const burnt = await alice.fungible.burn.submitWaitResult({ address: ALICE, collectionId, amount: 0.5 });
    expect(isError(burnt)).toBe(false);
    expect(burnt.parsed).toEqual({ address: ALICE, collectionId, amount: 0.5 });
    await alice.fungible.approveTokens.submitWaitResult({ address: ALICE, spender: BOB, collectionId, amount: 1 });
    const burntFrom = await bob.fungible.burn.submitWaitResult({ address: BOB, from: ALICE, collectionId, amount: 1 });
    expect(burntFrom.parsed).toEqual({ address: ALICE, collectionId, amount: 1 });
    expect(await alice.fungible.totalPieces({ collectionId })).toEqual({ collectionId, amount: 1.5 });
    expect((await alice.fungible.allowanceTokens({ collectionId, from: ALICE, to: BOB })).raw).toBe('0');
  });

  it('transfer: native tokens, as balance.transfer', async () => {
    const fresh = '5DfhGyQdFobKM8NsWvEeAKk5EQQgYe9AydgJ7rMB6E1EqRzV';
    const result = await alice.fungible.transfer.submitWaitResult({ address: ALICE, destination: fresh, amount: 2 });
    expect(isError(result)).toBe(false);
    expect(result.parsed).toMatchObject({ from: ALICE, to: fresh });
    expect((await alice.balance.get({ address: fresh })).freeBalance.amount).toBe('2');
  });

  it('build, getFee and the errors of a bad request', async () => {
    const collectionId = await newFungible(2);
    const built = await alice.fungible.addTokens.build({ address: ALICE, collectionId, amount: 1 });
    expect(built.signerPayloadJSON.address).toBe(ALICE);
    const fee = await alice.fungible.addTokens.getFee({ address: ALICE, collectionId, amount: 1 });
    expect(Number(fee.fee.amount)).toBeGreaterThan(0);
    await expect(alice.fungible.addTokens.build({ address: ALICE, collectionId, amount: 0.001 })).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(alice.fungible.addTokens.build({ address: ALICE, collectionId: 999_999, amount: 1 })).rejects.toMatchObject({ name: 'CollectionNotFoundError' });
    const nft = await alice.collection.create.submitWaitResult({ address: ALICE, name: 'N', description: 'd', tokenPrefix: 'N' });
    const nftId = nft.parsed!.collectionId;
    await expect(alice.fungible.getCollection({ collectionId: nftId })).rejects.toMatchObject({ name: 'ValidationError', message: `Collection ${nftId} is NFT, not Fungible` });
    await expect(alice.fungible.getBalance({ collectionId: 999_999, address: ALICE })).rejects.toMatchObject({ name: 'CollectionNotFoundError' });
    // The NFT token routes name the mode of a Fungible collection.
    const asNft = await http(host, 'PATCH', '/tokens/transfer', { address: ALICE, collectionId, tokenId: 1, to: BOB });
    expect(asNft.status).toBe(400);
  });
});
