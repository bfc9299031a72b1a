// A read-only collection is the chain's "external" one: no user extrinsic may change it
// (`common.CollectionIsExternal`, checked right after the collection lookup). Users cannot create
// one (see create.test.ts); this covers collections that arrive some other way (genesis, import).
import { describe, expect, it } from 'vitest';
import { ALICE, BOB, CHARLIE } from '../testing/harness';
import type { CallArgs, CallName } from '../types';
import { COLLECTION_CALLS } from './index';
import { createCollection, failure, fundedChain, mustGetCollection, patchCollection } from './test-helpers';

describe('read-only collections', () => {
  it('refuse every collection call except creation with CollectionIsExternal, even for the owner', async () => {
    const chain = await fundedChain();
    const id = await createCollection(chain, ALICE, { adminList: [BOB], pendingSponsor: CHARLIE });
    await patchCollection(chain, id, (c) => {
      c.readOnly = true;
    });
    const before = await mustGetCollection(chain, id);
    const calls: { [N in CallName]?: [string, CallArgs[N]] } = {
      'unique.destroyCollection': [ALICE, { collectionId: id }],
      'unique.setCollectionProperties': [ALICE, { collectionId: id, properties: [{ key: 'a', value: '1' }] }],
      'unique.deleteCollectionProperties': [ALICE, { collectionId: id, propertyKeys: ['a'] }],
      'unique.setCollectionLimits': [ALICE, { collectionId: id, limits: { tokenLimit: 5 } }],
      'unique.setCollectionPermissions': [ALICE, { collectionId: id, permissions: { mintMode: true } }],
      'unique.setTokenPropertyPermissions': [ALICE, { collectionId: id, propertyPermissions: [{ key: 'a', permission: { mutable: true, collectionAdmin: true, tokenOwner: false } }] }],
      'unique.setTransfersEnabledFlag': [ALICE, { collectionId: id, value: false }],
      'unique.changeCollectionOwner': [ALICE, { collectionId: id, newOwner: BOB }],
      'unique.addCollectionAdmin': [ALICE, { collectionId: id, newAdmin: CHARLIE }],
      'unique.removeCollectionAdmin': [ALICE, { collectionId: id, account: BOB }],
      'unique.setCollectionSponsor': [ALICE, { collectionId: id, newSponsor: BOB }],
      'unique.confirmSponsorship': [CHARLIE, { collectionId: id }],
      'unique.removeCollectionSponsor': [ALICE, { collectionId: id }],
      'unique.addToAllowList': [ALICE, { collectionId: id, address: CHARLIE }],
      'unique.removeFromAllowList': [ALICE, { collectionId: id, address: CHARLIE }]
    };
    const names = Object.keys(COLLECTION_CALLS).filter((n) => n !== 'unique.createCollectionEx');
    expect(Object.keys(calls).sort()).toEqual(names.sort());
    for (const [name, [signer, args]] of Object.entries(calls) as [CallName, [string, never]][]) {
      const f = await failure(chain, signer, name, args);
      expect(f.name, name).toBe('common.CollectionIsExternal');
      expect(f.message).toContain(`Collection ${id}`);
    }
    expect(await mustGetCollection(chain, id)).toEqual(before);
  });

  it('still report CollectionNotFound first for unknown ids', async () => {
    const chain = await fundedChain();
    expect(await chain.error(ALICE, 'unique.setCollectionLimits', { collectionId: 3, limits: {} })).toBe('common.CollectionNotFound');
  });
});

describe('COLLECTION_CALLS', () => {
  it('answers every collection-level call', () => {
    expect(Object.keys(COLLECTION_CALLS).sort()).toEqual(
      [
        'unique.createCollectionEx',
        'unique.destroyCollection',
        'unique.setCollectionProperties',
        'unique.deleteCollectionProperties',
        'unique.setCollectionLimits',
        'unique.setCollectionPermissions',
        'unique.setTokenPropertyPermissions',
        'unique.setTransfersEnabledFlag',
        'unique.changeCollectionOwner',
        'unique.addCollectionAdmin',
        'unique.removeCollectionAdmin',
        'unique.setCollectionSponsor',
        'unique.confirmSponsorship',
        'unique.removeCollectionSponsor',
        'unique.addToAllowList',
        'unique.removeFromAllowList'
      ].sort()
    );
  });
});
