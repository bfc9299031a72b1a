import { describe, expect, it } from 'vitest';
import { ETHEREUM_ZERO, MAX_ITEMS_PER_BATCH } from '../constants';
import type { RuleSetName } from '../rules';
import { ALICE, BOB, CHARLIE, DAVE, TestChain } from '../testing/harness';
import { addr, allow, getCollection, getToken, mint, names, putCollection } from './fixtures';

const RULES: RuleSetName[] = ['spec', 'unique'];

describe.each(RULES)('minting, rules shared by both rule sets (%s)', (rules) => {
  it('mints consecutive ids from 1, owned by the recipient, with ItemCreated events', async () => {
    const chain = new TestChain(rules);
    await putCollection(chain);
    const events = await chain.ok(ALICE, 'unique.createItem', { collectionId: 1, owner: BOB, properties: [] });
    expect(events).toEqual([{ section: 'common', method: 'ItemCreated', data: { collectionId: 1, tokenId: 1, owner: BOB, amount: 1 } }]);
    const batch = await chain.ok(ALICE, 'unique.createMultipleItemsEx', {
      collectionId: 1,
      items: [
        { owner: CHARLIE, properties: [] },
        { owner: BOB, properties: [] }
      ]
    });
    expect(batch.map((e) => [e.data.tokenId, e.data.owner])).toEqual([
      [2, CHARLIE],
      [3, BOB]
    ]);
    expect(await getToken(chain, 1, 2)).toEqual({ collectionId: 1, tokenId: 2, owner: CHARLIE, properties: [] });
    expect((await getCollection(chain, 1))?.tokensMinted).toBe(3);
  });

  it('lets an admin mint without mintMode, and the owner mint to anyone even with an allow-list', async () => {
    const chain = new TestChain(rules);
    await putCollection(chain, { admins: [BOB], permissions: { access: 'AllowList' } });
    await chain.ok(BOB, 'unique.createItem', { collectionId: 1, owner: CHARLIE, properties: [] });
    await chain.ok(ALICE, 'unique.createItem', { collectionId: 1, owner: DAVE, properties: [] });
  });

  it('fails with CollectionNotFound, UnsupportedOperation (id 0), CollectionIsExternal, and the mode\'s error for NFT data elsewhere', async () => {
    const chain = new TestChain(rules);
    await putCollection(chain);
    await putCollection(chain, { id: 2, mode: 'Fungible', decimals: 6 });
    await putCollection(chain, { id: 3, mode: 'ReFungible' });
    await putCollection(chain, { id: 4, readOnly: true });
    expect(await chain.error(ALICE, 'unique.createItem', { collectionId: 9, owner: BOB, properties: [] })).toBe('common.CollectionNotFound');
    expect(await chain.error(ALICE, 'unique.createItem', { collectionId: 0, owner: BOB, properties: [] })).toBe('common.UnsupportedOperation');
    expect(await chain.error(ALICE, 'unique.createItem', { collectionId: 4, owner: BOB, properties: [] })).toBe('common.CollectionIsExternal');
    const r = await chain.call(ALICE, 'unique.createItem', { collectionId: 2, owner: BOB, properties: [] });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(`${r.error.section}.${r.error.errorName}`).toBe('common.NotFungibleDataUsedToMintFungibleCollectionToken');
      expect(r.error.message).toBe('Collection 2 is Fungible: only Fungible item data can mint in it, not NFT data');
    }
    expect(await chain.error(ALICE, 'unique.createMultipleItemsEx', { collectionId: 3, items: [] })).toBe('refungible.NotRefungibleDataUsedToMintFungibleCollectionToken');
    expect(await chain.error(ALICE, 'unique.createItem', { collectionId: 1, owner: BOB, properties: [], kind: 'Fungible', amount: 1n })).toBe(
      'nonfungible.NotNonfungibleDataUsedToMintFungibleCollectionToken'
    );
  });

  it('createMultipleItems mints one token per NFT item to the one owner; other item data is refused', async () => {
    const chain = new TestChain(rules);
    await putCollection(chain);
    await chain.ok(ALICE, 'unique.createMultipleItems', { collectionId: 1, owner: BOB, items: [{ properties: [] }, { properties: [] }] });
    expect((await getToken(chain, 1, 2))?.owner).toBe(BOB);
    expect(await chain.error(ALICE, 'unique.createMultipleItems', { collectionId: 1, owner: BOB, items: [{ properties: [], kind: 'ReFungible', amount: 1n }] })).toBe(
      'nonfungible.NotNonfungibleDataUsedToMintFungibleCollectionToken'
    );
  });

  it('rejects minting to the Ethereum zero address', async () => {
    const chain = new TestChain(rules);
    await putCollection(chain);
    expect(await chain.error(ALICE, 'unique.createItem', { collectionId: 1, owner: ETHEREUM_ZERO, properties: [] })).toBe('common.AddressIsZero');
  });

  it('mintMode false: a stranger gets PublicMintingNotAllowed, whatever the access', async () => {
    const chain = new TestChain(rules);
    await putCollection(chain, { id: 1 });
    await putCollection(chain, { id: 2, permissions: { access: 'AllowList' } });
    await allow(chain, 2, BOB);
    expect(await chain.error(BOB, 'unique.createItem', { collectionId: 1, owner: BOB, properties: [] })).toBe('common.PublicMintingNotAllowed');
    expect(await chain.error(BOB, 'unique.createItem', { collectionId: 2, owner: BOB, properties: [] })).toBe('common.PublicMintingNotAllowed');
  });

  it('counts burned tokens against tokenLimit: limit 3, 2 mints, 1 burn -> exactly 1 more', async () => {
    const chain = new TestChain(rules);
    await putCollection(chain, { limits: { tokenLimit: 3 } });
    await mint(chain, 1, ALICE);
    await mint(chain, 1, ALICE);
    await chain.ok(ALICE, 'unique.burnItem', { collectionId: 1, tokenId: 1, value: 1n });
    expect(await chain.error(ALICE, 'unique.createMultipleItemsEx', { collectionId: 1, items: [{ owner: ALICE, properties: [] }, { owner: ALICE, properties: [] }] })).toBe(
      'common.CollectionTokenLimitExceeded'
    );
    expect((await getCollection(chain, 1))?.tokensMinted).toBe(2);
    expect(await mint(chain, 1, ALICE)).toBe(3);
    expect(await chain.error(ALICE, 'unique.createItem', { collectionId: 1, owner: ALICE, properties: [] })).toBe('common.CollectionTokenLimitExceeded');
  });

  it('checks accountTokenOwnershipLimit per recipient, counting the tokens of the batch', async () => {
    const chain = new TestChain(rules);
    await putCollection(chain, { limits: { accountTokenOwnershipLimit: 2 } });
    await mint(chain, 1, BOB);
    expect(
      await chain.error(ALICE, 'unique.createMultipleItemsEx', { collectionId: 1, items: [{ owner: BOB, properties: [] }, { owner: BOB, properties: [] }] })
    ).toBe('common.AccountTokenLimitExceeded');
    await chain.ok(ALICE, 'unique.createMultipleItemsEx', { collectionId: 1, items: [{ owner: BOB, properties: [] }, { owner: CHARLIE, properties: [] }] });
    expect(await chain.error(ALICE, 'unique.createItem', { collectionId: 1, owner: BOB, properties: [] })).toBe('common.AccountTokenLimitExceeded');
  });

  it('is not blocked by transfersEnabled = false', async () => {
    const chain = new TestChain(rules);
    await putCollection(chain, { limits: { transfersEnabled: false }, permissions: { nesting: { tokenOwner: true } } });
    await mint(chain, 1, ALICE);
    await chain.ok(ALICE, 'unique.createItem', { collectionId: 1, owner: addr(1, 1), properties: [] });
  });

  it('rejects batches over MAX_ITEMS_PER_BATCH; an empty createMultipleItemsEx mints nothing', async () => {
    const chain = new TestChain(rules);
    await putCollection(chain);
    const items = Array.from({ length: MAX_ITEMS_PER_BATCH + 1 }, () => ({ owner: BOB, properties: [] }));
    expect(await chain.error(ALICE, 'unique.createMultipleItemsEx', { collectionId: 1, items })).toBe('unique.TooManyItems');
    await chain.ok(ALICE, 'unique.createMultipleItemsEx', { collectionId: 1, items: items.slice(1) });
    expect((await getCollection(chain, 1))?.tokensMinted).toBe(MAX_ITEMS_PER_BATCH);
    expect(await chain.ok(ALICE, 'unique.createMultipleItemsEx', { collectionId: 1, items: [] })).toEqual([]);
  });

  it('writes properties: TokenPropertySet events for every token first, then ItemCreated', async () => {
    const chain = new TestChain(rules);
    await putCollection(chain, { tokenPropertyPermissions: { n: { collectionAdmin: true }, a: { collectionAdmin: true, mutable: true } } });
    const events = await chain.ok(ALICE, 'unique.createMultipleItemsEx', {
      collectionId: 1,
      items: [
        { owner: BOB, properties: [{ key: 'n', value: 'one' }, { key: 'a', value: 'x' }] },
        { owner: CHARLIE, properties: [{ key: 'n', value: 'two' }] }
      ]
    });
    expect(names(events)).toEqual(['common.TokenPropertySet', 'common.TokenPropertySet', 'common.TokenPropertySet', 'common.ItemCreated', 'common.ItemCreated']);
    expect(events[0].data).toEqual({ collectionId: 1, tokenId: 1, propertyKey: 'n' });
    expect(events[2].data).toEqual({ collectionId: 1, tokenId: 2, propertyKey: 'n' });
    // Stored sorted by key.
    expect((await getToken(chain, 1, 1))?.properties).toEqual([
      { key: 'a', value: 'x' },
      { key: 'n', value: 'one' }
    ]);
  });

  it('property rights at mint: token-owner keys only when minting to oneself, admin keys only for owner/admin', async () => {
    const chain = new TestChain(rules);
    await putCollection(chain, {
      permissions: { mintMode: true },
      tokenPropertyPermissions: { own: { tokenOwner: true }, adm: { collectionAdmin: true } }
    });
    await allow(chain, 1, BOB, CHARLIE);
    await chain.ok(BOB, 'unique.createItem', { collectionId: 1, owner: BOB, properties: [{ key: 'own', value: '1' }] });
    expect(await chain.error(BOB, 'unique.createItem', { collectionId: 1, owner: CHARLIE, properties: [{ key: 'own', value: '1' }] })).toBe('common.NoPermission');
    expect(await chain.error(BOB, 'unique.createItem', { collectionId: 1, owner: BOB, properties: [{ key: 'adm', value: '1' }] })).toBe('common.NoPermission');
    expect(await chain.error(ALICE, 'unique.createItem', { collectionId: 1, owner: BOB, properties: [{ key: 'own', value: '1' }] })).toBe('common.NoPermission');
    await chain.ok(ALICE, 'unique.createItem', { collectionId: 1, owner: BOB, properties: [{ key: 'adm', value: '1' }] });
    const r = await chain.call(ALICE, 'unique.createItem', { collectionId: 1, owner: BOB, properties: [{ key: 'undeclared', value: '1' }] });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.errorName).toBe('NoPermission');
      expect(r.error.message).toMatch(/set a token property permission for it first/);
    }
  });

  it('is atomic: createMultipleItemsEx with one bad item mints nothing', async () => {
    const chain = new TestChain(rules);
    await putCollection(chain, { tokenPropertyPermissions: { n: { collectionAdmin: true } } });
    const r = await chain.call(ALICE, 'unique.createMultipleItemsEx', {
      collectionId: 1,
      items: [
        { owner: BOB, properties: [{ key: 'n', value: 'ok' }] },
        { owner: BOB, properties: [] },
        { owner: CHARLIE, properties: [{ key: 'nope', value: 'bad' }] }
      ]
    });
    expect(r.ok).toBe(false);
    expect(r.events).toEqual([]);
    expect(await getToken(chain, 1, 1)).toBeUndefined();
    expect(await getToken(chain, 1, 2)).toBeUndefined();
    expect((await getCollection(chain, 1))?.tokensMinted).toBe(0);
    expect(await mint(chain, 1, BOB)).toBe(1);
  });

  it('mints into a token: nesting check with the minter as depositor, parent fields set', async () => {
    const chain = new TestChain(rules);
    await putCollection(chain, { permissions: { nesting: { tokenOwner: true } } });
    await mint(chain, 1, BOB);
    // ALICE is not the topmost owner of token 1 (BOB is): not allowed.
    expect(await chain.error(ALICE, 'unique.createItem', { collectionId: 1, owner: addr(1, 1), properties: [] })).toBe('common.UserIsNotAllowedToNest');
    await mint(chain, 1, ALICE);
    const ok = await chain.ok(ALICE, 'unique.createItem', { collectionId: 1, owner: addr(1, 2), properties: [] });
    expect(ok[0].data).toEqual({ collectionId: 1, tokenId: 3, owner: addr(1, 2), amount: 1 });
    expect(await getToken(chain, 1, 3)).toMatchObject({ owner: addr(1, 2), parentCollectionId: 1, parentTokenId: 2 });
    // Minting into the token being minted is a cycle.
    expect(await chain.error(ALICE, 'unique.createItem', { collectionId: 1, owner: addr(1, 4), properties: [] })).toBe('structure.OuroborosDetected');
    // A later item of the batch is not there yet when the earlier items are checked.
    expect(
      await chain.error(ALICE, 'unique.createMultipleItemsEx', { collectionId: 1, items: [{ owner: addr(1, 5), properties: [] }, { owner: ALICE, properties: [] }] })
    ).toBe('structure.TokenNotFound');
  });

  it('shares the nesting budget: 5 mints into one root token in one call pass, the 6th fails', async () => {
    const chain = new TestChain(rules);
    await putCollection(chain, { permissions: { nesting: { tokenOwner: true } } });
    await mint(chain, 1, ALICE);
    const items = (n: number) => Array.from({ length: n }, () => ({ owner: addr(1, 1), properties: [] }));
    expect(await chain.error(ALICE, 'unique.createMultipleItemsEx', { collectionId: 1, items: items(6) })).toBe('structure.DepthLimit');
    await chain.ok(ALICE, 'unique.createMultipleItemsEx', { collectionId: 1, items: items(5) });
  });
});

describe('public minting in the spec rule set (mintMode, and a listed signer only with AllowList)', () => {
  it('mintMode true with access Normal: anyone mints to anyone, no allow-list needed', async () => {
    const chain = new TestChain('spec');
    await putCollection(chain, { permissions: { mintMode: true } });
    await chain.ok(BOB, 'unique.createItem', { collectionId: 1, owner: CHARLIE, properties: [] });
  });

  it('mintMode true with access AllowList: the signer must be listed, recipients need not be', async () => {
    const chain = new TestChain('spec');
    await putCollection(chain, { permissions: { mintMode: true, access: 'AllowList' } });
    expect(await chain.error(BOB, 'unique.createItem', { collectionId: 1, owner: BOB, properties: [] })).toBe('common.AddressNotInAllowlist');
    await allow(chain, 1, BOB);
    await chain.ok(BOB, 'unique.createItem', { collectionId: 1, owner: CHARLIE, properties: [] });
  });
});

describe('public minting in the unique rule set (mintMode, then signer and every recipient listed, always)', () => {
  it('access Normal still needs the signer listed', async () => {
    const chain = new TestChain('unique');
    await putCollection(chain, { permissions: { mintMode: true } });
    expect(await chain.error(BOB, 'unique.createItem', { collectionId: 1, owner: BOB, properties: [] })).toBe('common.AddressNotInAllowlist');
  });

  it('every recipient must be listed too', async () => {
    const chain = new TestChain('unique');
    await putCollection(chain, { permissions: { mintMode: true, access: 'AllowList' } });
    await allow(chain, 1, BOB);
    await chain.ok(BOB, 'unique.createItem', { collectionId: 1, owner: BOB, properties: [] });
    const r = await chain.call(BOB, 'unique.createMultipleItemsEx', { collectionId: 1, items: [{ owner: BOB, properties: [] }, { owner: CHARLIE, properties: [] }] });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.errorName).toBe('AddressNotInAllowlist');
      expect(r.error.message).toContain(CHARLIE);
    }
    await allow(chain, 1, CHARLIE);
    await chain.ok(BOB, 'unique.createMultipleItemsEx', { collectionId: 1, items: [{ owner: BOB, properties: [] }, { owner: CHARLIE, properties: [] }] });
  });

  it('the owner needs no listing (nor do its recipients)', async () => {
    const chain = new TestChain('unique');
    await putCollection(chain, { permissions: { access: 'AllowList' } });
    await chain.ok(ALICE, 'unique.createItem', { collectionId: 1, owner: DAVE, properties: [] });
  });
});
