// The chain's exact rules under `--rules unique` (issue 11, item 7): calls the runtime cannot
// decode are refused before inclusion, with nothing charged and the nonce unchanged; set/delete
// lists are plain vectors, so more than 64 entries there fail at dispatch, fee charged.
import { describe, expect, it } from 'vitest';
import { loadAccount } from '../../src/lib/ledger/balances';
import { TransactionError } from '../../src/lib/ledger/chain/errors';
import type { Call } from '../../src/lib/ledger/types';
import { alice, bob, Chain, collectionOf, ft, type Account } from './kit';
import { keyOf } from '../../src/lib/ledger/testing/chain-kit';
import { Ledger } from '../../src/lib/ledger/chain/ledger';
import { MemoryStore } from '../../src/lib/ledger/testing/memory-store';

async function accountOf(chain: Chain, address: string) {
  return chain.ledger.read((tx) => loadAccount(tx, address));
}

/** Submit `call` and expect the chain's refusal before inclusion: no fee, nonce unchanged. */
async function expectRefusedBeforeInclusion(chain: Chain, call: Call): Promise<void> {
  const before = await accountOf(chain, alice.address);
  const refusal = await chain.ledger.signAndSubmit(alice.address, call, keyOf(alice.seed).key).then(
    () => null,
    (e: unknown) => e
  );
  expect(refusal).toBeInstanceOf(TransactionError);
  expect((refusal as TransactionError).kind).toBe('BadPayload');
  expect((refusal as TransactionError).message).toMatch(/Could not decode/);
  const after = await accountOf(chain, alice.address);
  expect(after.free).toBe(before.free);
  expect(after.nonce).toBe(before.nonce);
}

const free = async (chain: Chain, address: string) => (await accountOf(chain, address)).free;
const ownerMayWrite = [{ key: 'k', permission: { mutable: true, collectionAdmin: false, tokenOwner: true } }];

/** An NFT collection of Alice with `sponsor` confirmed. */
async function sponsoredCollection(chain: Chain, sponsor: Account, tokenPropertyPermissions = ownerMayWrite): Promise<number> {
  const collectionId = await chain.createCollection(alice, { mode: 'NFT', tokenPropertyPermissions });
  await chain.ok(alice, 'unique.setCollectionSponsor', { collectionId, newSponsor: sponsor.address });
  await chain.ok(sponsor, 'unique.confirmSponsorship', { collectionId });
  return collectionId;
}

const properties = (n: number, value = 'v') => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value }));

describe('bounded vectors the chain cannot decode', () => {
  it('sub/nesting/collectionProperties.test.ts: Fails to set more properties than it is allowed', async () => {
    const chain = await Chain.start();
    const collectionId = await chain.createCollection(alice, { mode: 'NFT' });
    const before = await accountOf(chain, alice.address);
    const record = await chain.submit(alice, 'unique.setCollectionProperties', { collectionId, properties: properties(65) });
    expect(record.error).toMatchObject({ section: 'common', name: 'PropertyLimitReached' });
    const after = await accountOf(chain, alice.address);
    expect(after.nonce).toBe(before.nonce + 1);
    expect(after.free).toBeLessThan(before.free);
    expect((await collectionOf(chain, collectionId))?.properties).toEqual([]);
  });

  it('refuses more than 64 properties in creation data before inclusion (CollectionPropertiesVec)', async () => {
    const chain = await Chain.start();
    const collectionId = await chain.createCollection(alice, { mode: 'NFT' });
    await expectRefusedBeforeInclusion(chain, { name: 'unique.createItem', args: { collectionId, owner: alice.address, properties: properties(65) } });
  });

  it('includes 65 token property keys to delete and fails them at dispatch, fee charged', async () => {
    const chain = await Chain.start();
    const collectionId = await chain.createCollection(alice, { mode: 'NFT' });
    await chain.ok(alice, 'unique.createItem', { collectionId, owner: alice.address, properties: [] });
    const before = await accountOf(chain, alice.address);
    const keys = properties(65).map((p) => p.key);
    const record = await chain.submit(alice, 'unique.deleteTokenProperties', { collectionId, tokenId: 1, propertyKeys: keys });
    expect(record.error).toMatchObject({ section: 'common', name: 'PropertyLimitReached' });
    expect((await accountOf(chain, alice.address)).free).toBeLessThan(before.free);
  });

  it('tokenProperties.test.ts: Fails to set a property key over 256 bytes', async () => {
    const chain = await Chain.start();
    const collectionId = await chain.createCollection(alice, { mode: 'NFT' });
    await expectRefusedBeforeInclusion(chain, {
      name: 'unique.createItem',
      args: { collectionId, owner: alice.address, properties: [{ key: 'k'.repeat(257), value: 'v' }] }
    });
  });

  it('collectionProperties.test.ts: Fails to set a property value over 32768 bytes', async () => {
    const chain = await Chain.start();
    const collectionId = await chain.createCollection(alice, { mode: 'NFT' });
    await expectRefusedBeforeInclusion(chain, { name: 'unique.setCollectionProperties', args: { collectionId, properties: [{ key: 'k', value: 'v'.repeat(32_769) }] } });
  });

  it('accepts the bounds themselves: 64 properties, a 256-byte key', async () => {
    const chain = await Chain.start();
    const collectionId = await chain.createCollection(alice, { mode: 'NFT' });
    await chain.ok(alice, 'unique.setCollectionProperties', { collectionId, properties: properties(64) });
    const other = await chain.createCollection(alice, { mode: 'NFT' });
    await chain.ok(alice, 'unique.setCollectionProperties', { collectionId: other, properties: [{ key: 'k'.repeat(256), value: 'v' }] });
  });
});

describe('spec rules keep the bounds at dispatch', () => {
  it('includes and charges a call over the bounds, with a dispatch error', async () => {
    const ledger = await Ledger.open({ store: new MemoryStore(), rules: 'spec', blockMode: { kind: 'instant' }, soleWriter: true });
    const key = keyOf(alice.seed).key;
    const created = await ledger.signAndSubmit(alice.address, { name: 'unique.createCollectionEx', args: { data: { mode: 'NFT', decimals: 0, name: 't', description: 't', tokenPrefix: 't', tokenPropertyPermissions: [], properties: [], adminList: [] } } }, key);
    const collectionId = (await created.included).events.find((e) => e.method === 'CollectionCreated')!.data.collectionId as number;
    const before = await ledger.read((tx) => loadAccount(tx, alice.address));
    const submitted = await ledger.signAndSubmit(alice.address, { name: 'unique.setCollectionProperties', args: { collectionId, properties: properties(65) } }, key);
    expect((await submitted.included).isError).toBe(true);
    const after = await ledger.read((tx) => loadAccount(tx, alice.address));
    expect(after.nonce).toBe(before.nonce + 1);
    expect(after.free).toBeLessThan(before.free);
  });
});

describe('sponsoring as runtime/common/sponsoring.rs', () => {

  it('tokenProperties.test.ts: Set sponsored properties', async () => {
    const chain = await Chain.start();
    const collectionId = await sponsoredCollection(chain, alice);
    await chain.ok(alice, 'unique.setCollectionLimits', { collectionId, limits: { sponsoredDataRateLimit: 30 } });
    await chain.ok(alice, 'unique.createItem', { collectionId, owner: bob.address, properties: [] });
    const [aliceBefore, bobBefore] = [await free(chain, alice.address), await free(chain, bob.address)];
    await chain.ok(bob, 'unique.setTokenProperties', { collectionId, tokenId: 1, properties: [{ key: 'k', value: 'val' }] });
    expect(await free(chain, bob.address)).toBe(bobBefore);
    expect(await free(chain, alice.address)).toBeLessThan(aliceBefore);
    // Within the rate limit the owner pays again.
    await chain.ok(bob, 'unique.setTokenProperties', { collectionId, tokenId: 1, properties: [{ key: 'k', value: 'val2' }] });
    expect(await free(chain, bob.address)).toBeLessThan(bobBefore);
  });

  it('sets token properties at the owner’s cost without a sponsoredDataRateLimit', async () => {
    const chain = await Chain.start();
    const collectionId = await sponsoredCollection(chain, alice);
    await chain.ok(alice, 'unique.createItem', { collectionId, owner: bob.address, properties: [] });
    const bobBefore = await free(chain, bob.address);
    await chain.ok(bob, 'unique.setTokenProperties', { collectionId, tokenId: 1, properties: [{ key: 'k', value: 'val' }] });
    expect(await free(chain, bob.address)).toBeLessThan(bobBefore);
  });

  it('confirmSponsorship.test.ts: (!negative test!) Transfer fees are not paid by the sponsor if the transfer failed', async () => {
    const chain = await Chain.start();
    const collectionId = await sponsoredCollection(chain, bob, []);
    const ownerZeroBalance = keyOf('//OwnerZeroBalance');
    const senderZeroBalance = keyOf('//SenderZeroBalance');
    await chain.ok(alice, 'unique.createItem', { collectionId, owner: ownerZeroBalance.address, properties: [] });
    const sponsorBefore = await free(chain, bob.address);
    const refusal = await chain.ledger
      .signAndSubmit(senderZeroBalance.address, { name: 'unique.transfer', args: { to: alice.address, collectionId, tokenId: 1, value: 1n } }, senderZeroBalance.key)
      .then(() => null, (e: unknown) => e);
    expect((refusal as Error).message).toMatch(/Inability to pay some fees/);
    expect(await free(chain, bob.address)).toBe(sponsorBefore);
  });

  it('confirmSponsorship.test.ts: NFT: Transfer fees are paid by the sponsor after confirmation', async () => {
    const chain = await Chain.start();
    const collectionId = await sponsoredCollection(chain, bob, []);
    const zeroBalance = { seed: '//ZeroBalance', address: keyOf('//ZeroBalance').address };
    const bobBefore = await free(chain, bob.address);
    await chain.ok(alice, 'unique.createItem', { collectionId, owner: zeroBalance.address, properties: [] });
    await chain.ok(zeroBalance, 'unique.transfer', { to: alice.address, collectionId, tokenId: 1, value: 1n });
    expect(await free(chain, bob.address)).toBeLessThan(bobBefore);
  });

  it('confirmSponsorship.test.ts: Fungible: Transfer fees are paid by the sponsor after confirmation', async () => {
    const chain = await Chain.start();
    const collectionId = await chain.createCollection(alice, { mode: 'Fungible' });
    await chain.ok(alice, 'unique.setCollectionSponsor', { collectionId, newSponsor: bob.address });
    await chain.ok(bob, 'unique.confirmSponsorship', { collectionId });
    const zeroBalance = { seed: '//ZeroBalance', address: keyOf('//ZeroBalance').address };
    const bobBefore = await free(chain, bob.address);
    await ft.mint(chain, alice, collectionId, 100n, zeroBalance.address);
    await ft.transfer(chain, zeroBalance, collectionId, alice.address, 1n);
    expect(await free(chain, bob.address)).toBeLessThan(bobBefore);
  });

  it('does not sponsor createMultipleItemsEx (the chain sponsors only create_item)', async () => {
    const chain = await Chain.start();
    const collectionId = await sponsoredCollection(chain, bob, []);
    const sponsorBefore = await free(chain, bob.address);
    await chain.ok(alice, 'unique.createMultipleItemsEx', { collectionId, items: [{ owner: alice.address, properties: [] }] });
    expect(await free(chain, bob.address)).toBe(sponsorBefore);
  });
});

describe('fees as the chain charges them', () => {
  const UNIT = 10n ** 18n;

  it('creditFeesToTreasury.seqtest.ts: NFT Transfer fee is close to 0.1 Unique', async () => {
    const chain = await Chain.start();
    const collectionId = await chain.createCollection(alice, { mode: 'NFT', name: 'test', description: 'test', tokenPrefix: 'test' });
    await chain.ok(alice, 'unique.createItem', { collectionId, owner: alice.address, properties: [] });
    const before = await free(chain, alice.address);
    await chain.ok(alice, 'unique.transfer', { to: bob.address, collectionId, tokenId: 1, value: 1n });
    const fee = Number(before - (await free(chain, alice.address))) / Number(UNIT);
    expect(Math.abs(fee - 0.1)).toBeLessThan(0.001);
  });

  it('collectionProperties.test.ts: fee should be doubled for transactions size above 2kb', async () => {
    const chain = await Chain.start();
    const collectionId = await chain.createCollection(alice, { mode: 'NFT' });
    const feeOf = async (value: string) => {
      const before = await free(chain, alice.address);
      await chain.ok(alice, 'unique.setCollectionProperties', { collectionId, properties: [{ key: 'tok-prop', value }] });
      return before - (await free(chain, alice.address));
    };
    const smallerPropFee = await feeOf('a'.repeat(1800));
    const biggerPropFee = await feeOf('b'.repeat(2048));
    expect(biggerPropFee > (smallerPropFee * 179_426n) / 100_000n).toBe(true);
  });
});
