import { describe, expect, it } from 'vitest';
import { ALICE, BOB, CHARLIE } from '../testing/harness';
import type { PropertyPermission } from '../types';
import { RULE_SET_NAMES, createCollection, failure, fundedChain, mustGetCollection } from './test-helpers';

const MUTABLE_ADMIN: PropertyPermission = { mutable: true, collectionAdmin: true, tokenOwner: false };
const FROZEN_OWNER: PropertyPermission = { mutable: false, collectionAdmin: false, tokenOwner: true };

async function setup(rules: 'spec' | 'unique' = 'spec') {
  const chain = await fundedChain(rules);
  const id = await createCollection(chain, ALICE, { adminList: [BOB] });
  const tppOf = async () => (await mustGetCollection(chain, id)).tokenPropertyPermissions;
  return { chain, id, tppOf };
}

const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${String(i).padStart(2, '0')}`, permission: MUTABLE_ADMIN }));

describe('unique.setTokenPropertyPermissions', () => {
  it('rejects an empty list with unique.EmptyArgument before anything else', async () => {
    const { chain } = await setup();
    expect(await chain.error(CHARLIE, 'unique.setTokenPropertyPermissions', { collectionId: 999, propertyPermissions: [] })).toBe(
      'unique.EmptyArgument'
    );
  });

  it('fails with CollectionNotFound for an unknown collection', async () => {
    const { chain } = await setup();
    const f = await failure(chain, CHARLIE, 'unique.setTokenPropertyPermissions', {
      collectionId: 999,
      propertyPermissions: [{ key: 'a', permission: MUTABLE_ADMIN }]
    });
    expect(f.name).toBe('common.CollectionNotFound');
  });

  it.each(RULE_SET_NAMES)('%s: owner and admin may set; a stranger gets the specification message', async (rules) => {
    const { chain, id } = await setup(rules);
    await chain.ok(ALICE, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [{ key: 'a', permission: MUTABLE_ADMIN }] });
    await chain.ok(BOB, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [{ key: 'b', permission: MUTABLE_ADMIN }] });
    expect(
      await failure(chain, CHARLIE, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [{ key: 'c', permission: MUTABLE_ADMIN }] })
    ).toEqual({ name: 'common.NoPermission', message: 'Signer is not Collection Owner or Collection Admin' });
  });

  it('stores them sorted, fills omitted flags with false, and emits one PropertyPermissionSet per entry', async () => {
    const { chain, id, tppOf } = await setup();
    const events = await chain.ok(ALICE, 'unique.setTokenPropertyPermissions', {
      collectionId: id,
      propertyPermissions: [
        { key: 'name', permission: { collectionAdmin: true } as PropertyPermission },
        { key: 'age', permission: FROZEN_OWNER }
      ]
    });
    expect(events).toEqual([
      { section: 'common', method: 'PropertyPermissionSet', data: { collectionId: id, propertyKey: 'name' } },
      { section: 'common', method: 'PropertyPermissionSet', data: { collectionId: id, propertyKey: 'age' } }
    ]);
    expect(await tppOf()).toEqual([
      { key: 'age', permission: FROZEN_OWNER },
      { key: 'name', permission: { mutable: false, collectionAdmin: true, tokenOwner: false } }
    ]);
  });

  it('lets a mutable permission change to anything, including immutable', async () => {
    const { chain, id, tppOf } = await setup();
    await chain.ok(ALICE, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [{ key: 'a', permission: MUTABLE_ADMIN }] });
    await chain.ok(ALICE, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [{ key: 'a', permission: FROZEN_OWNER }] });
    expect(await tppOf()).toEqual([{ key: 'a', permission: FROZEN_OWNER }]);
  });

  it('freezes an immutable permission forever, even against the identical value', async () => {
    const { chain, id, tppOf } = await setup();
    await chain.ok(ALICE, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [{ key: 'frozen', permission: FROZEN_OWNER }] });
    for (const permission of [FROZEN_OWNER, MUTABLE_ADMIN]) {
      const f = await failure(chain, ALICE, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [{ key: 'frozen', permission }] });
      expect(f.name).toBe('common.NoPermission');
      expect(f.message).toContain('"frozen"');
      expect(f.message).toContain('immutable');
    }
    expect(await tppOf()).toEqual([{ key: 'frozen', permission: FROZEN_OWNER }]);
  });

  it('checks the signer before the immutability (a stranger gets the signer message)', async () => {
    const { chain, id } = await setup();
    await chain.ok(ALICE, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [{ key: 'frozen', permission: FROZEN_OWNER }] });
    const f = await failure(chain, CHARLIE, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [{ key: 'frozen', permission: FROZEN_OWNER }] });
    expect(f.message).toBe('Signer is not Collection Owner or Collection Admin');
  });

  it('refuses bad keys', async () => {
    const { chain, id } = await setup();
    expect(await chain.error(ALICE, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [{ key: '', permission: MUTABLE_ADMIN }] })).toBe(
      'common.EmptyPropertyKey'
    );
    expect(
      await chain.error(ALICE, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [{ key: 'a/b', permission: MUTABLE_ADMIN }] })
    ).toBe('common.InvalidCharacterInPropertyKey');
  });

  it('allows 64 keys and refuses a 65th with PropertyLimitReached; updating at 64 is fine', async () => {
    const { chain, id, tppOf } = await setup();
    await chain.ok(ALICE, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: entries(64) });
    await chain.ok(ALICE, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [{ key: 'k00', permission: FROZEN_OWNER }] });
    const f = await failure(chain, ALICE, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [{ key: 'extra', permission: MUTABLE_ADMIN }] });
    expect(f.name).toBe('common.PropertyLimitReached');
    expect(f.message).toContain('extra');
    expect(await tppOf()).toHaveLength(64);
  });

  it('is all or nothing: a failing entry rolls back the good ones before it', async () => {
    const { chain, id, tppOf } = await setup();
    await chain.ok(ALICE, 'unique.setTokenPropertyPermissions', { collectionId: id, propertyPermissions: [{ key: 'frozen', permission: FROZEN_OWNER }] });
    const r = await chain.call(ALICE, 'unique.setTokenPropertyPermissions', {
      collectionId: id,
      propertyPermissions: [
        { key: 'good', permission: MUTABLE_ADMIN },
        { key: 'frozen', permission: MUTABLE_ADMIN }
      ]
    });
    expect(r.ok).toBe(false);
    expect(r.events).toEqual([]);
    expect(await tppOf()).toEqual([{ key: 'frozen', permission: FROZEN_OWNER }]);
  });
});
