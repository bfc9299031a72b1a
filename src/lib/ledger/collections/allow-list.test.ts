import { describe, expect, it } from 'vitest';
import { ALICE, BOB, CHARLIE, DAVE } from '../testing/harness';
import { RULE_SET_NAMES, createCollection, failure, fundedChain } from './test-helpers';

async function setup(rules: 'spec' | 'unique' = 'spec') {
  const chain = await fundedChain(rules);
  const id = await createCollection(chain, ALICE, { adminList: [BOB] });
  const listOf = () => chain.read((tx) => tx.allowListOf(id));
  return { chain, id, listOf };
}

describe('unique.addToAllowList / unique.removeFromAllowList', () => {
  it.each(RULE_SET_NAMES)('%s: owner and admin add addresses; rows land in the allowList table; events name them', async (rules) => {
    const { chain, id, listOf } = await setup(rules);
    expect(await chain.ok(ALICE, 'unique.addToAllowList', { collectionId: id, address: CHARLIE })).toEqual([
      { section: 'common', method: 'AllowListAddressAdded', data: { collectionId: id, address: CHARLIE } }
    ]);
    await chain.ok(BOB, 'unique.addToAllowList', { collectionId: id, address: DAVE });
    expect(await listOf()).toEqual([CHARLIE, DAVE].sort());
    expect(await chain.read((tx) => tx.get('allowList', [id, CHARLIE]))).toEqual({ collectionId: id, address: CHARLIE });
  });

  it('works while access is Normal (the default)', async () => {
    const { chain, id, listOf } = await setup();
    await chain.ok(ALICE, 'unique.addToAllowList', { collectionId: id, address: CHARLIE });
    expect(await listOf()).toEqual([CHARLIE]);
  });

  it('is idempotent: adding twice succeeds and emits again, leaving one row', async () => {
    const { chain, id, listOf } = await setup();
    await chain.ok(ALICE, 'unique.addToAllowList', { collectionId: id, address: CHARLIE });
    const again = await chain.ok(ALICE, 'unique.addToAllowList', { collectionId: id, address: CHARLIE });
    expect(again).toHaveLength(1);
    expect(await listOf()).toEqual([CHARLIE]);
  });

  it('removes; removing an address that is not listed succeeds and emits', async () => {
    const { chain, id, listOf } = await setup();
    await chain.ok(ALICE, 'unique.addToAllowList', { collectionId: id, address: CHARLIE });
    expect(await chain.ok(BOB, 'unique.removeFromAllowList', { collectionId: id, address: CHARLIE })).toEqual([
      { section: 'common', method: 'AllowListAddressRemoved', data: { collectionId: id, address: CHARLIE } }
    ]);
    expect(await listOf()).toEqual([]);
    expect(await chain.ok(ALICE, 'unique.removeFromAllowList', { collectionId: id, address: DAVE })).toHaveLength(1);
  });

  it('keeps lists per collection', async () => {
    const { chain, listOf } = await setup();
    const other = await createCollection(chain, BOB);
    await chain.ok(BOB, 'unique.addToAllowList', { collectionId: other, address: CHARLIE });
    expect(await listOf()).toEqual([]);
  });

  it.each(RULE_SET_NAMES)('%s: a stranger gets the specification message', async (rules) => {
    const { chain, id } = await setup(rules);
    for (const call of ['unique.addToAllowList', 'unique.removeFromAllowList'] as const) {
      expect(await failure(chain, CHARLIE, call, { collectionId: id, address: CHARLIE })).toEqual({
        name: 'common.NoPermission',
        message: 'Signer is not Collection Owner or Collection Admin'
      });
    }
  });

  it('fails with CollectionNotFound for an unknown collection', async () => {
    const { chain } = await setup();
    expect(await chain.error(ALICE, 'unique.addToAllowList', { collectionId: 8, address: CHARLIE })).toBe('common.CollectionNotFound');
    expect(await chain.error(ALICE, 'unique.removeFromAllowList', { collectionId: 8, address: CHARLIE })).toBe('common.CollectionNotFound');
  });
});
