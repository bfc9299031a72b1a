import { describe, expect, it } from 'vitest';
import { EMPTY_LIMITS } from '../access';
import type { DispatchError } from '../errors';
import { ALICE, BOB, CHARLIE } from '../testing/harness';
import type { CollectionLimits } from '../types';
import { clampLimits } from './limits';
import { createCollection, failure, fundedChain, mustGetCollection } from './test-helpers';

async function setup(rules: 'spec' | 'unique' = 'spec') {
  const chain = await fundedChain(rules);
  const id = await createCollection(chain, ALICE, { adminList: [BOB] });
  const limitsOf = async () => (await mustGetCollection(chain, id)).limits;
  return { chain, id, limitsOf };
}

describe('clampLimits', () => {
  it('merges: absent and null keep the old value, given ones replace it', () => {
    const old: CollectionLimits = { ...EMPTY_LIMITS, tokenLimit: 10, sponsoredDataSize: 5 };
    expect(clampLimits(old, { tokenLimit: null, accountTokenOwnershipLimit: 3 })).toEqual({ ...old, accountTokenOwnershipLimit: 3 });
    expect(old).toEqual({ ...EMPTY_LIMITS, tokenLimit: 10, sponsoredDataSize: 5 });
    expect(clampLimits(EMPTY_LIMITS, {})).toEqual(EMPTY_LIMITS);
  });

  it('checks fields in the chain order (the first bad field decides)', () => {
    const errorOf = (update: Parameters<typeof clampLimits>[1]) => {
      try {
        clampLimits(EMPTY_LIMITS, update);
      } catch (e) {
        return `${(e as DispatchError).section}.${(e as DispatchError).errorName}: ${(e as DispatchError).message}`;
      }
      return 'no error';
    };
    expect(errorOf({ tokenLimit: 0, accountTokenOwnershipLimit: 200_000_000 })).toMatch(/^common\.CollectionLimitBoundsExceeded: accountTokenOwnershipLimit/);
    expect(errorOf({ ownerCanDestroy: true, tokenLimit: 0, sponsorTransferTimeout: 10_368_001 })).toMatch(/^common\.CollectionTokenLimitExceeded/);
    expect(errorOf({ transfersEnabled: false, ownerCanTransfer: true })).toBe('no error');
  });

  it('names the collection in its messages when given the id', () => {
    expect(() => clampLimits(EMPTY_LIMITS, { sponsoredDataSize: 5000 }, 12)).toThrowError(/collection 12/);
  });
});

describe('unique.setCollectionLimits', () => {
  it('spec: owner only; an admin gets NoPermission "Signer is not Collection Owner"', async () => {
    const { chain, id } = await setup('spec');
    for (const signer of [BOB, CHARLIE]) {
      expect(await failure(chain, signer, 'unique.setCollectionLimits', { collectionId: id, limits: { tokenLimit: 5 } })).toEqual({
        name: 'common.NoPermission',
        message: 'Signer is not Collection Owner'
      });
    }
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { tokenLimit: 5 } });
  });

  it('unique: owner or admin; a stranger gets NoPermission', async () => {
    const { chain, id, limitsOf } = await setup('unique');
    await chain.ok(BOB, 'unique.setCollectionLimits', { collectionId: id, limits: { tokenLimit: 5 } });
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { tokenLimit: 4 } });
    expect((await limitsOf()).tokenLimit).toBe(4);
    expect(await failure(chain, CHARLIE, 'unique.setCollectionLimits', { collectionId: id, limits: { tokenLimit: 3 } })).toEqual({
      name: 'common.NoPermission',
      message: 'Signer is not Collection Owner or Collection Admin'
    });
  });

  it('fails with CollectionNotFound for an unknown collection', async () => {
    const { chain } = await setup();
    const f = await failure(chain, ALICE, 'unique.setCollectionLimits', { collectionId: 42, limits: {} });
    expect(f.name).toBe('common.CollectionNotFound');
    expect(f.message).toContain('Collection not found');
  });

  it('emits CollectionLimitSet and merges with the stored limits', async () => {
    const { chain, id, limitsOf } = await setup();
    const events = await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { tokenLimit: 10 } });
    expect(events).toEqual([{ section: 'common', method: 'CollectionLimitSet', data: { collectionId: id } }]);
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { accountTokenOwnershipLimit: 5, tokenLimit: null } });
    expect(await limitsOf()).toEqual({ ...EMPTY_LIMITS, tokenLimit: 10, accountTokenOwnershipLimit: 5 });
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: {} });
    expect(await limitsOf()).toEqual({ ...EMPTY_LIMITS, tokenLimit: 10, accountTokenOwnershipLimit: 5 });
  });

  it('bounds accountTokenOwnershipLimit (0 to 100 000 000, up and down freely)', async () => {
    const { chain, id, limitsOf } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { accountTokenOwnershipLimit: 0 } });
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { accountTokenOwnershipLimit: 100_000_000 } });
    const f = await failure(chain, ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { accountTokenOwnershipLimit: 100_000_001 } });
    expect(f.name).toBe('common.CollectionLimitBoundsExceeded');
    expect(f.message).toContain('accountTokenOwnershipLimit');
    expect((await limitsOf()).accountTokenOwnershipLimit).toBe(100_000_000);
  });

  it('bounds sponsoredDataSize (≤ 2048) and sponsorTransferTimeout (≤ 10 368 000)', async () => {
    const { chain, id } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { sponsoredDataSize: 2048, sponsorTransferTimeout: 10_368_000 } });
    expect(await chain.error(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { sponsoredDataSize: 2049 } })).toBe(
      'common.CollectionLimitBoundsExceeded'
    );
    expect(await chain.error(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { sponsorTransferTimeout: 10_368_001 } })).toBe(
      'common.CollectionLimitBoundsExceeded'
    );
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { sponsorTransferTimeout: 1 } });
  });

  it('does not bound sponsorApproveTimeout or sponsoredDataRateLimit', async () => {
    const { chain, id, limitsOf } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { sponsorApproveTimeout: 99_999_999, sponsoredDataRateLimit: 20_000_000 } });
    expect(await limitsOf()).toMatchObject({ sponsorApproveTimeout: 99_999_999, sponsoredDataRateLimit: 20_000_000 });
  });

  it('lets tokenLimit only go down, never to 0 (CollectionTokenLimitExceeded)', async () => {
    const { chain, id, limitsOf } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { tokenLimit: 10 } });
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { tokenLimit: 10 } });
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { tokenLimit: 3 } });
    const up = await failure(chain, ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { tokenLimit: 4 } });
    expect(up.name).toBe('common.CollectionTokenLimitExceeded');
    expect(up.message).toContain('3');
    expect(await chain.error(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { tokenLimit: 0 } })).toBe(
      'common.CollectionTokenLimitExceeded'
    );
    expect((await limitsOf()).tokenLimit).toBe(3);
  });

  it('ownerCanTransfer: free while unset or true, but once explicitly false it cannot become true', async () => {
    const { chain, id, limitsOf } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { ownerCanTransfer: true } });
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { ownerCanTransfer: false } });
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { ownerCanTransfer: false } });
    const f = await failure(chain, ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { ownerCanTransfer: true } });
    expect(f.name).toBe('common.OwnerPermissionsCantBeReverted');
    expect(f.message).toContain('ownerCanTransfer');
    expect((await limitsOf()).ownerCanTransfer).toBe(false);
  });

  it('ownerCanDestroy: once false it cannot become true', async () => {
    const { chain, id } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { ownerCanDestroy: true } });
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { ownerCanDestroy: false } });
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { ownerCanDestroy: false } });
    expect(await chain.error(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { ownerCanDestroy: true } })).toBe(
      'common.OwnerPermissionsCantBeReverted'
    );
  });

  it('transfersEnabled switches both ways', async () => {
    const { chain, id, limitsOf } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { transfersEnabled: false } });
    expect((await limitsOf()).transfersEnabled).toBe(false);
    await chain.ok(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { transfersEnabled: true } });
    expect((await limitsOf()).transfersEnabled).toBe(true);
  });

  it('is all or nothing: a bad later field keeps the good earlier ones out', async () => {
    const { chain, id, limitsOf } = await setup();
    expect(
      await chain.error(ALICE, 'unique.setCollectionLimits', { collectionId: id, limits: { sponsoredDataSize: 10, tokenLimit: 0 } })
    ).toBe('common.CollectionTokenLimitExceeded');
    expect(await limitsOf()).toEqual(EMPTY_LIMITS);
  });
});

describe('unique.setTransfersEnabledFlag', () => {
  it.each(['spec', 'unique'] as const)('%s: the owner switches it, with no event', async (rules) => {
    const { chain, id, limitsOf } = await setup(rules);
    expect(await chain.ok(ALICE, 'unique.setTransfersEnabledFlag', { collectionId: id, value: false })).toEqual([]);
    expect((await limitsOf()).transfersEnabled).toBe(false);
    await chain.ok(ALICE, 'unique.setTransfersEnabledFlag', { collectionId: id, value: true });
    expect(await limitsOf()).toEqual({ ...EMPTY_LIMITS, transfersEnabled: true });
  });

  it.each(['spec', 'unique'] as const)('%s: admins and strangers get NoPermission "Signer is not Collection Owner"', async (rules) => {
    const { chain, id } = await setup(rules);
    for (const signer of [BOB, CHARLIE]) {
      expect(await failure(chain, signer, 'unique.setTransfersEnabledFlag', { collectionId: id, value: false })).toEqual({
        name: 'common.NoPermission',
        message: 'Signer is not Collection Owner'
      });
    }
  });

  it('fails with CollectionNotFound for an unknown collection', async () => {
    const { chain } = await setup();
    expect(await chain.error(ALICE, 'unique.setTransfersEnabledFlag', { collectionId: 77, value: false })).toBe('common.CollectionNotFound');
  });
});
