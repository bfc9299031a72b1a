import { describe, expect, it } from 'vitest';
import { ALICE, BOB, CHARLIE } from '../testing/harness';
import { RULE_SET_NAMES, createCollection, failure, fundedChain, mustGetCollection } from './test-helpers';

async function setup(rules: 'spec' | 'unique' = 'spec') {
  const chain = await fundedChain(rules);
  const id = await createCollection(chain, ALICE, { adminList: [BOB] });
  const propsOf = async () => (await mustGetCollection(chain, id)).properties;
  return { chain, id, propsOf };
}

const keys = (n: number, prefix = 'k') => Array.from({ length: n }, (_, i) => ({ key: `${prefix}${String(i).padStart(2, '0')}`, value: 'v' }));

describe('unique.setCollectionProperties', () => {
  it('rejects an empty list with unique.EmptyArgument before anything else', async () => {
    const { chain } = await setup();
    const f = await failure(chain, CHARLIE, 'unique.setCollectionProperties', { collectionId: 999, properties: [] });
    expect(f.name).toBe('unique.EmptyArgument');
    expect(f.message).toContain('999');
  });

  it('fails with CollectionNotFound for an unknown collection', async () => {
    const { chain } = await setup();
    const f = await failure(chain, ALICE, 'unique.setCollectionProperties', { collectionId: 999, properties: [{ key: 'a', value: 'b' }] });
    expect(f.name).toBe('common.CollectionNotFound');
    expect(f.message).toContain('Collection not found');
  });

  it.each(RULE_SET_NAMES)('%s: owner and admin may set; a stranger gets the specification message', async (rules) => {
    const { chain, id, propsOf } = await setup(rules);
    await chain.ok(ALICE, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: 'a', value: '1' }] });
    await chain.ok(BOB, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: 'b', value: '2' }] });
    expect(await failure(chain, CHARLIE, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: 'c', value: '3' }] })).toEqual({
      name: 'common.NoPermission',
      message: 'Signer is not Collection Owner or Collection Admin'
    });
    expect(await propsOf()).toEqual([
      { key: 'a', value: '1' },
      { key: 'b', value: '2' }
    ]);
  });

  it('emits one CollectionPropertySet per item, in order, and stores sorted by key; a set key is overwritten', async () => {
    const { chain, id, propsOf } = await setup();
    const events = await chain.ok(ALICE, 'unique.setCollectionProperties', {
      collectionId: id,
      properties: [
        { key: 'z.last', value: '1' },
        { key: 'A_first', value: '2' },
        { key: 'z.last', value: '3' }
      ]
    });
    expect(events).toEqual([
      { section: 'common', method: 'CollectionPropertySet', data: { collectionId: id, propertyKey: 'z.last' } },
      { section: 'common', method: 'CollectionPropertySet', data: { collectionId: id, propertyKey: 'A_first' } },
      { section: 'common', method: 'CollectionPropertySet', data: { collectionId: id, propertyKey: 'z.last' } }
    ]);
    expect(await propsOf()).toEqual([
      { key: 'A_first', value: '2' },
      { key: 'z.last', value: '3' }
    ]);
  });

  it('accepts keys of A-Z a-z 0-9 _ - . and an empty value', async () => {
    const { chain, id } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionProperties', {
      collectionId: id,
      properties: [
        { key: '--0x03116e387820CA05', value: '' },
        { key: '-', value: 'x' },
        { key: '451', value: 'x' },
        { key: 'once.in.a.long.long.while...', value: 'x' },
        { key: 'k'.repeat(256), value: 'x' }
      ]
    });
  });

  it('refuses bad keys: EmptyPropertyKey, InvalidCharacterInPropertyKey (naming the key)', async () => {
    const { chain, id } = await setup();
    expect(await chain.error(ALICE, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: '', value: 'x' }] })).toBe(
      'common.EmptyPropertyKey'
    );
    for (const key of ['a b', 'a/b', 'a:b', 'é', 'a@b', 'a#b']) {
      const f = await failure(chain, ALICE, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key, value: 'x' }] });
      expect(f.name).toBe('common.InvalidCharacterInPropertyKey');
      expect(f.message).toContain(key);
    }
  });

  it('is all or nothing: a bad item rolls back the good ones and their events', async () => {
    const { chain, id, propsOf } = await setup();
    const r = await chain.call(ALICE, 'unique.setCollectionProperties', {
      collectionId: id,
      properties: [
        { key: 'good', value: '1' },
        { key: 'bad key', value: '2' }
      ]
    });
    expect(r.ok).toBe(false);
    expect(r.events).toEqual([]);
    expect(await propsOf()).toEqual([]);
  });

  it('allows 64 keys and refuses a 65th with PropertyLimitReached; overwriting at 64 is fine', async () => {
    const { chain, id, propsOf } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionProperties', { collectionId: id, properties: keys(64) });
    await chain.ok(ALICE, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: 'k00', value: 'new' }] });
    const f = await failure(chain, ALICE, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: 'extra', value: 'v' }] });
    expect(f.name).toBe('common.PropertyLimitReached');
    expect(f.message).toContain('extra');
    expect(await propsOf()).toHaveLength(64);
  });

  it('refuses more than 40 960 bytes with NoSpaceForProperty', async () => {
    const { chain, id } = await setup();
    const v = 'x'.repeat(20_000); // pair cost 1 + 1 + 4 + 20 000 = 20 006 (a 4-byte compact length from 16 384 on)
    await chain.ok(ALICE, 'unique.setCollectionProperties', {
      collectionId: id,
      properties: [
        { key: 'a', value: v },
        { key: 'b', value: v }
      ]
    });
    // 40 012 used: 948 bytes left.
    await chain.ok(ALICE, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: 'c', value: 'y'.repeat(944) }] }); // 1+1+2+944 = 948
    const f = await failure(chain, ALICE, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: 'd', value: '' }] });
    expect(f.name).toBe('common.NoSpaceForProperty');
    expect(f.message).toContain('"d"');
  });

  it("the chain's quirk: an overwrite is checked without subtracting the old value", async () => {
    const { chain, id, propsOf } = await setup();
    const v = 'x'.repeat(20_000);
    await chain.ok(ALICE, 'unique.setCollectionProperties', {
      collectionId: id,
      properties: [
        { key: 'a', value: v },
        { key: 'b', value: v }
      ]
    });
    // Rewriting 'a' with an equal-size value would leave the total unchanged, but 40 012 + 20 006 > 40 960.
    expect(await chain.error(ALICE, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: 'a', value: v }] })).toBe(
      'common.NoSpaceForProperty'
    );
    // A small rewrite fits the check (40 012 + 904 ≤ 40 960) and gives the old value's space back.
    await chain.ok(ALICE, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: 'a', value: 'y'.repeat(900) }] });
    await chain.ok(ALICE, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: 'c', value: 'z'.repeat(19_000) }] });
    expect((await propsOf()).map((p) => [p.key, p.value.length])).toEqual([
      ['a', 900],
      ['b', 20_000],
      ['c', 19_000]
    ]);
  });

  it('checks space before the key (the chain order)', async () => {
    const { chain, id } = await setup();
    const v = 'x'.repeat(20_000);
    await chain.ok(ALICE, 'unique.setCollectionProperties', {
      collectionId: id,
      properties: [
        { key: 'a', value: v },
        { key: 'b', value: v }
      ]
    });
    expect(await chain.error(ALICE, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: 'bad key', value: v }] })).toBe(
      'common.NoSpaceForProperty'
    );
  });
});

describe('unique.deleteCollectionProperties', () => {
  it('rejects an empty list with unique.EmptyArgument first', async () => {
    const { chain } = await setup();
    expect(await chain.error(CHARLIE, 'unique.deleteCollectionProperties', { collectionId: 999, propertyKeys: [] })).toBe('unique.EmptyArgument');
  });

  it('deletes keys and emits one CollectionPropertyDeleted per key, even for absent keys', async () => {
    const { chain, id, propsOf } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionProperties', {
      collectionId: id,
      properties: [
        { key: 'a', value: '1' },
        { key: 'b', value: '2' }
      ]
    });
    const events = await chain.ok(BOB, 'unique.deleteCollectionProperties', { collectionId: id, propertyKeys: ['a', 'missing'] });
    expect(events).toEqual([
      { section: 'common', method: 'CollectionPropertyDeleted', data: { collectionId: id, propertyKey: 'a' } },
      { section: 'common', method: 'CollectionPropertyDeleted', data: { collectionId: id, propertyKey: 'missing' } }
    ]);
    expect(await propsOf()).toEqual([{ key: 'b', value: '2' }]);
  });

  it('gives the space and the key slot back', async () => {
    const { chain, id } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionProperties', { collectionId: id, properties: keys(64) });
    await chain.ok(ALICE, 'unique.deleteCollectionProperties', { collectionId: id, propertyKeys: ['k00'] });
    await chain.ok(ALICE, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: 'new', value: 'x'.repeat(30_000) }] });
  });

  it('a stranger gets the specification message; bad keys are refused; unknown collection', async () => {
    const { chain, id } = await setup();
    expect(await failure(chain, CHARLIE, 'unique.deleteCollectionProperties', { collectionId: id, propertyKeys: ['a'] })).toEqual({
      name: 'common.NoPermission',
      message: 'Signer is not Collection Owner or Collection Admin'
    });
    expect(await chain.error(ALICE, 'unique.deleteCollectionProperties', { collectionId: id, propertyKeys: ['a b'] })).toBe(
      'common.InvalidCharacterInPropertyKey'
    );
    expect(await chain.error(ALICE, 'unique.deleteCollectionProperties', { collectionId: id, propertyKeys: [''] })).toBe('common.EmptyPropertyKey');
    expect(await chain.error(ALICE, 'unique.deleteCollectionProperties', { collectionId: 999, propertyKeys: ['a'] })).toBe(
      'common.CollectionNotFound'
    );
  });

  it('is all or nothing', async () => {
    const { chain, id, propsOf } = await setup();
    await chain.ok(ALICE, 'unique.setCollectionProperties', { collectionId: id, properties: [{ key: 'a', value: '1' }] });
    expect(await chain.error(ALICE, 'unique.deleteCollectionProperties', { collectionId: id, propertyKeys: ['a', 'bad/key'] })).toBe(
      'common.InvalidCharacterInPropertyKey'
    );
    expect(await propsOf()).toEqual([{ key: 'a', value: '1' }]);
  });
});
