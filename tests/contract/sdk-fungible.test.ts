// The real @unique-nft/sdk 0.7.7 `fungible.*` methods against the Node host, signing locally:
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

describe('sdk.extrinsic: Fungible mints whose amounts are in lists', () => {
  const fungibleItems = (amounts: unknown[]) => amounts.map((amount) => ({ properties: [], kind: 'Fungible', amount }));

  it('createMultipleItems and createMultipleItemsEx build, sign and mint with amounts as JSON numbers and decimal strings: balances per owner', async () => {
    const collectionId = await newFungible(0, 'LST');
    const summed = await alice.extrinsic.submitWaitResult({
      address: ALICE,
      ...generic('unique', 'createMultipleItems', { collectionId, owner: ALICE, items: fungibleItems([5, '12345678901234567890']) })
    });
    expect(isError(summed)).toBe(false);
    expect((await alice.fungible.getBalance({ collectionId, address: ALICE })).raw).toBe('12345678901234567895');

    const fee = await alice.extrinsic.getFee({
      address: ALICE,
      ...generic('unique', 'createMultipleItemsEx', { collectionId, kind: 'Fungible', items: [{ owner: BOB, properties: [], amount: 1 }] })
    });
    expect(Number(fee.amount)).toBeGreaterThan(0);
    const perOwner = await alice.extrinsic.submitWaitResult({
      address: ALICE,
      ...generic('unique', 'createMultipleItemsEx', {
        collectionId,
        kind: 'Fungible',
        items: [
          { owner: BOB, properties: [], amount: 7 },
          { owner: CHARLIE, properties: [], amount: '8' }
        ]
      })
    });
    expect(isError(perOwner)).toBe(false);
    expect((await alice.fungible.getBalance({ collectionId, address: BOB })).raw).toBe('7');
    expect((await alice.fungible.getBalance({ collectionId, address: CHARLIE })).raw).toBe('8');
    // addTokens takes an amount beyond 2^53 as a decimal string (its typings say number), exactly.
    const exact = await alice.fungible.addTokens.submitWaitResult({ address: ALICE, recipient: CHARLIE, collectionId, amount: '123456789012345678901' as never });
    expect(isError(exact)).toBe(false);
    expect((await alice.fungible.getBalance({ collectionId, address: CHARLIE })).raw).toBe('123456789012345678909');
  });

  it('a regular user’s createMultipleItems fails with common.PublicMintingNotAllowed and mints nothing', async () => {
    const collectionId = await newFungible(0, 'PUB');
    const result = await bob.extrinsic.submitWaitResult({ address: BOB, ...generic('unique', 'createMultipleItems', { collectionId, owner: BOB, items: fungibleItems([1, 2]) }) });
    expect(isError(result)).toBe(true);
    expect(errorOf(result)?.details).toMatchObject({ section: 'common', name: 'PublicMintingNotAllowed' });
    expect((await alice.fungible.getBalance({ collectionId, address: BOB })).raw).toBe('0');
  });

  it('an amount that is no u128 answers 400 in the error envelope, naming the field', async () => {
    const collectionId = await newFungible(0, 'BAD');
    for (const amount of [-1, 1.5, '1.5', '-1', '1e3', 'ten', null, { value: 1 }, '340282366920938463463374607431768211456', 2 ** 60]) {
      const res = await http(host, 'POST', '/extrinsic/build', { address: ALICE, ...generic('unique', 'createMultipleItems', { collectionId, owner: ALICE, items: fungibleItems([1, amount]) }) });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'UN01004', name: 'ValidationError' });
      expect(res.body.error.message).toContain('args.items[1].amount must be a whole number from 0 to 2^128 - 1');
    }
    const huge = await http(host, 'POST', '/extrinsic/build', { address: ALICE, ...generic('unique', 'createMultipleItems', { collectionId, owner: ALICE, items: fungibleItems(['9'.repeat(500_000)]) }) });
    expect(huge.status).toBe(400);
    expect(huge.body.error.message.length).toBeLessThan(500);
    await expect(alice.extrinsic.build({ address: ALICE, ...generic('unique', 'createMultipleItemsEx', { collectionId, kind: 'Fungible', items: [{ owner: BOB, properties: [], amount: -5 }] }) })).rejects.toMatchObject({
      name: 'ValidationError',
      message: expect.stringContaining('args.items[0].amount')
    });
  });
});
