import { describe, expect, it } from 'vitest';
import type { RuleSetName } from '../rules';
import { ALICE, BOB, CHARLIE, TestChain } from '../testing/harness';
import { addr, getToken, mint, names, putCollection } from './fixtures';

const RULES: RuleSetName[] = ['spec', 'unique'];
const set = (collectionId: number, tokenId: number, properties: { key: string; value: string }[]) => ({ collectionId, tokenId, properties });
const del = (collectionId: number, tokenId: number, propertyKeys: string[]) => ({ collectionId, tokenId, propertyKeys });

describe.each(RULES)('token properties (%s)', (rules) => {
  async function setup() {
    const chain = new TestChain(rules);
    await putCollection(chain, {
      admins: [CHARLIE],
      permissions: { nesting: { tokenOwner: true } },
      tokenPropertyPermissions: {
        adm: { mutable: true, collectionAdmin: true },
        own: { mutable: true, tokenOwner: true },
        both: { mutable: true, collectionAdmin: true, tokenOwner: true },
        frozen: { mutable: false, collectionAdmin: true, tokenOwner: true },
        nobody: { mutable: true }
      }
    });
    await mint(chain, 1, BOB); // token 1, owned by BOB
    return chain;
  }

  it('checks unique.EmptyArgument first, then the collection', async () => {
    const chain = await setup();
    expect(await chain.error(BOB, 'unique.setTokenProperties', set(99, 1, []))).toBe('unique.EmptyArgument');
    expect(await chain.error(BOB, 'unique.deleteTokenProperties', del(99, 1, []))).toBe('unique.EmptyArgument');
    expect(await chain.error(BOB, 'unique.setTokenProperties', set(99, 1, [{ key: 'own', value: 'x' }]))).toBe('common.CollectionNotFound');
  });

  it('refuses an undeclared key with NoPermission that says a permission is needed first', async () => {
    const chain = await setup();
    const r = await chain.call(ALICE, 'unique.setTokenProperties', set(1, 1, [{ key: 'undeclared', value: 'x' }]));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(`${r.error.section}.${r.error.errorName}`).toBe('common.NoPermission');
      expect(r.error.message).toMatch(/"undeclared".*no token property permission.*collection 1.*first/);
    }
    // An invalid key is just another undeclared key on a token.
    expect(await chain.error(ALICE, 'unique.setTokenProperties', set(1, 1, [{ key: 'bad key', value: 'x' }]))).toBe('common.NoPermission');
  });

  it('follows the truth table of who may write', async () => {
    const chain = await setup();
    const can = async (signer: string, key: string) => (await chain.call(signer, 'unique.setTokenProperties', set(1, 1, [{ key, value: signer }]))).ok;
    // collectionAdmin only: owner and admins.
    expect([await can(ALICE, 'adm'), await can(CHARLIE, 'adm'), await can(BOB, 'adm')]).toEqual([true, true, false]);
    // tokenOwner only: the token owner.
    expect([await can(ALICE, 'own'), await can(CHARLIE, 'own'), await can(BOB, 'own')]).toEqual([false, false, true]);
    // Both.
    expect([await can(ALICE, 'both'), await can(BOB, 'both'), await can(CHARLIE, 'both')]).toEqual([true, true, true]);
    // Neither.
    expect([await can(ALICE, 'nobody'), await can(BOB, 'nobody')]).toEqual([false, false]);
    expect(await chain.error(BOB, 'unique.setTokenProperties', set(1, 1, [{ key: 'nobody', value: '1' }]))).toBe('common.NoPermission');
  });

  it('sets and deletes with one event per key; deleting an absent key succeeds and still emits', async () => {
    const chain = await setup();
    const events = await chain.ok(BOB, 'unique.setTokenProperties', set(1, 1, [{ key: 'own', value: '1' }, { key: 'both', value: '2' }]));
    expect(names(events)).toEqual(['common.TokenPropertySet', 'common.TokenPropertySet']);
    expect(events[1].data).toEqual({ collectionId: 1, tokenId: 1, propertyKey: 'both' });
    expect((await getToken(chain, 1, 1))?.properties).toEqual([
      { key: 'both', value: '2' },
      { key: 'own', value: '1' }
    ]);
    const deleted = await chain.ok(BOB, 'unique.deleteTokenProperties', del(1, 1, ['own', 'both']));
    expect(deleted.map((e) => [e.method, e.data.propertyKey])).toEqual([
      ['TokenPropertyDeleted', 'own'],
      ['TokenPropertyDeleted', 'both']
    ]);
    expect((await getToken(chain, 1, 1))?.properties).toEqual([]);
    expect(names(await chain.ok(BOB, 'unique.deleteTokenProperties', del(1, 1, ['own'])))).toEqual(['common.TokenPropertyDeleted']);
  });

  it('an immutable key can be written once, then neither changed nor deleted', async () => {
    const chain = await setup();
    await chain.ok(BOB, 'unique.setTokenProperties', set(1, 1, [{ key: 'frozen', value: '1' }]));
    const r = await chain.call(ALICE, 'unique.setTokenProperties', set(1, 1, [{ key: 'frozen', value: '2' }]));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/immutable and already set/);
    expect(await chain.error(BOB, 'unique.deleteTokenProperties', del(1, 1, ['frozen']))).toBe('common.NoPermission');
    // Also within one call.
    await mint(chain, 1, BOB);
    expect(await chain.error(BOB, 'unique.setTokenProperties', set(1, 2, [{ key: 'frozen', value: '1' }, { key: 'frozen', value: '2' }]))).toBe('common.NoPermission');
    // Set at mint, then frozen.
    await chain.ok(ALICE, 'unique.createItem', { collectionId: 1, owner: BOB, properties: [{ key: 'frozen', value: 'mint' }] });
    expect(await chain.error(ALICE, 'unique.setTokenProperties', set(1, 3, [{ key: 'frozen', value: 'again' }]))).toBe('common.NoPermission');
  });

  it('is atomic: a failing key rolls back the keys before it', async () => {
    const chain = await setup();
    const r = await chain.call(BOB, 'unique.setTokenProperties', set(1, 1, [{ key: 'own', value: '1' }, { key: 'adm', value: '2' }]));
    expect(r.ok).toBe(false);
    expect((await getToken(chain, 1, 1))?.properties).toEqual([]);
  });

  it('on a missing token: permission first, then common.TokenNotFound or structure.TokenNotFound', async () => {
    const chain = await setup();
    // Owner/admin branch passes → existence check.
    expect(await chain.error(ALICE, 'unique.setTokenProperties', set(1, 9, [{ key: 'adm', value: '1' }]))).toBe('common.TokenNotFound');
    // Token-owner branch walks the (missing) token first.
    expect(await chain.error(BOB, 'unique.setTokenProperties', set(1, 9, [{ key: 'own', value: '1' }]))).toBe('structure.TokenNotFound');
    // No branch can pass → NoPermission.
    expect(await chain.error(BOB, 'unique.setTokenProperties', set(1, 9, [{ key: 'adm', value: '1' }]))).toBe('common.NoPermission');
    expect(await chain.error(BOB, 'unique.deleteTokenProperties', del(1, 9, ['nobody']))).toBe('common.NoPermission');
  });

  it('lets the topmost owner of a nested token write its token-owner keys', async () => {
    const chain = await setup();
    await chain.ok(ALICE, 'unique.createItem', { collectionId: 1, owner: BOB, properties: [] }); // token 2, BOB's
    await chain.ok(BOB, 'unique.transfer', { to: addr(1, 1), collectionId: 1, tokenId: 2, value: 1n });
    await chain.ok(BOB, 'unique.setTokenProperties', set(1, 2, [{ key: 'own', value: 'nested' }]));
    expect(await chain.error(CHARLIE, 'unique.setTokenProperties', set(1, 2, [{ key: 'own', value: 'x' }]))).toBe('common.NoPermission');
    // After the root moves, the new topmost owner has the right.
    await chain.ok(BOB, 'unique.transfer', { to: CHARLIE, collectionId: 1, tokenId: 1, value: 1n });
    await chain.ok(CHARLIE, 'unique.setTokenProperties', set(1, 2, [{ key: 'own', value: 'x' }]));
    expect(await chain.error(BOB, 'unique.setTokenProperties', set(1, 2, [{ key: 'own', value: 'y' }]))).toBe('common.NoPermission');
  });

  it('counts the 32 768-byte space with compact prefixes (NoSpaceForProperty)', async () => {
    const chain = await setup();
    // key "adm" (3 bytes): cost = 1 + 3 + 4 + v for v >= 16 384.
    expect(await chain.error(ALICE, 'unique.setTokenProperties', set(1, 1, [{ key: 'adm', value: 'a'.repeat(32_761) }]))).toBe('common.NoSpaceForProperty');
    await chain.ok(ALICE, 'unique.setTokenProperties', set(1, 1, [{ key: 'adm', value: 'a'.repeat(32_760) }]));
    // Deleting gives the space back.
    await chain.ok(ALICE, 'unique.deleteTokenProperties', del(1, 1, ['adm']));
    await chain.ok(ALICE, 'unique.setTokenProperties', set(1, 1, [{ key: 'both', value: 'b'.repeat(16_000) }]));
  });

  it('checks the space before subtracting the value being replaced (chain quirk)', async () => {
    const chain = await setup();
    // Far from the limit, rewriting a 4 KiB value many times is fine.
    for (let i = 0; i < 9; i++) await chain.ok(ALICE, 'unique.setTokenProperties', set(1, 1, [{ key: 'adm', value: String(i).repeat(4096) }]));
    // Near the limit, an equal-size overwrite fails.
    await chain.ok(ALICE, 'unique.setTokenProperties', set(1, 1, [{ key: 'adm', value: 'x'.repeat(20_000) }]));
    expect(await chain.error(ALICE, 'unique.setTokenProperties', set(1, 1, [{ key: 'adm', value: 'y'.repeat(20_000) }]))).toBe('common.NoSpaceForProperty');
    // Two big values at mint.
    expect(
      await chain.error(ALICE, 'unique.createItem', {
        collectionId: 1,
        owner: ALICE,
        properties: [
          { key: 'adm', value: 'a'.repeat(20_000) },
          { key: 'both', value: 'b'.repeat(20_000) }
        ]
      })
    ).toBe('common.NoSpaceForProperty');
  });

  it('allows at most 64 keys per token (PropertyLimitReached) and 64 entries per call', async () => {
    const chain = new TestChain(rules);
    const tpp = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, { mutable: true, collectionAdmin: true }]));
    await putCollection(chain, { tokenPropertyPermissions: tpp });
    await mint(chain, 1, ALICE);
    const props = Array.from({ length: 64 }, (_, i) => ({ key: `k${i}`, value: 'v' }));
    await chain.ok(ALICE, 'unique.setTokenProperties', set(1, 1, props));
    expect(await chain.error(ALICE, 'unique.setTokenProperties', set(1, 1, [{ key: 'k64', value: 'v' }]))).toBe('common.PropertyLimitReached');
    await chain.ok(ALICE, 'unique.setTokenProperties', set(1, 1, [{ key: 'k3', value: 'changed' }]));
    expect(await chain.error(ALICE, 'unique.setTokenProperties', set(1, 1, [...props, { key: 'k0', value: 'v' }]))).toBe('common.PropertyLimitReached');
  });

  it('fails with SettingPropertiesNotAllowed on a Fungible collection', async () => {
    const chain = await setup();
    await putCollection(chain, { id: 2, mode: 'Fungible' });
    expect(await chain.error(ALICE, 'unique.setTokenProperties', set(2, 0, [{ key: 'adm', value: '1' }]))).toBe('fungible.SettingPropertiesNotAllowed');
  });
});
