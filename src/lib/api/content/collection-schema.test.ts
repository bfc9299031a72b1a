import { describe, expect, it } from 'vitest';
import type { Property } from '../../ledger/types';
import {
  DEFAULT_SCHEMA,
  decodeCollectionSchema,
  encodeCollectionSchema,
  mergeCreateCollectionContent
} from './collection-schema';
import { ContentError } from './errors';

const GATEWAY = 'http://localhost:4173/ipfs';
const options = { ipfsGateway: GATEWAY };
const LOCKED = { mutable: false, collectionAdmin: true, tokenOwner: false };

const RICH_SCHEMA = {
  schemaName: 'unique',
  schemaVersion: '1.0.0',
  coverPicture: { ipfsCid: 'QmCover' },
  image: { urlTemplate: 'https://ipfs.unique.network/ipfs/{infix}' },
  video: { urlTemplate: 'https://video.example/{infix}.mp4' },
  audio: { urlTemplate: 'https://audio.example/{infix}', format: 'mp3', isLossless: false },
  attributesSchemaVersion: '1.0.0',
  attributesSchema: {
    '0': { name: { _: 'gender' }, type: 'string', enumValues: { '0': { _: 'Male' }, '1': { _: 'Female' } } },
    '1': { name: { _: 'traits' }, type: 'string', isArray: true, enumValues: { '0': { _: 'Black Lipstick' }, '1': { _: 'Red Lipstick' } } },
    '2': { name: { _: 'power', fr: 'puissance' }, type: 'integer', optional: true }
  }
};

const keys = (list: { key: string }[]) => list.map((p) => p.key);
const value = (list: Property[], key: string) => list.find((p) => p.key === key)?.value;

describe('DEFAULT_SCHEMA', () => {
  it('is a valid Unique v1 schema with the bare {infix} image template', () => {
    expect(DEFAULT_SCHEMA.schemaName).toBe('unique');
    expect(DEFAULT_SCHEMA.schemaVersion).toBe('1.0.0');
    expect(DEFAULT_SCHEMA.image.urlTemplate).toBe('{infix}');
    expect(() => encodeCollectionSchema(DEFAULT_SCHEMA)).not.toThrow();
  });
});

describe('encodeCollectionSchema', () => {
  it('flattens two levels with JSON values and locked token permissions', () => {
    const { properties, tokenPropertyPermissions } = encodeCollectionSchema(RICH_SCHEMA);
    expect(value(properties, 'schemaName')).toBe('"unique"');
    expect(value(properties, 'coverPicture.ipfsCid')).toBe('"QmCover"');
    expect(value(properties, 'audio.isLossless')).toBe('false');
    expect(JSON.parse(value(properties, 'attributesSchema.1')!)).toEqual(RICH_SCHEMA.attributesSchema['1']);
    expect(keys(properties)).toEqual([...keys(properties)].sort());
    expect(keys(tokenPropertyPermissions)).toEqual([
      'a.0', 'a.1', 'a.2', 'au.c', 'au.h', 'au.i', 'au.u', 'd', 'i.c', 'i.h', 'i.i', 'i.u', 'n', 'royalties', 'v.c', 'v.h', 'v.i', 'v.u'
    ]);
    expect(tokenPropertyPermissions.every((t) => JSON.stringify(t.permission) === JSON.stringify(LOCKED))).toBe(true);
  });

  it('drops unknown and read-only fields instead of storing them', () => {
    const { properties } = encodeCollectionSchema({
      ...DEFAULT_SCHEMA,
      collectionId: 7,
      junk: 1,
      coverPicture: { urlInfix: 'c.png', fullUrl: 'x' },
      video: null
    });
    expect(keys(properties)).not.toContain('collectionId');
    expect(keys(properties)).not.toContain('junk');
    expect(keys(properties)).not.toContain('coverPicture.fullUrl');
    expect(value(properties, 'coverPicture.urlInfix')).toBe('"c.png"');
  });

  it.each([
    [null, 'schema must be an object'],
    [{ ...RICH_SCHEMA, schemaName: 'Unique' }, 'schema.schemaName must be "unique", got "Unique"'],
    [{ ...RICH_SCHEMA, schemaVersion: '2.0.0' }, 'schema.schemaVersion must be "1.0.0", got "2.0.0"'],
    [{ ...RICH_SCHEMA, coverPicture: undefined }, 'Schema must contain coverPicture property'],
    [{ ...RICH_SCHEMA, coverPicture: { ipfsCid: 'a', url: 'https://b' } }, 'schema.coverPicture must have exactly one of ipfsCid, url or urlInfix'],
    [{ ...RICH_SCHEMA, image: { urlTemplate: 'https://x/a.png' } }, 'schema.image.urlTemplate must be a string containing "{infix}"'],
    [{ ...RICH_SCHEMA, image: undefined }, 'schema.image.urlTemplate must be a string containing "{infix}"'],
    [{ ...RICH_SCHEMA, video: {} }, 'schema.video.urlTemplate must be a string containing "{infix}"'],
    [{ ...RICH_SCHEMA, attributesSchemaVersion: undefined }, 'schema.attributesSchemaVersion and schema.attributesSchema must be given together'],
    [{ ...RICH_SCHEMA, attributesSchemaVersion: '1.1.0' }, 'schema.attributesSchemaVersion must be "1.0.0", got "1.1.0"'],
    [{ ...RICH_SCHEMA, attributesSchema: { x: { name: { _: 'a' }, type: 'string' } } }, 'schema.attributesSchema key "x" must be a non-negative integer'],
    [{ ...RICH_SCHEMA, attributesSchema: { '0': { name: { _: 'a' }, type: 'text' } } }, 'schema.attributesSchema.0.type must be one of'],
    [{ ...RICH_SCHEMA, attributesSchema: { '0': { name: 'a', type: 'string' } } }, 'Invalid collection schema: attributesSchema["0"].name'],
    [
      { ...RICH_SCHEMA, attributesSchema: { '0': { name: { _: 'n' }, type: 'integer', enumValues: { '0': { _: 'one' } } } } },
      'Invalid collection schema: attributesSchema["0"].enumValues[0]._ is not a valid number'
    ],
    [{ ...RICH_SCHEMA, audio: { urlTemplate: '{infix}', format: 3 } }, 'Invalid collection schema: audio.format is passed and not a string']
  ])('rejects %j', (schema, message) => {
    expect(() => encodeCollectionSchema(schema)).toThrow(ContentError);
    expect(() => encodeCollectionSchema(schema)).toThrow(message);
  });
});

describe('decodeCollectionSchema', () => {
  it('round-trips the default schema', async () => {
    const { properties } = encodeCollectionSchema(DEFAULT_SCHEMA);
    const { schema, decodingError } = await decodeCollectionSchema(4, properties, options);
    expect(decodingError).toBeUndefined();
    expect(schema).toEqual({
      ...DEFAULT_SCHEMA,
      collectionId: 4,
      coverPicture: { urlInfix: '', fullUrl: '' }
    });
  });

  it('round-trips a schema with attributes, audio and video', async () => {
    const { properties } = encodeCollectionSchema(RICH_SCHEMA);
    const { schema } = await decodeCollectionSchema(9, properties, options);
    expect(schema).toEqual({
      ...RICH_SCHEMA,
      collectionId: 9,
      coverPicture: { ipfsCid: 'QmCover', fullUrl: 'https://ipfs.unique.network/ipfs/QmCover' }
    });
  });

  it('points a default-schema cover CID at the built-in gateway', async () => {
    const { properties } = encodeCollectionSchema({ ...DEFAULT_SCHEMA, coverPicture: { ipfsCid: 'QmC' } });
    const { schema } = await decodeCollectionSchema(1, properties, options);
    expect(schema?.coverPicture).toEqual({ ipfsCid: 'QmC', fullUrl: `${GATEWAY}/QmC` });
  });

  it("keeps the collection's own properties out of the schema (issue 10: `website` decoded as \\u0000…)", async () => {
    const { properties } = encodeCollectionSchema(DEFAULT_SCHEMA);
    const withOwn = [...properties, { key: 'website', value: 'https://opal.example' }, { key: 'a.b', value: 'x' }];
    const { schema, decodingError } = await decodeCollectionSchema(4, withOwn, options);
    expect(decodingError).toBeUndefined();
    expect(schema).toEqual({ ...DEFAULT_SCHEMA, collectionId: 4, coverPicture: { urlInfix: '', fullUrl: '' } });
  });

  it('returns copies: changing one result does not change the next', async () => {
    const { properties } = encodeCollectionSchema(RICH_SCHEMA);
    const first = await decodeCollectionSchema(1, properties, options);
    (first.schema!.image as { urlTemplate: string }).urlTemplate = 'changed';
    const second = await decodeCollectionSchema(1, properties, options);
    expect((second.schema!.image as { urlTemplate: string }).urlTemplate).toBe(RICH_SCHEMA.image.urlTemplate);
  });

  it('shows no schema for properties that are not a Unique schema', async () => {
    expect(await decodeCollectionSchema(1, [], options)).toEqual({});
    expect(await decodeCollectionSchema(1, [{ key: 'website', value: 'https://x' }], options)).toEqual({});
    expect(await decodeCollectionSchema(1, [{ key: 'schemaName', value: '"ERC721Metadata"' }], options)).toEqual({});
  });

  it('reports a decodingError for a broken Unique schema', async () => {
    const properties = encodeCollectionSchema(DEFAULT_SCHEMA).properties.filter((p) => p.key !== 'image.urlTemplate');
    const result = await decodeCollectionSchema(1, properties, options);
    expect(result.schema).toBeUndefined();
    expect(result.decodingError).toBe('schema.image.urlTemplate must be a string containing "{infix}"');
  });
});

describe('mergeCreateCollectionContent', () => {
  it('gives a collection without schema the default schema and its permissions', () => {
    const { properties, tokenPropertyPermissions } = mergeCreateCollectionContent({});
    expect(properties).toEqual(encodeCollectionSchema(DEFAULT_SCHEMA).properties);
    expect(keys(tokenPropertyPermissions)).toEqual(keys(encodeCollectionSchema(DEFAULT_SCHEMA).tokenPropertyPermissions));
    expect(keys(tokenPropertyPermissions)).toEqual(expect.arrayContaining(['n', 'd', 'i.c', 'i.u', 'i.i', 'i.h', 'p.c', 'v.c', 'au.c', 'so.c', 'f.c']));
  });

  it('lets explicit properties and permissions override schema keys, sorted', () => {
    const { properties, tokenPropertyPermissions } = mergeCreateCollectionContent({
      schema: RICH_SCHEMA,
      properties: [
        { key: 'zz', value: 'last' },
        { key: 'image.urlTemplate', value: '"https://mine/{infix}"' }
      ],
      tokenPropertyPermissions: [
        { key: 'n', permission: { mutable: true, collectionAdmin: true, tokenOwner: true } },
        { key: 'custom', permission: { mutable: true, collectionAdmin: false, tokenOwner: true } }
      ]
    });
    expect(value(properties, 'image.urlTemplate')).toBe('"https://mine/{infix}"');
    expect(properties.at(-1)).toEqual({ key: 'zz', value: 'last' });
    expect(keys(properties)).toEqual([...keys(properties)].sort());
    expect(tokenPropertyPermissions.find((t) => t.key === 'n')?.permission).toEqual({ mutable: true, collectionAdmin: true, tokenOwner: true });
    expect(keys(tokenPropertyPermissions)).toContain('custom');
    expect(keys(tokenPropertyPermissions)).toEqual([...keys(tokenPropertyPermissions)].sort());
  });

  it('replaces a whole default group the explicit properties touch', async () => {
    const { properties } = mergeCreateCollectionContent({ properties: [{ key: 'coverPicture.ipfsCid', value: '"QmMine"' }] });
    expect(keys(properties)).not.toContain('coverPicture.urlInfix');
    const { schema } = await decodeCollectionSchema(2, properties, options);
    expect(schema?.coverPicture).toEqual({ ipfsCid: 'QmMine', fullUrl: `${GATEWAY}/QmMine` });
  });

  it('does not mix the default schema into properties that bring their own', () => {
    const own = encodeCollectionSchema(RICH_SCHEMA).properties;
    const { properties, tokenPropertyPermissions } = mergeCreateCollectionContent({ properties: own });
    expect(properties).toEqual(own);
    expect(tokenPropertyPermissions).toEqual([]);
  });

  it('treats a null schema as absent', () => {
    expect(mergeCreateCollectionContent({ schema: null })).toEqual(mergeCreateCollectionContent({}));
  });

  it('rejects malformed explicit lists and schemas', () => {
    expect(() => mergeCreateCollectionContent({ properties: [{ key: 'a', value: 1 }] })).toThrow('properties[0] must be {key: string, value: string}');
    expect(() => mergeCreateCollectionContent({ tokenPropertyPermissions: [{ key: 'a', permission: { mutable: 'yes' } }] })).toThrow(
      'tokenPropertyPermissions[0].permission.mutable must be a boolean'
    );
    expect(() => mergeCreateCollectionContent({ schema: { ...RICH_SCHEMA, schemaName: 'other' } })).toThrow(ContentError);
  });
});
