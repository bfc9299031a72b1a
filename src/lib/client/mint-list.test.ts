import { describe, expect, it } from 'vitest';
import { chunks, itemsFromImages, parseCsv, parseMintList } from './mint-list';
import type { CollectionSchema } from './types';

const schema: CollectionSchema = {
  attributesSchemaVersion: '1.0.0',
  attributesSchema: {
    '0': { name: { _: 'color' }, type: 'string', optional: true },
    '1': { name: { _: 'power' }, type: 'integer', optional: true },
    '2': { name: { _: 'tags' }, type: 'string', isArray: true, optional: true }
  }
};
const CID = 'bafkreibm6jg3ux5qumhcn2b3flc3tyu6dmlb4xa7u5bf44yegnrjhc4yeq';

describe('parseCsv', () => {
  it('reads quotes, doubled quotes, CRLF and semicolons', () => {
    expect(parseCsv('a,"b, c","say ""hi"""\r\n1,2,3\r\n')).toEqual([['a', 'b, c', 'say "hi"'], ['1', '2', '3']]);
    expect(parseCsv('name;image\nx;y')).toEqual([['name', 'image'], ['x', 'y']]);
  });
});

describe('parseMintList', () => {
  it('reads CSV with a header, attributes by name and typed values', () => {
    const { items, errors } = parseMintList(`name,image,color,power,tags\nFox,${CID},red,7,a|b\nOwl,https://x/o.png,,,\n`, schema);
    expect(errors).toEqual([]);
    expect(items).toEqual([
      { data: { name: { _: 'Fox' }, image: { ipfsCid: CID }, attributes: { color: 'red', power: 7, tags: ['a', 'b'] } } },
      { data: { name: { _: 'Owl' }, image: { url: 'https://x/o.png' } } }
    ]);
  });

  it('reads a headerless list as name, image, description and points at picked files', () => {
    const { items } = parseMintList('One, one.png\nTwo', null, ['one.png']);
    expect(items).toEqual([{ data: { name: { _: 'One' } }, imageFile: 'one.png' }, { data: { name: { _: 'Two' } } }]);
  });

  it('names the line of each bad row and refuses unknown columns', () => {
    expect(parseMintList('name,power\nA,lots', schema).errors).toEqual(['Line 2: power: "lots" is not a number']);
    expect(parseMintList('name,size\nA,1', schema).errors[0]).toMatch(/^Unknown column "size": use name, description, image, owner, an attribute of the schema \(color, power, tags\)/);
    expect(parseMintList('name,image\nA,picture', schema).errors[0]).toMatch(/^Line 2: image "picture" is not a URL/);
  });

  it('reads JSON arrays, {tokens}, and the API item shape', () => {
    const { items, errors } = parseMintList(
      JSON.stringify({ tokens: [{ name: 'A', image: CID, attributes: { Color: 'blue' } }, { owner: '5Grw', data: { name: { _: 'B' } }, properties: [{ key: 'k', value: 'v' }] }] }),
      schema
    );
    expect(errors).toEqual([]);
    expect(items).toEqual([
      { data: { name: { _: 'A' }, image: { ipfsCid: CID }, attributes: { color: 'blue' } } },
      { owner: '5Grw', data: { name: { _: 'B' } }, properties: [{ key: 'k', value: 'v' }] }
    ]);
    expect(parseMintList('[1]').errors).toEqual(['Token 1: expected an object like {"name": "…", "image": "…"}']);
    expect(parseMintList('{"a":').errors[0]).toMatch(/^This is not valid JSON/);
  });

  it('makes one token per image and splits into batches', () => {
    expect(itemsFromImages(['fox.png'])).toEqual([{ data: { name: { _: 'fox' } }, imageFile: 'fox.png' }]);
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});
