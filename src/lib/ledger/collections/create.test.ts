import { describe, expect, it } from 'vitest';
import { EMPTY_LIMITS } from '../access';
import { TREASURY } from '../balances';
import { COLLECTION_CREATION_PRICE } from '../constants';
import { META } from '../meta';
import { ALICE, BOB, CHARLIE, DAVE, EVE, TestChain } from '../testing/harness';
import {
  RULE_SET_NAMES,
  balanceOf,
  collectionData,
  createCollection,
  failure,
  fundedChain,
  getCollection,
  metaValue,
  mustGetCollection
} from './test-helpers';

const FERDIE = '5CiPPseXPECbkjWCa6MnjNokrgYjMqmKndv2rSnekmSK2DjL';

describe('unique.createCollectionEx', () => {
  it('creates collection 1 owned by the signer, with defaults, and emits only CollectionCreated', async () => {
    const chain = await fundedChain();
    const events = await chain.ok(ALICE, 'unique.createCollectionEx', { data: collectionData() });
    expect(events).toEqual([{ section: 'common', method: 'CollectionCreated', data: { collectionId: 1, mode: 1, owner: ALICE } }]);
    const c = await mustGetCollection(chain, 1);
    expect(c).toEqual({
      id: 1,
      owner: ALICE,
      mode: 'NFT',
      decimals: 0,
      name: 'Test collection',
      description: 'A collection for tests',
      tokenPrefix: 'TST',
      sponsorship: null,
      limits: EMPTY_LIMITS,
      permissions: { access: 'Normal', mintMode: false, nesting: { tokenOwner: false, collectionAdmin: false, restricted: null } },
      readOnly: false,
      properties: [],
      tokenPropertyPermissions: [],
      admins: [],
      tokensMinted: 0,
      tokensBurnt: 0
    });
    expect(await metaValue(chain, META.createdCollectionCount)).toBe(1);
  });

  it('numbers collections 1, 2, 3 and never reuses a destroyed id', async () => {
    const chain = await fundedChain();
    expect(await createCollection(chain)).toBe(1);
    expect(await createCollection(chain, BOB)).toBe(2);
    await chain.ok(BOB, 'unique.destroyCollection', { collectionId: 2 });
    expect(await createCollection(chain)).toBe(3);
    expect(await getCollection(chain, 2)).toBeUndefined();
  });

  it('reports the mode id of the chain (1 NFT, 2 Fungible, 3 ReFungible)', async () => {
    const chain = await fundedChain();
    const fungible = await chain.ok(ALICE, 'unique.createCollectionEx', { data: collectionData({ mode: 'Fungible', decimals: 6 }) });
    const refungible = await chain.ok(ALICE, 'unique.createCollectionEx', { data: collectionData({ mode: 'ReFungible' }) });
    expect(fungible[0].data).toEqual({ collectionId: 1, mode: 2, owner: ALICE });
    expect(refungible[0].data).toEqual({ collectionId: 2, mode: 3, owner: ALICE });
    expect((await mustGetCollection(chain, 1)).decimals).toBe(6);
  });

  it('takes the 2-unit deposit from the signer to the treasury', async () => {
    const chain = await fundedChain();
    const before = await balanceOf(chain, ALICE);
    const treasuryBefore = await balanceOf(chain, TREASURY);
    await createCollection(chain);
    expect(before - (await balanceOf(chain, ALICE))).toBe(COLLECTION_CREATION_PRICE);
    expect((await balanceOf(chain, TREASURY)) - treasuryBefore).toBe(COLLECTION_CREATION_PRICE);
  });

  it('fails with NotSufficientFounds when the signer cannot pay the deposit, and changes nothing', async () => {
    const chain = await fundedChain();
    const f = await failure(chain, FERDIE, 'unique.createCollectionEx', { data: collectionData() });
    expect(f.name).toBe('common.NotSufficientFounds');
    expect(f.message).toContain(FERDIE);
    expect(await getCollection(chain, 1)).toBeUndefined();
    expect(await metaValue(chain, META.createdCollectionCount)).toBeUndefined();
    expect(await balanceOf(chain, TREASURY)).toBe(0n);
  });

  it('rolls the deposit back when a later check fails', async () => {
    const chain = await fundedChain();
    const before = await balanceOf(chain, ALICE);
    expect(await chain.error(ALICE, 'unique.createCollectionEx', { data: collectionData({ adminList: [BOB, CHARLIE, DAVE, EVE, FERDIE, ALICE] }) })).toBe(
      'common.CollectionAdminCountExceeded'
    );
    expect(await balanceOf(chain, ALICE)).toBe(before);
    expect(await balanceOf(chain, TREASURY)).toBe(0n);
  });

  describe('decimals', () => {
    it('allows 0 to 30 for a Fungible collection', async () => {
      const chain = await fundedChain();
      await createCollection(chain, ALICE, { mode: 'Fungible', decimals: 30 });
      expect((await mustGetCollection(chain, 1)).decimals).toBe(30);
      const f = await failure(chain, ALICE, 'unique.createCollectionEx', { data: collectionData({ mode: 'Fungible', decimals: 31 }) });
      expect(f.name).toBe('unique.CollectionDecimalPointLimitExceeded');
      expect(f.message).toContain('31');
    });

    it('ignores decimals of an NFT collection (stored as 0)', async () => {
      const chain = await fundedChain();
      await createCollection(chain, ALICE, { mode: 'NFT', decimals: 99 });
      expect((await mustGetCollection(chain, 1)).decimals).toBe(0);
    });

    it('is checked before the name', async () => {
      const chain = await fundedChain();
      expect(
        await chain.error(ALICE, 'unique.createCollectionEx', { data: collectionData({ mode: 'Fungible', decimals: 31, name: 'x'.repeat(65) }) })
      ).toBe('unique.CollectionDecimalPointLimitExceeded');
    });
  });

  describe('name and description (UTF-16 code units)', () => {
    it('allows a 64-unit name and refuses 65', async () => {
      const chain = await fundedChain();
      await createCollection(chain, ALICE, { name: 'n'.repeat(64) });
      const f = await failure(chain, ALICE, 'unique.createCollectionEx', { data: collectionData({ name: 'n'.repeat(65) }) });
      expect(f).toEqual({ name: 'common.CollectionNameLimitExceeded', message: expect.stringContaining('65') });
    });

    it('counts an astral character as 2 units', async () => {
      const chain = await fundedChain();
      await createCollection(chain, ALICE, { name: '😀'.repeat(32) });
      expect(await chain.error(ALICE, 'unique.createCollectionEx', { data: collectionData({ name: '😀'.repeat(32) + 'x' }) })).toBe(
        'common.CollectionNameLimitExceeded'
      );
    });

    it('allows a 256-unit description and refuses 257', async () => {
      const chain = await fundedChain();
      await createCollection(chain, ALICE, { description: 'd'.repeat(256) });
      expect(await chain.error(ALICE, 'unique.createCollectionEx', { data: collectionData({ description: 'd'.repeat(257) }) })).toBe(
        'common.CollectionDescriptionLimitExceeded'
      );
    });

    it('checks the name before the deposit', async () => {
      const chain = await fundedChain();
      expect(await chain.error(FERDIE, 'unique.createCollectionEx', { data: collectionData({ name: 'n'.repeat(65) }) })).toBe(
        'common.CollectionNameLimitExceeded'
      );
    });
  });

  describe('token prefix', () => {
    it('spec: at most 4 characters (code points)', async () => {
      const chain = await fundedChain('spec');
      await createCollection(chain, ALICE, { tokenPrefix: 'ABCD' });
      await createCollection(chain, ALICE, { tokenPrefix: '😀😀😀😀' }); // 4 characters, 16 bytes
      for (const prefix of ['ABCDE', 'A'.repeat(16)]) {
        const f = await failure(chain, ALICE, 'unique.createCollectionEx', { data: collectionData({ tokenPrefix: prefix }) });
        expect(f.name).toBe('common.CollectionTokenPrefixLimitExceeded');
        expect(f.message).toContain(prefix);
      }
    });

    it('unique: at most 16 bytes of UTF-8', async () => {
      const chain = await fundedChain('unique');
      await createCollection(chain, ALICE, { tokenPrefix: 'A'.repeat(16) });
      await createCollection(chain, ALICE, { tokenPrefix: 'é'.repeat(8) }); // 16 bytes
      for (const prefix of ['A'.repeat(17), 'é'.repeat(8) + 'A', '😀😀😀😀A']) {
        expect(await chain.error(ALICE, 'unique.createCollectionEx', { data: collectionData({ tokenPrefix: prefix }) })).toBe(
          'common.CollectionTokenPrefixLimitExceeded'
        );
      }
    });

    it('is checked before the deposit', async () => {
      const chain = await fundedChain();
      expect(await chain.error(FERDIE, 'unique.createCollectionEx', { data: collectionData({ tokenPrefix: 'A'.repeat(17) }) })).toBe(
        'common.CollectionTokenPrefixLimitExceeded'
      );
    });
  });

  it('refuses readOnly: true with NoPermission (the chain lets no user create an external collection)', async () => {
    const chain = await fundedChain();
    const f = await failure(chain, ALICE, 'unique.createCollectionEx', { data: collectionData({ readOnly: true }) });
    expect(f.name).toBe('common.NoPermission');
    expect(f.message).toContain('read-only');
    await createCollection(chain, ALICE, { readOnly: false });
    expect((await mustGetCollection(chain, 1)).readOnly).toBe(false);
  });

  it('refuses a collection beyond 100 000 alive ones (TotalCollectionsLimitExceeded)', async () => {
    const chain = await fundedChain();
    await chain.store.write(async (tx) => {
      await tx.put('meta', { key: META.createdCollectionCount, value: 100_000 });
    });
    expect(await chain.error(ALICE, 'unique.createCollectionEx', { data: collectionData() })).toBe('common.TotalCollectionsLimitExceeded');
    await chain.store.write(async (tx) => {
      await tx.put('meta', { key: META.destroyedCollectionCount, value: 1 });
    });
    expect(await createCollection(chain)).toBe(100_001);
  });

  describe('limits', () => {
    it('stores the given limits as given, nulls for the rest', async () => {
      const chain = await fundedChain();
      await createCollection(chain, ALICE, { limits: { tokenLimit: 10, ownerCanDestroy: false, sponsorApproveTimeout: null } });
      expect((await mustGetCollection(chain, 1)).limits).toEqual({ ...EMPTY_LIMITS, tokenLimit: 10, ownerCanDestroy: false });
    });

    it('runs the set-limits clamp against all-null limits', async () => {
      const chain = await fundedChain();
      expect(await chain.error(ALICE, 'unique.createCollectionEx', { data: collectionData({ limits: { tokenLimit: 0 } }) })).toBe(
        'common.CollectionTokenLimitExceeded'
      );
      expect(
        await chain.error(ALICE, 'unique.createCollectionEx', { data: collectionData({ limits: { accountTokenOwnershipLimit: 100_000_001 } }) })
      ).toBe('common.CollectionLimitBoundsExceeded');
      expect(await chain.error(ALICE, 'unique.createCollectionEx', { data: collectionData({ limits: { sponsoredDataSize: 2049 } }) })).toBe(
        'common.CollectionLimitBoundsExceeded'
      );
      await createCollection(chain, ALICE, { limits: { tokenLimit: 4_294_967_295, ownerCanTransfer: true } });
    });
  });

  describe('permissions', () => {
    it('fills defaults for missing fields', async () => {
      const chain = await fundedChain();
      await createCollection(chain, ALICE, { permissions: { mintMode: true } });
      expect((await mustGetCollection(chain, 1)).permissions).toEqual({
        access: 'Normal',
        mintMode: true,
        nesting: { tokenOwner: false, collectionAdmin: false, restricted: null }
      });
    });

    it('fills missing nesting flags with false and stores restricted sorted without duplicates', async () => {
      const chain = await fundedChain();
      await createCollection(chain, ALICE, { permissions: { access: 'AllowList', nesting: { tokenOwner: true, restricted: [7, 3, 7, 1] } } });
      expect((await mustGetCollection(chain, 1)).permissions).toEqual({
        access: 'AllowList',
        mintMode: false,
        nesting: { tokenOwner: true, collectionAdmin: false, restricted: [1, 3, 7] }
      });
    });

    it('takes the top-level access when permissions do not give one', async () => {
      const chain = await fundedChain();
      await createCollection(chain, ALICE, { access: 'AllowList' });
      expect((await mustGetCollection(chain, 1)).permissions.access).toBe('AllowList');
      await createCollection(chain, ALICE, { access: 'AllowList', permissions: { access: 'Normal' } });
      expect((await mustGetCollection(chain, 2)).permissions.access).toBe('Normal');
    });
  });

  describe('properties', () => {
    it('stores them sorted by key; a duplicate key overwrites', async () => {
      const chain = await fundedChain();
      await createCollection(chain, ALICE, {
        properties: [
          { key: 'b', value: '1' },
          { key: 'a', value: '2' },
          { key: 'b', value: '3' }
        ]
      });
      expect((await mustGetCollection(chain, 1)).properties).toEqual([
        { key: 'a', value: '2' },
        { key: 'b', value: '3' }
      ]);
    });

    it('checks keys', async () => {
      const chain = await fundedChain();
      expect(await chain.error(ALICE, 'unique.createCollectionEx', { data: collectionData({ properties: [{ key: 'a b', value: '' }] }) })).toBe(
        'common.InvalidCharacterInPropertyKey'
      );
      expect(await chain.error(ALICE, 'unique.createCollectionEx', { data: collectionData({ properties: [{ key: '', value: '' }] }) })).toBe(
        'common.EmptyPropertyKey'
      );
    });

    it('allows 64 keys and refuses a 65th', async () => {
      const chain = await fundedChain();
      const props = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: 'v' }));
      await createCollection(chain, ALICE, { properties: props(64) });
      expect(await chain.error(ALICE, 'unique.createCollectionEx', { data: collectionData({ properties: props(65) }) })).toBe(
        'common.PropertyLimitReached'
      );
    });

    it('refuses more than 40 960 bytes', async () => {
      const chain = await fundedChain();
      const big = 'x'.repeat(20_480); // each pair costs 1 + 1 + 4 + 20 480 = 20 486
      expect(
        await chain.error(ALICE, 'unique.createCollectionEx', {
          data: collectionData({
            properties: [
              { key: 'a', value: big },
              { key: 'b', value: big }
            ]
          })
        })
      ).toBe('common.NoSpaceForProperty');
    });
  });

  describe('token property permissions', () => {
    it('stores them sorted, omitted flags false, and emits no event for them', async () => {
      const chain = await fundedChain();
      const events = await chain.ok(ALICE, 'unique.createCollectionEx', {
        data: collectionData({
          tokenPropertyPermissions: [
            { key: 'n', permission: { mutable: false, collectionAdmin: true, tokenOwner: false } },
            { key: 'a', permission: { collectionAdmin: true } as never }
          ]
        })
      });
      expect(events.map((e) => e.method)).toEqual(['CollectionCreated']);
      expect((await mustGetCollection(chain, 1)).tokenPropertyPermissions).toEqual([
        { key: 'a', permission: { mutable: false, collectionAdmin: true, tokenOwner: false } },
        { key: 'n', permission: { mutable: false, collectionAdmin: true, tokenOwner: false } }
      ]);
    });

    it('checks keys and the 64-key bound', async () => {
      const chain = await fundedChain();
      const perm = { mutable: true, collectionAdmin: true, tokenOwner: false };
      expect(
        await chain.error(ALICE, 'unique.createCollectionEx', { data: collectionData({ tokenPropertyPermissions: [{ key: 'é', permission: perm }] }) })
      ).toBe('common.InvalidCharacterInPropertyKey');
      const tpp = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, permission: perm }));
      await createCollection(chain, ALICE, { tokenPropertyPermissions: tpp(64) });
      expect(await chain.error(ALICE, 'unique.createCollectionEx', { data: collectionData({ tokenPropertyPermissions: tpp(65) }) })).toBe(
        'common.PropertyLimitReached'
      );
    });
  });

  describe('admin list', () => {
    it('ignores duplicates, keeps order, allows the owner, and emits no admin events', async () => {
      const chain = await fundedChain();
      const events = await chain.ok(ALICE, 'unique.createCollectionEx', { data: collectionData({ adminList: [BOB, CHARLIE, BOB, ALICE] }) });
      expect(events).toHaveLength(1);
      expect((await mustGetCollection(chain, 1)).admins).toEqual([BOB, CHARLIE, ALICE]);
    });

    it('allows 5 distinct admins and refuses 6', async () => {
      const chain = await fundedChain();
      await createCollection(chain, ALICE, { adminList: [BOB, CHARLIE, DAVE, EVE, ALICE, BOB] });
      const f = await failure(chain, ALICE, 'unique.createCollectionEx', { data: collectionData({ adminList: [BOB, CHARLIE, DAVE, EVE, ALICE, FERDIE] }) });
      expect(f.name).toBe('common.CollectionAdminCountExceeded');
    });
  });

  it('turns pendingSponsor into an unconfirmed sponsorship', async () => {
    const chain = await fundedChain();
    await createCollection(chain, ALICE, { pendingSponsor: BOB });
    expect((await mustGetCollection(chain, 1)).sponsorship).toEqual({ address: BOB, isConfirmed: false });
  });

  it.each(RULE_SET_NAMES)('%s: works the same in both rule sets for a plain collection', async (rules) => {
    const chain = new TestChain(rules);
    await chain.fund(ALICE);
    expect(await createCollection(chain)).toBe(1);
  });
});
