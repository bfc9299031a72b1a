import { describe, expect, it } from 'vitest';
import { META } from '../meta';
import { ALICE, BOB, CHARLIE } from '../testing/harness';
import {
  RULE_SET_NAMES,
  addToken,
  burnToken,
  createCollection,
  failure,
  fundedChain,
  getCollection,
  metaValue
} from './test-helpers';

describe('unique.destroyCollection', () => {
  it('lets the owner destroy an empty collection, counts it destroyed and emits CollectionDestroyed', async () => {
    const chain = await fundedChain();
    const id = await createCollection(chain);
    const events = await chain.ok(ALICE, 'unique.destroyCollection', { collectionId: id });
    expect(events).toEqual([{ section: 'common', method: 'CollectionDestroyed', data: { collectionId: id } }]);
    expect(await getCollection(chain, id)).toBeUndefined();
    expect(await metaValue(chain, META.destroyedCollectionCount)).toBe(1);
    expect(await metaValue(chain, META.createdCollectionCount)).toBe(1);
  });

  it('fails with CollectionNotFound for an unknown or already destroyed collection', async () => {
    const chain = await fundedChain();
    const f = await failure(chain, ALICE, 'unique.destroyCollection', { collectionId: 9 });
    expect(f.name).toBe('common.CollectionNotFound');
    expect(f.message).toContain('Collection not found');
    expect(f.message).toContain('9');
    const id = await createCollection(chain);
    await chain.ok(ALICE, 'unique.destroyCollection', { collectionId: id });
    expect(await chain.error(ALICE, 'unique.destroyCollection', { collectionId: id })).toBe('common.CollectionNotFound');
  });

  it('fails with UnsupportedOperation for collection 0 (the native currency)', async () => {
    const chain = await fundedChain();
    expect(await chain.error(ALICE, 'unique.destroyCollection', { collectionId: 0 })).toBe('common.UnsupportedOperation');
  });

  it('refuses a collection with a live token (CantDestroyNotEmptyCollection), even for the owner', async () => {
    const chain = await fundedChain();
    const id = await createCollection(chain);
    await addToken(chain, id);
    const f = await failure(chain, ALICE, 'unique.destroyCollection', { collectionId: id });
    expect(f.name).toBe('common.CantDestroyNotEmptyCollection');
    expect(f.message).toContain(`Collection ${id}`);
    expect(await getCollection(chain, id)).toBeDefined();
  });

  it('checks emptiness before the signer: a stranger gets CantDestroyNotEmptyCollection on a non-empty collection', async () => {
    const chain = await fundedChain();
    const id = await createCollection(chain);
    await addToken(chain, id, BOB);
    expect(await chain.error(CHARLIE, 'unique.destroyCollection', { collectionId: id })).toBe('common.CantDestroyNotEmptyCollection');
  });

  it('counts only live tokens: burned ones do not keep a collection alive', async () => {
    const chain = await fundedChain();
    const id = await createCollection(chain);
    const t1 = await addToken(chain, id);
    const t2 = await addToken(chain, id);
    await burnToken(chain, id, t1);
    expect(await chain.error(ALICE, 'unique.destroyCollection', { collectionId: id })).toBe('common.CantDestroyNotEmptyCollection');
    await burnToken(chain, id, t2);
    await chain.ok(ALICE, 'unique.destroyCollection', { collectionId: id });
  });

  it('refuses when ownerCanDestroy is false, before the owner check', async () => {
    const chain = await fundedChain();
    const id = await createCollection(chain, ALICE, { limits: { ownerCanDestroy: false } });
    const byOwner = await failure(chain, ALICE, 'unique.destroyCollection', { collectionId: id });
    expect(byOwner.name).toBe('common.NoPermission');
    expect(byOwner.message).toContain('ownerCanDestroy');
    const byStranger = await failure(chain, BOB, 'unique.destroyCollection', { collectionId: id });
    expect(byStranger.message).toContain('ownerCanDestroy');
  });

  it.each(RULE_SET_NAMES)('%s: only the owner may destroy (admins and strangers get NoPermission)', async (rules) => {
    const chain = await fundedChain(rules);
    const id = await createCollection(chain, ALICE, { adminList: [BOB] });
    for (const signer of [BOB, CHARLIE]) {
      const f = await failure(chain, signer, 'unique.destroyCollection', { collectionId: id });
      expect(f).toEqual({ name: 'common.NoPermission', message: 'Signer is not Collection Owner' });
    }
    await chain.ok(ALICE, 'unique.destroyCollection', { collectionId: id });
  });

  it('leaves other collections alone', async () => {
    const chain = await fundedChain();
    const a = await createCollection(chain);
    const b = await createCollection(chain, BOB);
    await chain.ok(ALICE, 'unique.destroyCollection', { collectionId: a });
    expect(await getCollection(chain, b)).toBeDefined();
  });
});
