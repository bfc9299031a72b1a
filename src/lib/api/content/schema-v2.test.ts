// Schema 2.0.0: input checks, the library's encoding (byte for byte: key order, defaults,
// plain-text name and version), decoding of v2 and conversion of v1, and the v1 reader's view.
import { describe, expect, it } from 'vitest';
import type { Property } from '../../ledger/types';
import { MAX_SCHEMA_V2_ITEMS } from '../../limits';
import { decodeCollectionSchema, encodeCollectionSchema } from './collection-schema';
import { decodeCollectionV2, decodeTokenV2 } from './decode-v2';
import { encodeCollectionV2, encodeTokenV2 } from './encode-v2';
import { ContentError } from './errors';
import { collectionInfoV2, tokenV2 } from './schema-v2';
import { decodeTokenData, encodeTokenData } from './token-data';

const options = { ipfsGateway: 'http://localhost/ipfs' };
const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const valueOf = (list: Property[], key: string) => list.find((p) => p.key === key)?.value;

describe('schema 2 input', () => {
  it('fills the defaults, keeps the library’s key order and drops unknown keys', () => {
    const token = tokenV2.parse({ image: 'https://e/1.png', name: 'N', extra: 1, attributes: [{ value: 3, trait_type: 't' }] });
    expect(JSON.stringify(token)).toBe('{"schemaName":"unique","schemaVersion":"2.0.0","name":"N","image":"https://e/1.png","attributes":[{"trait_type":"t","value":3}]}');
  });

  it('refuses a non-2.x version, another schema name, a bad media type, unsafe urls and oversized lists', () => {
    expect(tokenV2.safeParse({ schemaVersion: '1.0.0' }).success).toBe(false);
    expect(collectionInfoV2.safeParse({ schemaName: 'other' }).success).toBe(false);
    expect(tokenV2.safeParse({ media: { a: { type: 'hologram', url: 'https://e' } } }).success).toBe(false);
    expect(tokenV2.safeParse({ image: 'javascript:alert(1)' }).success).toBe(false);
    expect(tokenV2.safeParse({ image: 'ipfs://Qm' }).success).toBe(true);
    const many = Array.from({ length: MAX_SCHEMA_V2_ITEMS + 1 }, (_, i) => ({ trait_type: 't', value: i }));
    expect(tokenV2.safeParse({ attributes: many }).success).toBe(false);
    const manyMedia = Object.fromEntries(Array.from({ length: MAX_SCHEMA_V2_ITEMS + 1 }, (_, i) => [`m${i}`, { type: 'image', url: 'https://e' }]));
    expect(tokenV2.safeParse({ media: manyMedia }).error?.issues[0].message).toContain(`at most ${MAX_SCHEMA_V2_ITEMS} entries`);
  });
});

describe('schema 2 encoding', () => {
  it('encodes a collection as the library: name, version, collectionInfo, 8 token permissions', () => {
    const { properties, tokenPropertyPermissions } = encodeCollectionV2(collectionInfoV2.parse({ cover_image: { url: 'https://e/c.png' } }));
    expect(properties).toEqual([
      { key: 'collectionInfo', value: '{"schemaName":"unique","schemaVersion":"2.0.0","cover_image":{"url":"https://e/c.png"}}' },
      { key: 'schemaName', value: 'unique' },
      { key: 'schemaVersion', value: '2.0.0' }
    ]);
    expect(tokenPropertyPermissions).toHaveLength(8);
    expect(() => encodeCollectionV2(collectionInfoV2.parse({ royalties: [{ address: ALICE, percent: 1 }] }))).toThrow(ContentError);
  });

  it('encodes a token: tokenData JSON, binary royalties, URI, overrides by key', () => {
    const properties = encodeTokenV2(tokenV2.parse({ name: 'N', royalties: [{ address: ALICE, percent: 5 }] }), {
      URI: 'https://e/1.json',
      overwriteProperties: [{ key: 'schemaVersion', value: '2.1.0' }]
    });
    expect(properties.map((p) => p.key)).toEqual(['URI', 'royalties', 'schemaName', 'schemaVersion', 'tokenData']);
    expect(valueOf(properties, 'schemaVersion')).toBe('2.1.0');
    expect(valueOf(properties, 'royalties')).toMatch(/^0x01/);
    expect(() => encodeTokenV2(tokenV2.parse({ royalties: [{ address: 'nobody', percent: 1 }] }))).toThrow('royalties: Address nobody');
  });

  it('refuses a token whose JSON outgrows one property value', () => {
    const description = 'x'.repeat(32_000);
    expect(() => encodeTokenV2(tokenV2.parse({ description, name: 'y'.repeat(1000) }))).toThrow('tokenData is longer than 32768 bytes');
  });
});

describe('schema 2 decoding', () => {
  const collection = encodeCollectionV2(collectionInfoV2.parse({ default_token_image: { url: 'https://e/d.png' } })).properties;

  it('reads a v2 collection and token back as stored', async () => {
    expect(await decodeCollectionV2(collection, options)).toEqual({
      value: { schemaName: 'unique', schemaVersion: '2.0.0', default_token_image: { url: 'https://e/d.png' } },
      parsingError: null
    });
    const token = encodeTokenV2(tokenV2.parse({ name: 'N' }));
    expect(await decodeTokenV2(token, collection, options)).toEqual({ value: { schemaName: 'unique', schemaVersion: '2.0.0', name: 'N' }, parsingError: null });
    expect(await decodeTokenV2([{ key: 'tokenData', value: '{broken' }, ...token.filter((p) => p.key !== 'tokenData')], collection, options)).toEqual({
      value: null,
      parsingError: 'Unable to parse tokenData JSON'
    });
  });

  it('a v1 reader sees a v2 collection as a schema it cannot decode, and its tokens as undecoded', async () => {
    expect(await decodeCollectionSchema(1, collection, options)).toEqual({ decodingError: 'schemaVersion must be "1.0.0", got "2.0.0": a Unique schema 2 collection (read it at /collections/v2)' });
    const token = await decodeTokenData(encodeTokenV2(tokenV2.parse({ name: 'N' })), collection, options);
    expect(token.decodingError).toBe('unable to parse: collection schema was not provided');
    expect(() => encodeTokenData({ name: 'x' }, collection)).toThrow('the collection schema is invalid');
  });

  it('converts a v1 collection and token', async () => {
    const v1 = encodeCollectionSchema({
      schemaName: 'unique',
      schemaVersion: '1.0.0',
      coverPicture: { ipfsCid: 'QmCover' },
      image: { urlTemplate: 'https://e/{infix}' },
      audio: { urlTemplate: 'https://e/{infix}' },
      attributesSchemaVersion: '1.0.0',
      attributesSchema: { '0': { name: { _: 'level' }, type: 'integer' } }
    }).properties;
    expect((await decodeCollectionV2(v1, options)).value).toEqual({
      schemaName: 'unique',
      schemaVersion: '2.0.0',
      originalSchemaVersion: '1.0.0',
      potential_attributes: [{ trait_type: 'level', display_type: 'integer' }],
      cover_image: { url: 'https://e/QmCover' }
    });
    const token = encodeTokenData({ name: 'Old', image: { urlInfix: 'a.png' }, audio: { urlInfix: 'a.mp3' }, encodedAttributes: { '0': { _: 4 } } }, v1);
    expect((await decodeTokenV2(token, v1, options)).value).toEqual({
      schemaName: 'unique',
      schemaVersion: '2.0.0',
      originalSchemaVersion: '1.0.0',
      image: 'https://e/a.png',
      name: 'Old',
      attributes: [{ trait_type: 'level', value: 4 }],
      media: { audio: { type: 'audio', url: 'https://e/a.mp3' } }
    });
  });

  it('reports the library’s errors for what it cannot read', async () => {
    expect(await decodeCollectionV2([], options)).toEqual({ value: null, parsingError: 'Unable to parse: collection properties are empty' });
    expect((await decodeCollectionV2([{ key: 'a', value: 'b' }], options)).parsingError).toBe('Unknown collection schema: "UNKNOWN"');
    expect((await decodeTokenV2([{ key: 'URI', value: 'https://e/1.json' }], [], options)).parsingError).toBe('Unable to parse tokenData JSON');
    expect((await decodeTokenV2([], [], options)).parsingError).toContain('Unknown token schema version');
  });
});
