// ReFungible tokens in the ledger: the chain's rules that the ported chain tests do not reach.
import { describe, expect, it } from 'vitest';
import { createCollection, fundedChain, RULE_SET_NAMES } from '../collections/test-helpers';
import { ALICE, BOB, CHARLIE, type TestChain } from '../testing/harness';
import { addr } from '../tokens/fixtures';
import { PARTIAL_OWNER, ownedTokens, pieceAllowance } from './state';

const mint = async (chain: TestChain, collectionId: number, owner: string, amount: bigint, properties: { key: string; value: string }[] = []) => {
  const events = await chain.ok(ALICE, 'unique.createItem', { collectionId, owner, properties, kind: 'ReFungible', amount });
  return events.find((e) => e.method === 'ItemCreated')!.data.tokenId as number;
};
const owner = async (chain: TestChain, collectionId: number, tokenId: number) => (await chain.read((tx) => tx.get('tokens', [collectionId, tokenId])))?.owner;

describe.each(RULE_SET_NAMES)('ReFungible tokens (%s)', (rules) => {
  async function setup(extra = {}) {
    const chain = await fundedChain(rules);
    const id = await createCollection(chain, ALICE, {
      mode: 'ReFungible',
      tokenPropertyPermissions: [{ key: 'mine', permission: { mutable: true, collectionAdmin: false, tokenOwner: true } }],
      ...extra
    });
    return { chain, id };
  }

  it('records the sole holder as owner, 0xff…ff while the pieces are spread', async () => {
    const { chain, id } = await setup();
    const token = await mint(chain, id, ALICE, 10n);
    expect(await owner(chain, id, token)).toBe(ALICE);
    await chain.ok(ALICE, 'unique.transfer', { to: BOB, collectionId: id, tokenId: token, value: 4n });
    expect(await owner(chain, id, token)).toBe(PARTIAL_OWNER);
    await chain.ok(ALICE, 'unique.transfer', { to: BOB, collectionId: id, tokenId: token, value: 6n });
    expect(await owner(chain, id, token)).toBe(BOB);
    expect(await chain.read((tx) => ownedTokens(tx, id, ALICE))).toEqual([]);
    expect(await chain.read((tx) => ownedTokens(tx, id, BOB))).toEqual([token]);
  });

  it('shares a token among a map of owners as the chain decodes it: in account order, a repeated owner’s last amount', async () => {
    const { chain, id } = await setup();
    const events = await chain.ok(ALICE, 'unique.createMultipleItemsEx', {
      collectionId: id,
      kind: 'RefungibleMultipleOwners',
      items: [ALICE, CHARLIE, BOB, CHARLIE].map((owner, i) => ({ owner, properties: [], amount: BigInt(i + 1) }))
    });
    // By public key: Bob 0x8eaf…, Charlie 0x90b5…, Alice 0xd435… (CrossAccountId's Ord).
    expect(events.filter((e) => e.method === 'ItemCreated').map((e) => [e.data.owner, e.data.amount])).toEqual([
      [BOB, '3'],
      [CHARLIE, '4'],
      [ALICE, '1']
    ]);
  });

  it('lets only the holder of every piece write token-owner properties', async () => {
    const { chain, id } = await setup();
    const token = await mint(chain, id, ALICE, 10n);
    await chain.ok(ALICE, 'unique.setTokenProperties', { collectionId: id, tokenId: token, properties: [{ key: 'mine', value: '1' }] });
    await chain.ok(ALICE, 'unique.transfer', { to: BOB, collectionId: id, tokenId: token, value: 1n });
    expect(await chain.error(ALICE, 'unique.setTokenProperties', { collectionId: id, tokenId: token, properties: [{ key: 'mine', value: '2' }] })).toBe('common.NoPermission');
    expect(await chain.error(BOB, 'unique.deleteTokenProperties', { collectionId: id, tokenId: token, propertyKeys: ['mine'] })).toBe('common.NoPermission');
    await chain.ok(BOB, 'unique.transfer', { to: ALICE, collectionId: id, tokenId: token, value: 1n });
    await chain.ok(ALICE, 'unique.deleteTokenProperties', { collectionId: id, tokenId: token, propertyKeys: ['mine'] });
  });

  it('counts the tokens an account holds pieces of against accountTokenOwnershipLimit', async () => {
    const { chain, id } = await setup({ limits: { accountTokenOwnershipLimit: 1 } });
    const first = await mint(chain, id, ALICE, 2n);
    await mint(chain, id, BOB, 2n);
    expect(await chain.error(ALICE, 'unique.transfer', { to: BOB, collectionId: id, tokenId: first, value: 1n })).toBe('common.AccountTokenLimitExceeded');
    expect(await chain.error(ALICE, 'unique.createItem', { collectionId: id, owner: ALICE, properties: [], kind: 'ReFungible', amount: 1n })).toBe('common.AccountTokenLimitExceeded');
  });

  it(`lets tokenLimit tokens exist: ${rules === 'unique' ? 'one fewer, as the chain’s refungible pallet' : 'as many as the limit'}`, async () => {
    const { chain, id } = await setup({ limits: { tokenLimit: 2 } });
    await mint(chain, id, ALICE, 1n);
    const second = await chain.call(ALICE, 'unique.createItem', { collectionId: id, owner: ALICE, properties: [], kind: 'ReFungible', amount: 1n });
    expect(second.ok ? 'ok' : `${second.error.section}.${second.error.errorName}`).toBe(rules === 'unique' ? 'common.CollectionTokenLimitExceeded' : 'ok');
  });

  it('approves only what the signer holds, never the zero address, and forgets allowances with the token', async () => {
    const { chain, id } = await setup();
    const token = await mint(chain, id, BOB, 5n);
    expect(await chain.error(BOB, 'unique.approve', { spender: CHARLIE, collectionId: id, tokenId: token, amount: 6n })).toBe('common.CantApproveMoreThanOwned');
    expect(await chain.error(BOB, 'unique.approve', { spender: '0x0000000000000000000000000000000000000000', collectionId: id, tokenId: token, amount: 1n })).toBe('common.AddressIsZero');
    await chain.ok(BOB, 'unique.approve', { spender: CHARLIE, collectionId: id, tokenId: token, amount: 5n });
    await chain.ok(BOB, 'unique.burnItem', { collectionId: id, tokenId: token, value: 5n });
    expect(await chain.read((tx) => pieceAllowance(tx, id, token, BOB, CHARLIE))).toBe(0n);
    expect(await chain.error(CHARLIE, 'unique.transferFrom', { from: BOB, to: CHARLIE, collectionId: id, tokenId: token, value: 1n })).toBe('common.ApprovedValueTooLow');
  });

  it('is never a parent (refungible.RefungibleDisallowsNesting), and repartition needs a positive amount', async () => {
    const { chain, id } = await setup();
    const token = await mint(chain, id, ALICE, 5n);
    expect(await chain.error(ALICE, 'unique.transfer', { to: addr(id, token), collectionId: id, tokenId: token, value: 1n })).toBe('refungible.RefungibleDisallowsNesting');
    expect(await chain.error(ALICE, 'unique.repartition', { collectionId: id, tokenId: token, amount: 0n })).toBe('common.TokenValueTooLow');
    expect(await chain.error(ALICE, 'unique.repartition', { collectionId: id, tokenId: 99, amount: 1n })).toBe('refungible.RepartitionWhileNotOwningAllPieces');
    const nft = await createCollection(chain, ALICE);
    expect(await chain.error(ALICE, 'unique.repartition', { collectionId: nft, tokenId: 1, amount: 1n })).toBe('unique.RepartitionCalledOnNonRefungibleCollection');
  });

  it('is destroyed only once its tokens are burnt', async () => {
    const { chain, id } = await setup();
    const token = await mint(chain, id, ALICE, 5n);
    expect(await chain.error(ALICE, 'unique.destroyCollection', { collectionId: id })).toBe('common.CantDestroyNotEmptyCollection');
    await chain.ok(ALICE, 'unique.burnItem', { collectionId: id, tokenId: token, value: 5n });
    await chain.ok(ALICE, 'unique.destroyCollection', { collectionId: id });
  });

  it('sets token property permissions on the collection, as for NFTs', async () => {
    const { chain, id } = await setup();
    const permission = { mutable: true, collectionAdmin: true, tokenOwner: false };
    await chain.ok(ALICE, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [{ key: 'admins', permission }] });
    const collection = await chain.read((tx) => tx.get('collections', id));
    expect(collection?.tokenPropertyPermissions).toContainEqual({ key: 'admins', permission });
    expect(await chain.error(BOB, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [{ key: 'x', permission }] })).toBe('common.NoPermission');
  });
});
