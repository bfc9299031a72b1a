import { describe, expect, it } from 'vitest';
import { ALICE, BOB, CHARLIE } from '../testing/harness';
import { DEFAULT_PERMISSIONS, clampPermissions } from './permissions';
import { RULE_SET_NAMES, createCollection, failure, fundedChain, mustGetCollection } from './test-helpers';

async function setup(rules: 'spec' | 'unique' = 'spec') {
  const chain = await fundedChain(rules);
  const id = await createCollection(chain, ALICE, { adminList: [BOB] });
  const permissionsOf = async () => (await mustGetCollection(chain, id)).permissions;
  return { chain, id, permissionsOf };
}

describe('clampPermissions', () => {
  it('keeps absent fields, replaces nesting whole, and does not touch the old value', () => {
    const old = { access: 'AllowList' as const, mintMode: true, nesting: { tokenOwner: true, collectionAdmin: true, restricted: [1] } };
    expect(clampPermissions(old, {})).toEqual(old);
    expect(clampPermissions(old, { nesting: { collectionAdmin: true } })).toEqual({
      access: 'AllowList',
      mintMode: true,
      nesting: { tokenOwner: false, collectionAdmin: true, restricted: null }
    });
    expect(old.nesting.restricted).toEqual([1]);
    expect(clampPermissions(DEFAULT_PERMISSIONS, { access: 'WhiteList' as never }).access).toBe('AllowList');
  });
});

describe('unique.setCollectionPermissions', () => {
  it.each(RULE_SET_NAMES)('%s: owner and admin may set; a stranger gets the specification message', async (rules) => {
    const { chain, id } = await setup(rules);
    const events = await chain.ok(ALICE, 'unique.setCollectionPermissions', { collectionId: id, permissions: { mintMode: true } });
    expect(events).toEqual([{ section: 'common', method: 'CollectionPermissionSet', data: { collectionId: id } }]);
    await chain.ok(BOB, 'unique.setCollectionPermissions', { collectionId: id, permissions: { access: 'AllowList' } });
    expect(await failure(chain, CHARLIE, 'unique.setCollectionPermissions', { collectionId: id, permissions: { mintMode: false } })).toEqual({
      name: 'common.NoPermission',
      message: 'Signer is not Collection Owner or Collection Admin'
    });
  });

  it('fails with CollectionNotFound for an unknown collection', async () => {
    const { chain } = await setup();
    expect(await chain.error(ALICE, 'unique.setCollectionPermissions', { collectionId: 5, permissions: {} })).toBe('common.CollectionNotFound');
  });

  it('merges top-level fields: absent ones are kept', async () => {
    const { chain, id, permissionsOf } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionPermissions', { collectionId: id, permissions: { mintMode: true } });
    await chain.ok(ALICE, 'unique.setCollectionPermissions', { collectionId: id, permissions: { access: 'AllowList' } });
    await chain.ok(ALICE, 'unique.setCollectionPermissions', { collectionId: id, permissions: { nesting: { tokenOwner: true } } });
    expect(await permissionsOf()).toEqual({
      access: 'AllowList',
      mintMode: true,
      nesting: { tokenOwner: true, collectionAdmin: false, restricted: null }
    });
    await chain.ok(ALICE, 'unique.setCollectionPermissions', { collectionId: id, permissions: { access: 'Normal' } });
    expect(await permissionsOf()).toEqual({ access: 'Normal', mintMode: true, nesting: { tokenOwner: true, collectionAdmin: false, restricted: null } });
  });

  it('replaces nesting as a whole; nesting {} disables it', async () => {
    const { chain, id, permissionsOf } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionPermissions', {
      collectionId: id,
      permissions: { nesting: { tokenOwner: true, collectionAdmin: true, restricted: [5] } }
    });
    await chain.ok(ALICE, 'unique.setCollectionPermissions', { collectionId: id, permissions: { nesting: { collectionAdmin: true } } });
    expect((await permissionsOf()).nesting).toEqual({ tokenOwner: false, collectionAdmin: true, restricted: null });
    await chain.ok(ALICE, 'unique.setCollectionPermissions', { collectionId: id, permissions: { nesting: {} } });
    expect((await permissionsOf()).nesting).toEqual({ tokenOwner: false, collectionAdmin: false, restricted: null });
  });

  it('stores restricted sorted without duplicates; an empty list stays a list', async () => {
    const { chain, id, permissionsOf } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionPermissions', { collectionId: id, permissions: { nesting: { tokenOwner: true, restricted: [9, 2, 9, 4] } } });
    expect((await permissionsOf()).nesting.restricted).toEqual([2, 4, 9]);
    await chain.ok(ALICE, 'unique.setCollectionPermissions', { collectionId: id, permissions: { nesting: { tokenOwner: true, restricted: [] } } });
    expect((await permissionsOf()).nesting.restricted).toEqual([]);
  });

  it('allows 16 restricted collections (duplicates not counted) and refuses 17', async () => {
    const { chain, id, permissionsOf } = await setup();
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    await chain.ok(ALICE, 'unique.setCollectionPermissions', { collectionId: id, permissions: { nesting: { restricted: [...ids(16), 1, 2] } } });
    expect((await permissionsOf()).nesting.restricted).toEqual(ids(16));
    const f = await failure(chain, ALICE, 'unique.setCollectionPermissions', { collectionId: id, permissions: { nesting: { restricted: ids(17) } } });
    expect(f.name).toBe('common.CollectionLimitBoundsExceeded');
    expect(f.message).toContain('16');
    expect((await permissionsOf()).nesting.restricted).toEqual(ids(16));
  });
});
