import { describe, expect, it } from 'vitest';
import { ALICE, BOB, CHARLIE, DAVE } from '../testing/harness';
import { RULE_SET_NAMES, createCollection, failure, fundedChain, mustGetCollection } from './test-helpers';

async function setup(rules: 'spec' | 'unique' = 'spec') {
  const chain = await fundedChain(rules);
  const id = await createCollection(chain, ALICE, { adminList: [BOB] });
  const sponsorshipOf = async () => (await mustGetCollection(chain, id)).sponsorship;
  return { chain, id, sponsorshipOf };
}

describe('sponsorship', () => {
  it.each(RULE_SET_NAMES)('%s: owner or admin sets an unconfirmed sponsor; the sponsor confirms', async (rules) => {
    const { chain, id, sponsorshipOf } = await setup(rules);
    expect(await chain.ok(BOB, 'unique.setCollectionSponsor', { collectionId: id, newSponsor: CHARLIE })).toEqual([
      { section: 'common', method: 'CollectionSponsorSet', data: { collectionId: id, sponsor: CHARLIE } }
    ]);
    expect(await sponsorshipOf()).toEqual({ address: CHARLIE, isConfirmed: false });
    expect(await chain.ok(CHARLIE, 'unique.confirmSponsorship', { collectionId: id })).toEqual([
      { section: 'common', method: 'SponsorshipConfirmed', data: { collectionId: id, sponsor: CHARLIE } }
    ]);
    expect(await sponsorshipOf()).toEqual({ address: CHARLIE, isConfirmed: true });
  });

  it('only the pending sponsor can confirm (ConfirmSponsorshipFail otherwise), even the owner cannot', async () => {
    const { chain, id, sponsorshipOf } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionSponsor', { collectionId: id, newSponsor: CHARLIE });
    for (const signer of [ALICE, BOB, DAVE]) {
      const f = await failure(chain, signer, 'unique.confirmSponsorship', { collectionId: id });
      expect(f.name).toBe('common.ConfirmSponsorshipFail');
      expect(f.message).toContain(CHARLIE);
    }
    expect(await sponsorshipOf()).toEqual({ address: CHARLIE, isConfirmed: false });
  });

  it('cannot confirm without a pending sponsor, nor twice', async () => {
    const { chain, id } = await setup();
    expect(await chain.error(CHARLIE, 'unique.confirmSponsorship', { collectionId: id })).toBe('common.ConfirmSponsorshipFail');
    await chain.ok(ALICE, 'unique.setCollectionSponsor', { collectionId: id, newSponsor: CHARLIE });
    await chain.ok(CHARLIE, 'unique.confirmSponsorship', { collectionId: id });
    expect(await chain.error(CHARLIE, 'unique.confirmSponsorship', { collectionId: id })).toBe('common.ConfirmSponsorshipFail');
  });

  it('a pendingSponsor given at creation can confirm', async () => {
    const chain = await fundedChain();
    const id = await createCollection(chain, ALICE, { pendingSponsor: DAVE });
    await chain.ok(DAVE, 'unique.confirmSponsorship', { collectionId: id });
    expect((await mustGetCollection(chain, id)).sponsorship).toEqual({ address: DAVE, isConfirmed: true });
  });

  it('setting a new sponsor replaces a confirmed one with an unconfirmed one', async () => {
    const { chain, id, sponsorshipOf } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionSponsor', { collectionId: id, newSponsor: CHARLIE });
    await chain.ok(CHARLIE, 'unique.confirmSponsorship', { collectionId: id });
    await chain.ok(ALICE, 'unique.setCollectionSponsor', { collectionId: id, newSponsor: DAVE });
    expect(await sponsorshipOf()).toEqual({ address: DAVE, isConfirmed: false });
    expect(await chain.error(CHARLIE, 'unique.confirmSponsorship', { collectionId: id })).toBe('common.ConfirmSponsorshipFail');
  });

  it.each(RULE_SET_NAMES)('%s: owner or admin removes the sponsor (emits even with none set)', async (rules) => {
    const { chain, id, sponsorshipOf } = await setup(rules);
    await chain.ok(ALICE, 'unique.setCollectionSponsor', { collectionId: id, newSponsor: CHARLIE });
    await chain.ok(CHARLIE, 'unique.confirmSponsorship', { collectionId: id });
    expect(await chain.ok(BOB, 'unique.removeCollectionSponsor', { collectionId: id })).toEqual([
      { section: 'common', method: 'CollectionSponsorRemoved', data: { collectionId: id } }
    ]);
    expect(await sponsorshipOf()).toBeNull();
    expect(await chain.ok(ALICE, 'unique.removeCollectionSponsor', { collectionId: id })).toHaveLength(1);
  });

  it.each(RULE_SET_NAMES)('%s: a stranger (even the sponsor) cannot set or remove the sponsor', async (rules) => {
    const { chain, id } = await setup(rules);
    await chain.ok(ALICE, 'unique.setCollectionSponsor', { collectionId: id, newSponsor: CHARLIE });
    const expected = { name: 'common.NoPermission', message: 'Signer is not Collection Owner or Collection Admin' };
    expect(await failure(chain, CHARLIE, 'unique.setCollectionSponsor', { collectionId: id, newSponsor: CHARLIE })).toEqual(expected);
    expect(await failure(chain, CHARLIE, 'unique.removeCollectionSponsor', { collectionId: id })).toEqual(expected);
  });

  it('fails with CollectionNotFound for an unknown collection', async () => {
    const { chain } = await setup();
    expect(await chain.error(ALICE, 'unique.setCollectionSponsor', { collectionId: 9, newSponsor: BOB })).toBe('common.CollectionNotFound');
    expect(await chain.error(BOB, 'unique.confirmSponsorship', { collectionId: 9 })).toBe('common.CollectionNotFound');
    expect(await chain.error(ALICE, 'unique.removeCollectionSponsor', { collectionId: 9 })).toBe('common.CollectionNotFound');
  });
});
