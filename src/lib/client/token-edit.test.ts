import { describe, expect, it } from 'vitest';
import { imageChanges, lockReason, tokenChanges, tokenForm } from './token-edit';
import type { AttributeSchema, Property, PropertyKeyPermission } from './types';

const schema: Record<string, AttributeSchema> = {
  '0': { name: { _: 'Rarity' }, type: 'string', optional: true, enumValues: { '0': { _: 'common' }, '1': { _: 'epic' } } },
  '1': { name: { _: 'Power' }, type: 'integer', optional: false },
  '2': { name: { _: 'Tags' }, type: 'string', optional: true, isArray: true },
  '3': { name: { _: 'Shiny' }, type: 'boolean', optional: true }
};
const properties: Property[] = [
  { key: 'n', value: '{"_":"Garnet","fr":"Grenat"}' },
  { key: 'd', value: '{"_":"Red"}' },
  { key: 'a.0', value: '0' },
  { key: 'a.1', value: '{"_":9001}' },
  { key: 'a.2', value: '[{"_":"a"},{"_":"b"}]' },
  { key: 'i.u', value: 'https://example.com/x.png' },
  { key: 'i.h', value: 'abc' }
];

describe('tokenForm', () => {
  it('reads the stored name, description and attributes as the fields show them', () => {
    expect(tokenForm(schema, properties)).toEqual({
      name: 'Garnet',
      description: 'Red',
      attributes: { '0': '0', '1': '9001', '2': 'a | b', '3': false }
    });
  });
});

describe('tokenChanges', () => {
  it('sets only what changed, encoded as the schema library encodes a mint', () => {
    const form = tokenForm(schema, properties);
    expect(tokenChanges(schema, properties, form)).toEqual({ set: [], remove: [] });
    form.name = 'Garnet Prime';
    form.attributes = { ...form.attributes, '0': '1', '1': '12', '2': 'x|y', '3': true };
    expect(tokenChanges(schema, properties, form)).toEqual({
      set: [
        { key: 'n', value: '{"_":"Garnet Prime","fr":"Grenat"}' },
        { key: 'a.0', value: '1' },
        { key: 'a.1', value: '{"_":12}' },
        { key: 'a.2', value: '[{"_":"x"},{"_":"y"}]' },
        { key: 'a.3', value: '{"_":1}' }
      ],
      remove: []
    });
  });

  it('deletes cleared optional fields and refuses a required one left empty or a wrong value', () => {
    const form = tokenForm(schema, properties);
    expect(tokenChanges(schema, properties, { ...form, description: ' ', attributes: { ...form.attributes, '0': '', '2': '' } })).toEqual({ set: [], remove: ['d', 'a.0', 'a.2'] });
    expect(() => tokenChanges(schema, properties, { ...form, attributes: { ...form.attributes, '1': '' } })).toThrow('Power: give a value (the attribute is required)');
    expect(() => tokenChanges(schema, properties, { ...form, attributes: { ...form.attributes, '1': '1.5' } })).toThrow('Power: "1.5" is not a whole number');
    expect(() => tokenChanges(schema, properties, { ...form, attributes: { ...form.attributes, '0': '7' } })).toThrow('Rarity: "7" is not one of the allowed values');
  });
});

describe('imageChanges', () => {
  it('writes the new source and drops the other image keys', () => {
    expect(imageChanges(properties, { ipfsCid: 'QmX' })).toEqual({ set: [{ key: 'i.c', value: 'QmX' }], remove: ['i.u', 'i.h'] });
    expect(imageChanges(properties, { url: 'https://example.com/x.png' })).toEqual({ set: [], remove: ['i.h'] });
  });
});

describe('lockReason', () => {
  const permissions = (mutable: boolean, tokenOwner: boolean, collectionAdmin: boolean): PropertyKeyPermission[] => [{ key: 'n', permission: { mutable, tokenOwner, collectionAdmin } }];
  const admin = { signs: true, isTokenOwner: false, isCollectionAdmin: true };
  const owner = { signs: true, isTokenOwner: true, isCollectionAdmin: false };
  it('follows the chain: a permission, mutable or not set yet, and who may write', () => {
    expect(lockReason('n', permissions(true, false, true), admin, true)).toBeNull();
    expect(lockReason('n', permissions(false, false, true), admin, false)).toBeNull();
    expect(lockReason('n', permissions(false, false, true), admin, true)).toBe('Fixed at minting: the collection does not let it change');
    expect(lockReason('n', permissions(true, false, true), owner, true)).toBe('Only the collection owner or an admin may change it');
    expect(lockReason('n', permissions(true, true, false), admin, true)).toBe('Only the token owner may change it');
    expect(lockReason('n', permissions(true, true, true), { signs: true, isTokenOwner: false, isCollectionAdmin: false }, true)).toBe('Only the token owner or a collection admin may change it');
    expect(lockReason('x', permissions(true, true, true), admin, false)).toBe('The collection lets nobody write it');
    expect(lockReason('n', permissions(true, true, true), { signs: false, isTokenOwner: false, isCollectionAdmin: false }, true)).toBe('Choose an account to sign with');
  });
});
