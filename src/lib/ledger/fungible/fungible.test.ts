// Fungible collections in the ledger: the chain's rules that the ported chain tests do not reach.
import { describe, expect, it } from 'vitest';
import { ETHEREUM_ZERO } from '../constants';
import { createCollection, fundedChain, RULE_SET_NAMES } from '../collections/test-helpers';
import { ALICE, BOB, CHARLIE, DAVE, type TestChain } from '../testing/harness';
import { addr, allow, mint as mintNft } from '../tokens/fixtures';
import { fungibleAllowance, fungibleBalance, fungibleSupply } from './state';

const U128_MAX = (1n << 128n) - 1n;

const mint = (chain: TestChain, collectionId: number, owner: string, amount: bigint, signer = ALICE) =>
  chain.call(signer, 'unique.createItem', { collectionId, owner, properties: [], kind: 'Fungible', amount });
const balance = (chain: TestChain, collectionId: number, owner: string) => chain.read((tx) => fungibleBalance(tx, collectionId, owner));

describe.each(RULE_SET_NAMES)('Fungible collections (%s)', (rules) => {
  async function setup(extra = {}) {
    const chain = await fundedChain(rules);
    const id = await createCollection(chain, ALICE, { mode: 'Fungible', decimals: 6, ...extra });
    await mint(chain, id, ALICE, 1000n);
    return { chain, id };
  }

  it('says amounts in its errors in the collection’s decimals, with its token prefix', async () => {
    const chain = await fundedChain(rules);
    const id = await createCollection(chain, ALICE, { mode: 'Fungible', decimals: 6, tokenPrefix: 'GLD' });
    await mint(chain, id, ALICE, 1_134_250_000n);
    const overspend = await chain.call(ALICE, 'unique.transfer', { to: BOB, collectionId: id, tokenId: 0, value: 99_999_000_000n });
    expect(overspend.ok ? 'ok' : overspend.error.message).toBe(`${ALICE} holds 1134.25 GLD of collection ${id} and cannot send 99999 GLD`);
    // Bob is no owner or admin: he cannot approve more than he holds.
    await chain.ok(ALICE, 'unique.transfer', { to: BOB, collectionId: id, tokenId: 0, value: 1_000_000n });
    const overApprove = await chain.call(BOB, 'unique.approve', { spender: CHARLIE, collectionId: id, tokenId: 0, amount: 2_000_000_000n });
    expect(overApprove.ok ? 'ok' : overApprove.error.message).toBe(`${BOB} holds 1 GLD of collection ${id} and cannot approve 2000 GLD`);
    await chain.ok(ALICE, 'unique.approve', { spender: BOB, collectionId: id, tokenId: 0, amount: 500_000n });
    const beyond = await chain.call(BOB, 'unique.transferFrom', { from: ALICE, to: BOB, collectionId: id, tokenId: 0, value: 1_500_000n });
    expect(beyond.ok ? 'ok' : beyond.error.message).toBe(`${BOB} may spend 0.5 GLD of ${ALICE}'s collection ${id}, less than 1.5 GLD`);
    expect(await balance(chain, id, ALICE)).toBe(1_133_250_000n);
  });

  it('has one token, id 0: any other id is common.FungibleItemsHaveNoId', async () => {
    const { chain, id } = await setup();
    expect(await chain.error(ALICE, 'unique.transfer', { to: BOB, collectionId: id, tokenId: 1, value: 1n })).toBe('common.FungibleItemsHaveNoId');
    expect(await chain.error(ALICE, 'unique.approve', { spender: BOB, collectionId: id, tokenId: 2, amount: 1n })).toBe('common.FungibleItemsHaveNoId');
    expect(await chain.error(ALICE, 'unique.burnItem', { collectionId: id, tokenId: 3, value: 1n })).toBe('common.FungibleItemsHaveNoId');
  });

  it('has no token properties, and mints only with Fungible item data', async () => {
    const { chain, id } = await setup();
    expect(await chain.error(ALICE, 'unique.setTokenProperties', { collectionId: id, tokenId: 0, properties: [{ key: 'a', value: 'b' }] })).toBe('fungible.SettingPropertiesNotAllowed');
    expect(await chain.error(ALICE, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [] })).toBe('fungible.SettingPropertiesNotAllowed');
    expect(await chain.error(ALICE, 'unique.createItem', { collectionId: id, owner: BOB, properties: [] })).toBe('common.NotFungibleDataUsedToMintFungibleCollectionToken');
    expect(await chain.error(ALICE, 'unique.repartition', { collectionId: id, tokenId: 0, amount: 5n })).toBe('unique.RepartitionCalledOnNonRefungibleCollection');
  });

  it('refuses a total supply beyond u128 (arithmetic.Overflow) and merges a multiple mint per owner', async () => {
    const { chain, id } = await setup();
    const r = await mint(chain, id, BOB, U128_MAX);
    expect(r.ok ? 'ok' : `${r.error.section}.${r.error.errorName}`).toBe('arithmetic.Overflow');
    await chain.ok(ALICE, 'unique.createMultipleItemsEx', {
      collectionId: id,
      kind: 'Fungible',
      items: [
        { owner: BOB, properties: [], amount: 5n },
        { owner: CHARLIE, properties: [], amount: 7n }
      ]
    });
    expect(await balance(chain, id, BOB)).toBe(5n);
    expect(await chain.read((tx) => fungibleSupply(tx, id))).toBe(1012n);
  });

  it('mints a map of owners as the chain decodes it: in account order, a repeated owner’s last amount', async () => {
    const { chain, id } = await setup();
    const events = await chain.ok(ALICE, 'unique.createMultipleItemsEx', {
      collectionId: id,
      kind: 'Fungible',
      items: [ALICE, CHARLIE, BOB, ALICE].map((owner, i) => ({ owner, properties: [], amount: BigInt(i + 1) }))
    });
    // By public key: Bob 0x8eaf…, Charlie 0x90b5…, Alice 0xd435… (CrossAccountId's Ord).
    expect(events.filter((e) => e.method === 'ItemCreated').map((e) => [e.data.owner, e.data.amount])).toEqual([
      [BOB, '3'],
      [CHARLIE, '2'],
      [ALICE, '4']
    ]);
    expect(await balance(chain, id, ALICE)).toBe(1004n);
  });

  it('checks transfers as the chain does: disabled transfers, allow list, the zero address', async () => {
    const { chain, id } = await setup({ access: 'AllowList' });
    expect(await chain.error(ALICE, 'unique.transfer', { to: BOB, collectionId: id, tokenId: 0, value: 1n })).toBe('common.AddressNotInAllowlist');
    await allow(chain, id, ALICE, BOB);
    await chain.ok(ALICE, 'unique.transfer', { to: BOB, collectionId: id, tokenId: 0, value: 1n });
    await allow(chain, id, ETHEREUM_ZERO);
    expect(await chain.error(ALICE, 'unique.transfer', { to: ETHEREUM_ZERO, collectionId: id, tokenId: 0, value: 1n })).toBe('common.AddressIsZero');
    await chain.ok(ALICE, 'unique.setTransfersEnabledFlag', { collectionId: id, value: false });
    expect(await chain.error(ALICE, 'unique.transfer', { to: BOB, collectionId: id, tokenId: 0, value: 1n })).toBe('common.TransferNotAllowed');
  });

  it('lets an owner with ownerCanTransfer move anyone’s balance, spending an allowance only when it covers the amount', async () => {
    const { chain, id } = await setup({ limits: { ownerCanTransfer: true } });
    await chain.ok(ALICE, 'unique.transfer', { to: BOB, collectionId: id, tokenId: 0, value: 10n });
    await chain.ok(BOB, 'unique.approve', { spender: ALICE, collectionId: id, tokenId: 0, amount: 3n });
    await chain.ok(ALICE, 'unique.transferFrom', { from: BOB, to: CHARLIE, collectionId: id, tokenId: 0, value: 2n });
    expect(await chain.read((tx) => fungibleAllowance(tx, id, BOB, ALICE))).toBe(1n);
    await chain.ok(ALICE, 'unique.transferFrom', { from: BOB, to: CHARLIE, collectionId: id, tokenId: 0, value: 5n });
    expect(await chain.read((tx) => fungibleAllowance(tx, id, BOB, ALICE))).toBe(1n);
    expect(await balance(chain, id, BOB)).toBe(3n);
    expect(await chain.error(DAVE, 'unique.transferFrom', { from: BOB, to: DAVE, collectionId: id, tokenId: 0, value: 1n })).toBe('common.ApprovedValueTooLow');
  });

  it('needs at least one item in createMultipleItems (unique.EmptyArgument), before the collection is read', async () => {
    const { chain, id } = await setup();
    expect(await chain.error(ALICE, 'unique.createMultipleItems', { collectionId: id, owner: BOB, items: [] })).toBe('unique.EmptyArgument');
    expect(await chain.error(ALICE, 'unique.createMultipleItems', { collectionId: 999, owner: BOB, items: [] })).toBe('unique.EmptyArgument');
    expect(await chain.error(ALICE, 'unique.createMultipleItems', { collectionId: id, owner: BOB, items: [{ properties: [] }] })).toBe(
      'common.NotFungibleDataUsedToMintFungibleCollectionToken'
    );
  });

  it('is destroyed only once its total supply is 0', async () => {
    const { chain, id } = await setup();
    expect(await chain.error(ALICE, 'unique.destroyCollection', { collectionId: id })).toBe('common.CantDestroyNotEmptyCollection');
    // The supply as a person reads it: 1000 smallest units at 6 decimals.
    const refused = await chain.call(ALICE, 'unique.destroyCollection', { collectionId: id });
    expect(refused.ok ? 'ok' : refused.error.message).toMatch(/still has a total supply of 0\.001( \w+)? and cannot be destroyed/);
    await chain.ok(ALICE, 'unique.burnItem', { collectionId: id, tokenId: 0, value: 1000n });
    await chain.ok(ALICE, 'unique.destroyCollection', { collectionId: id });
  });

  it('is never a parent: an amount sent to a Fungible collection’s "token" is fungible.FungibleDisallowsNesting', async () => {
    const { chain, id } = await setup();
    expect(await chain.error(ALICE, 'unique.transfer', { to: addr(id, 1), collectionId: id, tokenId: 0, value: 1n })).toBe('fungible.FungibleDisallowsNesting');
  });

  it('blocks burning an NFT while it holds a balance (nonfungible.CantBurnNftWithChildren)', async () => {
    const { chain, id } = await setup();
    const nftCollection = await createCollection(chain, ALICE, { permissions: { nesting: { tokenOwner: true } } });
    const nft = await mintNft(chain, nftCollection, ALICE);
    await chain.ok(ALICE, 'unique.transfer', { to: addr(nftCollection, nft), collectionId: id, tokenId: 0, value: 1n });
    expect(await chain.error(ALICE, 'unique.burnItem', { collectionId: nftCollection, tokenId: nft, value: 1n })).toBe('nonfungible.CantBurnNftWithChildren');
  });
});
