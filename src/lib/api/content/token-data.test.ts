import { describe, expect, it } from 'vitest';
import type { Property } from '../../ledger/types';
import { DEFAULT_SCHEMA, encodeCollectionSchema, mergeCreateCollectionContent } from './collection-schema';
import { ContentError } from './errors';
import { decodeTokenData, encodeTokenData } from './token-data';

const GATEWAY = 'http://localhost:4173/ipfs';
const options = { ipfsGateway: GATEWAY };

const RICH = encodeCollectionSchema({
  schemaName: 'unique',
  schemaVersion: '1.0.0',
  coverPicture: { url: 'https://example.com/cover.png' },
  image: { urlTemplate: 'https://img.example/{infix}.png' },
  imagePreview: { urlTemplate: 'https://img.example/preview/{infix}' },
  video: { urlTemplate: 'https://video.example/{infix}' },
  audio: { urlTemplate: 'https://audio.example/{infix}', format: 'flac', isLossless: true },
  attributesSchemaVersion: '1.0.0',
  attributesSchema: {
    '0': { name: { _: 'gender' }, type: 'string', enumValues: { '0': { _: 'Male' }, '1': { _: 'Female', fr: 'Femme' } } },
    '1': { name: { _: 'traits' }, type: 'string', isArray: true, enumValues: { '0': { _: 'Black Lipstick' }, '1': { _: 'Red Lipstick' } } },
    '2': { name: { _: 'motto' }, type: 'string', optional: true },
    '3': { name: { _: 'power' }, type: 'integer', optional: true },
    '4': { name: { _: 'shiny' }, type: 'boolean', optional: true }
  }
}).properties;

const DEFAULT = mergeCreateCollectionContent({}).properties;
const value = (list: Property[], key: string) => list.find((p) => p.key === key)?.value;

describe('encodeTokenData', () => {
  it('stores name and description as JSON and media as raw strings', () => {
    const properties = encodeTokenData(
      { name: 'Hat', description: { _: 'A hat', fr: 'Un chapeau' }, image: { ipfsCid: 'QmImg', hash: 'abc' }, video: { url: 'https://v.example/1.mp4' } },
      DEFAULT
    );
    expect(properties).toEqual([
      { key: 'd', value: '{"_":"A hat","fr":"Un chapeau"}' },
      { key: 'i.c', value: 'QmImg' },
      { key: 'i.h', value: 'abc' },
      { key: 'n', value: '{"_":"Hat"}' },
      { key: 'v.u', value: 'https://v.example/1.mp4' }
    ]);
  });

  it('encodes attributes by name and by index', () => {
    const properties = encodeTokenData(
      {
        image: { urlInfix: 'a1' },
        attributes: { gender: 'Femme', traits: ['Red Lipstick', { _: 'Black Lipstick' }], motto: 'carpe diem', shiny: true },
        encodedAttributes: { '3': { _: 42 } }
      },
      RICH
    );
    expect(value(properties, 'a.0')).toBe('1');
    expect(value(properties, 'a.1')).toBe('[1,0]');
    expect(value(properties, 'a.2')).toBe('{"_":"carpe diem"}');
    expect(value(properties, 'a.3')).toBe('{"_":42}');
    expect(value(properties, 'a.4')).toBe('{"_":1}');
  });

  it('leaves out media the schema does not declare, as the real encoder', () => {
    const properties = encodeTokenData({ image: { urlInfix: 'a' }, spatialObject: { url: 'https://x/y.glb' } }, RICH);
    expect(properties.map((p) => p.key)).toEqual(['i.i']);
  });

  it('allows data without image', () => {
    expect(encodeTokenData({ name: 'Only a name' }, DEFAULT)).toEqual([{ key: 'n', value: '{"_":"Only a name"}' }]);
  });

  it.each([
    ['not an object', DEFAULT, 'data must be an object'],
    [{ image: { ipfsCid: 'a', url: 'https://b' } }, DEFAULT, 'data.image must have exactly one of ipfsCid, url or urlInfix'],
    [{ image: {} }, DEFAULT, 'data.image must have exactly one of ipfsCid, url or urlInfix'],
    [{ audio: { url: 'nope' } }, DEFAULT, 'data.audio.url must be a valid absolute URL'],
    [{ name: 5 }, DEFAULT, 'data.name must be a string or a localized text object {_: string}'],
    [{ name: { en: 'x' } }, DEFAULT, 'data.name is doesn\'t contain field "_"'],
    [{ description: { _: 'x', english: 'y' } }, DEFAULT, 'data.description["english"] should be a valid Language code'],
    [{ image: { urlInfix: 'a' }, attributes: { colour: 'red' } }, RICH, 'data.attributes.colour: the collection schema has no attribute named "colour"'],
    [{ image: { urlInfix: 'a' }, encodedAttributes: { '9': 0 } }, RICH, 'data.encodedAttributes.9: the collection schema has no attribute 9'],
    [{ image: { urlInfix: 'a' }, attributes: { gender: 'Other' } }, RICH, 'data.attributes.gender: "Other" is not one of the attribute\'s values ("Male", "Female")'],
    [{ image: { urlInfix: 'a' }, attributes: { gender: 'Male', traits: 'Red Lipstick' } }, RICH, 'data.attributes.traits must be an array'],
    [{ image: { urlInfix: 'a' }, attributes: { gender: ['Male'] } }, RICH, 'data.attributes.gender must not be an array'],
    [{ image: { urlInfix: 'a' }, attributes: { gender: 'Male' }, encodedAttributes: { '0': 1 } }, RICH, 'data.attributes.gender: attribute 0 is given twice'],
    [{ image: { urlInfix: 'a' }, attributes: { gender: 'Male' } }, RICH, "data.encodedAttributes.1 should be provided, it's not optional attribute"],
    [{ image: { urlInfix: 'a' }, encodedAttributes: { '0': 7, '1': [] } }, RICH, 'data.encodedAttributes.0[0] value (7) not found in the attribute schema enum keys'],
    [{ image: { urlInfix: 'a' }, encodedAttributes: { '0': 0, '1': [], '3': { _: 'strong' } } }, RICH, 'data.encodedAttributes.3[0]._ is not a valid number'],
    [{ image: { ipfsCid: 'Qm' }, royalties: [{ address: 'nobody', value: 1 }] }, DEFAULT, 'data.royalties: '],
    [{ image: { ipfsCid: 'Qm' }, royalties: 'half' }, DEFAULT, 'data.royalties: must be an array'],
    [{ name: 'x' }, [{ key: 'website', value: 'https://x' }], 'data needs a collection with a Unique schema']
  ])('rejects %j', (data, collection, message) => {
    expect(() => encodeTokenData(data, collection)).toThrow(ContentError);
    expect(() => encodeTokenData(data, collection)).toThrow(message);
  });
});

describe('decodeTokenData', () => {
  it('round-trips a default-schema token, pointing its CID at the built-in gateway', async () => {
    const data = { name: { _: 'Hat' }, description: { _: 'A hat' }, image: { ipfsCid: 'QmImg/1.png' }, audio: { urlInfix: 'https://a.example/s.mp3', hash: 'h' } };
    const decoded = await decodeTokenData(encodeTokenData(data, DEFAULT), DEFAULT, options);
    expect(decoded).toEqual({
      name: { _: 'Hat' },
      description: { _: 'A hat' },
      image: { ipfsCid: 'QmImg/1.png', fullUrl: `${GATEWAY}/QmImg/1.png` },
      audio: { urlInfix: 'https://a.example/s.mp3', hash: 'h', fullUrl: 'https://a.example/s.mp3' },
      attributes: {},
      decodingError: null
    });
  });

  it('round-trips a token with attributes, preview, audio and video', async () => {
    const data = {
      name: 'Rich',
      image: { urlInfix: 'a1' },
      imagePreview: { ipfsCid: 'QmP' },
      video: { url: 'https://v.example/clip.mp4' },
      audio: { ipfsCid: 'QmA' },
      attributes: { gender: 'Female', traits: ['Red Lipstick'], power: 9 }
    };
    const decoded = await decodeTokenData(encodeTokenData(data, RICH), RICH, options);
    expect(decoded.name).toEqual({ _: 'Rich' });
    expect(decoded.image).toEqual({ urlInfix: 'a1', fullUrl: 'https://img.example/a1.png' });
    expect(decoded.imagePreview).toEqual({ ipfsCid: 'QmP', fullUrl: 'https://img.example/preview/QmP' });
    expect(decoded.video).toEqual({ url: 'https://v.example/clip.mp4', fullUrl: 'https://v.example/clip.mp4' });
    expect(decoded.audio).toEqual({ ipfsCid: 'QmA', fullUrl: 'https://audio.example/QmA' });
    expect(decoded.attributes).toEqual({
      '0': { name: { _: 'gender' }, value: { _: 'Female', fr: 'Femme' }, type: 'string', isArray: false, isEnum: true, rawValue: 1 },
      '1': { name: { _: 'traits' }, value: [{ _: 'Red Lipstick' }], type: 'string', isArray: true, isEnum: true, rawValue: [1] },
      '3': { name: { _: 'power' }, value: { _: 9 }, type: 'integer', isArray: false, isEnum: false, rawValue: { _: 9 } }
    });
    expect(decoded.decodingError).toBeNull();
  });

  it('gives image {fullUrl: null} to a token minted without one', async () => {
    const decoded = await decodeTokenData(encodeTokenData({ name: 'x' }, DEFAULT), DEFAULT, options);
    expect(decoded.image).toEqual({ fullUrl: null });
    expect(decoded.name).toEqual({ _: 'x' });
  });

  it('answers the real no-schema shape for a collection without schema', async () => {
    const decoded = await decodeTokenData([{ key: 'n', value: '{"_":"x"}' }], [], options);
    expect(decoded).toEqual({
      attributes: {},
      image: { ipfsCid: '', fullUrl: '' },
      decodingError: 'unable to parse: collection schema was not provided'
    });
  });

  it('reports a decodingError for properties that break the schema', async () => {
    const decoded = await decodeTokenData([{ key: 'i.c', value: 'Qm' }, { key: 'a.0', value: '5' }], RICH, options);
    expect(decoded.image).toEqual({ ipfsCid: '', fullUrl: '' });
    expect(decoded.decodingError).toMatch(/^token\.encodedAttributes\./);
  });

  it('returns attribute objects the caller may change without touching the cache', async () => {
    const properties = encodeTokenData({ image: { urlInfix: 'a' }, attributes: { gender: 'Male', traits: [] } }, RICH);
    const first = await decodeTokenData(properties, RICH, options);
    (first.attributes['0'].name as { _: string })._ = 'changed';
    const second = await decodeTokenData(properties, RICH, options);
    expect(second.attributes['0'].name).toEqual({ _: 'gender' });
  });

  it('reads a copied property list the same as the original (content cache)', async () => {
    const properties = encodeTokenData({ image: { ipfsCid: 'Qm1' } }, DEFAULT);
    const copy = DEFAULT.map((p) => ({ ...p }));
    expect(await decodeTokenData(properties, copy, options)).toEqual(await decodeTokenData(properties, DEFAULT, options));
  });

  it('decodes royalties with plain-number values', async () => {
    const schema = encodeCollectionSchema(DEFAULT_SCHEMA).properties;
    const address = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
    const properties = encodeTokenData({ image: { ipfsCid: 'Qm' }, royalties: [{ address, value: 500, decimals: 4 }] }, schema);
    const decoded = await decodeTokenData(properties, schema, options);
    expect(decoded.royalties).toEqual([{ version: 1, decimals: 4, value: 500, royaltyType: 'DEFAULT', address }]);
  });
});
