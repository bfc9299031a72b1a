import { describe, expect, it } from 'vitest';
import { ALICE, BOB, CHARLIE, DAVE, EVE } from '../testing/harness';
import { RULE_SET_NAMES, createCollection, failure, fundedChain, mustGetCollection } from './test-helpers';

const FERDIE = '5CiPPseXPECbkjWCa6MnjNokrgYjMqmKndv2rSnekmSK2DjL';

async function setup(rules: 'spec' | 'unique', adminList: string[] = [BOB]) {
  const chain = await fundedChain(rules);
  const id = await createCollection(chain, ALICE, { adminList });
  const adminsOf = async () => (await mustGetCollection(chain, id)).admins;
  return { chain, id, adminsOf };
}

describe('unique.addCollectionAdmin', () => {
  it.each(RULE_SET_NAMES)('%s: the owner adds an admin and CollectionAdminAdded is emitted', async (rules) => {
    const { chain, id, adminsOf } = await setup(rules, []);
    const events = await chain.ok(ALICE, 'unique.addCollectionAdmin', { collectionId: id, newAdmin: BOB });
    expect(events).toEqual([{ section: 'common', method: 'CollectionAdminAdded', data: { collectionId: id, account: BOB } }]);
    expect(await adminsOf()).toEqual([BOB]);
  });

  it.each(RULE_SET_NAMES)('%s: adding an existing admin is a silent no-op', async (rules) => {
    const { chain, id, adminsOf } = await setup(rules);
    expect(await chain.ok(ALICE, 'unique.addCollectionAdmin', { collectionId: id, newAdmin: BOB })).toEqual([]);
    expect(await adminsOf()).toEqual([BOB]);
  });

  it.each(RULE_SET_NAMES)('%s: a sixth admin is refused with CollectionAdminCountExceeded; the owner counts when listed', async (rules) => {
    const { chain, id, adminsOf } = await setup(rules, [BOB, CHARLIE, DAVE, EVE]);
    await chain.ok(ALICE, 'unique.addCollectionAdmin', { collectionId: id, newAdmin: ALICE });
    const f = await failure(chain, ALICE, 'unique.addCollectionAdmin', { collectionId: id, newAdmin: FERDIE });
    expect(f.name).toBe('common.CollectionAdminCountExceeded');
    expect(f.message).toContain(FERDIE);
    expect(await adminsOf()).toEqual([BOB, CHARLIE, DAVE, EVE, ALICE]);
    // Re-adding one of the five is still a no-op, not an error.
    await chain.ok(ALICE, 'unique.addCollectionAdmin', { collectionId: id, newAdmin: DAVE });
  });

  it('spec: an admin may add another admin', async () => {
    const { chain, id, adminsOf } = await setup('spec');
    await chain.ok(BOB, 'unique.addCollectionAdmin', { collectionId: id, newAdmin: CHARLIE });
    expect(await adminsOf()).toEqual([BOB, CHARLIE]);
  });

  it('unique: an admin may not add an admin (owner only)', async () => {
    const { chain, id, adminsOf } = await setup('unique');
    expect(await failure(chain, BOB, 'unique.addCollectionAdmin', { collectionId: id, newAdmin: CHARLIE })).toEqual({
      name: 'common.NoPermission',
      message: 'Signer is not Collection Owner'
    });
    expect(await adminsOf()).toEqual([BOB]);
  });

  it('spec: a stranger gets NoPermission "Signer is not Collection Owner or Collection Admin"', async () => {
    const { chain, id } = await setup('spec');
    expect(await failure(chain, CHARLIE, 'unique.addCollectionAdmin', { collectionId: id, newAdmin: CHARLIE })).toEqual({
      name: 'common.NoPermission',
      message: 'Signer is not Collection Owner or Collection Admin'
    });
  });

  it('unique: a stranger gets NoPermission', async () => {
    const { chain, id } = await setup('unique');
    expect(await chain.error(CHARLIE, 'unique.addCollectionAdmin', { collectionId: id, newAdmin: CHARLIE })).toBe('common.NoPermission');
  });

  it('fails with CollectionNotFound for an unknown collection', async () => {
    const { chain } = await setup('spec');
    expect(await chain.error(ALICE, 'unique.addCollectionAdmin', { collectionId: 31, newAdmin: BOB })).toBe('common.CollectionNotFound');
  });
});

describe('unique.removeCollectionAdmin', () => {
  it.each(RULE_SET_NAMES)('%s: the owner removes an admin and CollectionAdminRemoved is emitted', async (rules) => {
    const { chain, id, adminsOf } = await setup(rules, [BOB, CHARLIE]);
    const events = await chain.ok(ALICE, 'unique.removeCollectionAdmin', { collectionId: id, account: BOB });
    expect(events).toEqual([{ section: 'common', method: 'CollectionAdminRemoved', data: { collectionId: id, account: BOB } }]);
    expect(await adminsOf()).toEqual([CHARLIE]);
  });

  it.each(RULE_SET_NAMES)('%s: removing a non-admin fails with UserIsNotCollectionAdmin', async (rules) => {
    const { chain, id } = await setup(rules);
    const f = await failure(chain, ALICE, 'unique.removeCollectionAdmin', { collectionId: id, account: CHARLIE });
    expect(f.name).toBe('common.UserIsNotCollectionAdmin');
    expect(f.message).toContain(CHARLIE);
  });

  it('spec: an admin may remove itself, and another admin', async () => {
    const { chain, id, adminsOf } = await setup('spec', [BOB, CHARLIE, DAVE]);
    await chain.ok(BOB, 'unique.removeCollectionAdmin', { collectionId: id, account: CHARLIE });
    await chain.ok(BOB, 'unique.removeCollectionAdmin', { collectionId: id, account: BOB });
    expect(await adminsOf()).toEqual([DAVE]);
  });

  it('unique: an admin may remove neither itself nor another admin', async () => {
    const { chain, id, adminsOf } = await setup('unique', [BOB, CHARLIE]);
    for (const account of [BOB, CHARLIE]) {
      expect(await failure(chain, BOB, 'unique.removeCollectionAdmin', { collectionId: id, account })).toEqual({
        name: 'common.NoPermission',
        message: 'Signer is not Collection Owner'
      });
    }
    expect(await adminsOf()).toEqual([BOB, CHARLIE]);
  });

  it('spec: a stranger gets NoPermission with the specification message, before the admin check', async () => {
    const { chain, id } = await setup('spec');
    expect(await failure(chain, CHARLIE, 'unique.removeCollectionAdmin', { collectionId: id, account: DAVE })).toEqual({
      name: 'common.NoPermission',
      message: 'Signer is not Collection Owner or Collection Admin'
    });
  });

  it('spec: the list may become empty; then only the owner can add an admin', async () => {
    const { chain, id, adminsOf } = await setup('spec');
    await chain.ok(BOB, 'unique.removeCollectionAdmin', { collectionId: id, account: BOB });
    expect(await adminsOf()).toEqual([]);
    expect(await chain.error(BOB, 'unique.addCollectionAdmin', { collectionId: id, newAdmin: BOB })).toBe('common.NoPermission');
    await chain.ok(ALICE, 'unique.addCollectionAdmin', { collectionId: id, newAdmin: BOB });
    expect(await adminsOf()).toEqual([BOB]);
  });

  it('unique: the owner may empty the list', async () => {
    const { chain, id, adminsOf } = await setup('unique');
    await chain.ok(ALICE, 'unique.removeCollectionAdmin', { collectionId: id, account: BOB });
    expect(await adminsOf()).toEqual([]);
  });

  it('admin rights end with removal', async () => {
    const { chain, id } = await setup('unique');
    await chain.ok(BOB, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: 'a', value: '1' }] });
    await chain.ok(ALICE, 'unique.removeCollectionAdmin', { collectionId: id, account: BOB });
    expect(await chain.error(BOB, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: 'a', value: '2' }] })).toBe(
      'common.NoPermission'
    );
  });
});

describe('unique.changeCollectionOwner', () => {
  it.each(RULE_SET_NAMES)('%s: the owner hands over; the admin list is untouched; CollectionOwnerChanged is emitted', async (rules) => {
    const { chain, id } = await setup(rules);
    const events = await chain.ok(ALICE, 'unique.changeCollectionOwner', { collectionId: id, newOwner: CHARLIE });
    expect(events).toEqual([{ section: 'common', method: 'CollectionOwnerChanged', data: { collectionId: id, owner: CHARLIE } }]);
    const c = await mustGetCollection(chain, id);
    expect(c.owner).toBe(CHARLIE);
    expect(c.admins).toEqual([BOB]);
  });

  it.each(RULE_SET_NAMES)('%s: admins, strangers and the former owner get the specification message', async (rules) => {
    const { chain, id } = await setup(rules);
    await chain.ok(ALICE, 'unique.changeCollectionOwner', { collectionId: id, newOwner: CHARLIE });
    for (const signer of [BOB, DAVE, ALICE]) {
      expect(await failure(chain, signer, 'unique.changeCollectionOwner', { collectionId: id, newOwner: signer })).toEqual({
        name: 'common.NoPermission',
        message: 'From address is not the collection admin address'
      });
    }
  });

  it('the old owner loses its rights (it did not become an admin), the new owner gains them', async () => {
    const { chain, id } = await setup('spec', []);
    await chain.ok(ALICE, 'unique.changeCollectionOwner', { collectionId: id, newOwner: CHARLIE });
    expect(await chain.error(ALICE, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: 'a', value: '1' }] })).toBe(
      'common.NoPermission'
    );
    await chain.ok(CHARLIE, 'unique.setCollectionLimits', { collectionId: id, limits: { tokenLimit: 5 } });
  });

  it('fails with CollectionNotFound for an unknown collection', async () => {
    const { chain } = await setup('spec');
    expect(await chain.error(ALICE, 'unique.changeCollectionOwner', { collectionId: 31, newOwner: BOB })).toBe('common.CollectionNotFound');
  });
});
