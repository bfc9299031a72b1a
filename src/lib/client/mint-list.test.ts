import { describe, expect, it } from 'vitest';
import { chunks, itemsFromImages, parseCsv, parseMintList, type MintItem } from './mint-list';
import type { CollectionSchema } from './types';

const schema: CollectionSchema = {
  attributesSchemaVersion: '1.0.0',
  attributesSchema: {
    '0': { name: { _: 'color' }, type: 'string', optional: true },
    '1': { name: { _: 'power' }, type: 'integer', optional: true },
    '2': { name: { _: 'tags' }, type: 'string', isArray: true, optional: true }
  }
};
/** A schema like a creator's: an enum, a required integer, a date. */
const rarity: CollectionSchema = {
  attributesSchema: {
    '0': { name: { _: 'Rarity' }, type: 'string', optional: true, enumValues: { '0': { _: 'common' }, '1': { _: 'rare' } } },
    '1': { name: { _: 'Power' }, type: 'integer' },
    '2': { name: { _: 'Found' }, type: 'isoDate', optional: true }
  }
};
const CID = 'bafkreibm6jg3ux5qumhcn2b3flc3tyu6dmlb4xa7u5bf44yegnrjhc4yeq';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const UNCLOSED = 'Line 3: the quote that opens this cell is never closed (a cell that starts with " ends with ")';
const cells = (text: string) => parseCsv(text).rows.map((r) => r.cells);
/** Items without where they came from (checked on their own below). */
const bare = (items: MintItem[]) => items.map(({ where: _w, ownerWhere: _o, imageWhere: _i, ...item }) => item);

describe('parseCsv', () => {
  it('reads quotes, doubled quotes, CRLF and semicolons', () => {
    expect(cells('a,"b, c","say ""hi"""\r\n1,2,3\r\n')).toEqual([['a', 'b, c', 'say "hi"'], ['1', '2', '3']]);
    expect(cells('name;image\nx;y')).toEqual([['name', 'image'], ['x', 'y']]);
    expect(cells('\n\nname;image\nx;y')).toEqual([['name', 'image'], ['x', 'y']]);
  });

  it('numbers each row by the line it starts on, blank lines and cells over several lines counted', () => {
    const { rows, errors } = parseCsv('name,description\r\n\r\nA,"two\r\nlines"\nB,x\rC,y\n');
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      { line: 1, cells: ['name', 'description'] },
      { line: 3, cells: ['A', 'two\nlines'] },
      { line: 5, cells: ['B', 'x'] },
      { line: 6, cells: ['C', 'y'] }
    ]);
  });

  it('reports a quote that is never closed, naming its line', () => {
    const { rows, errors } = parseCsv('name,image\nGood,a.png\n"Unclosed quote,x,img5.png,,common,1\nNext,b.png\n');
    expect(errors).toEqual([UNCLOSED]);
    expect(rows.map((r) => r.line)).toEqual([1, 2]);
  });
});

describe('parseMintList', () => {
  it('reads CSV with a header, attributes by name and typed values', () => {
    const { items, errors } = parseMintList(`name,image,color,power,tags\nFox,${CID},red,7,a|b\nOwl,https://x/o.png,,,\n`, schema);
    expect(errors).toEqual([]);
    expect(bare(items)).toEqual([
      { data: { name: { _: 'Fox' }, image: { ipfsCid: CID }, attributes: { color: 'red', power: 7, tags: ['a', 'b'] } } },
      { data: { name: { _: 'Owl' }, image: { url: 'https://x/o.png' } } }
    ]);
  });

  it('reads a headerless list as name, image, description and points at picked files', () => {
    const { items } = parseMintList('One, one.png\nTwo', null, ['one.png']);
    expect(bare(items)).toEqual([{ data: { name: { _: 'One' } }, imageFile: 'one.png' }, { data: { name: { _: 'Two' } } }]);
  });

  it('names the line and column of each bad cell and refuses unknown columns', () => {
    expect(parseMintList('name,power\nA,lots', schema).errors).toEqual(['Line 2, column power: "lots" is not a whole number']);
    expect(parseMintList('name,size\nA,1', schema).errors[0]).toMatch(/^Unknown column "size": use name, description, image, owner, an attribute of the schema \(color, power, tags\)/);
    expect(parseMintList('name,image\nA,picture', schema).errors[0]).toMatch(/^Line 2, column image: "picture" is not a URL/);
    // A picked file left out (too large, say) is named with the reason, in CSV and in JSON.
    const leftOut = new Map([['big.png', 'it is 21 MB, and the service takes files up to 20 MB']]);
    expect(parseMintList('name,image\nA,big.png', schema, [], leftOut).errors).toEqual([
      'Line 2, column image: The image file big.png was picked but left out: it is 21 MB, and the service takes files up to 20 MB'
    ]);
    expect(parseMintList('[{"name":"A","image":"big.png"}]', null, [], leftOut).errors[0]).toMatch(/image: The image file big\.png was picked but left out: it is 21 MB/);
  });

  it('mints nothing from a list with an unclosed quote', () => {
    expect(parseMintList('name,image,color\nGood,,red\n"Unclosed quote,x,img5.png,,common,1\n', schema)).toEqual({ items: [], errors: [UNCLOSED] });
  });

  it('checks every row against the schema and the owner addresses, by CSV line and column', () => {
    const csv = ['', 'name,Rarity,Power,Found,Owner', `Ok,Rare,3,2024-05-01,${BOB}`, 'Epic,epic,1,,', 'Weak,common,2.5,someday,', '', 'Lost,,2,,not-an-address', 'Half,common,,,'].join('\n');
    const { items, errors } = parseMintList(csv, rarity);
    expect(errors).toEqual([
      'Line 4, column Rarity: "epic" is not one of the allowed values (common, rare)',
      'Line 5, column Power: "2.5" is not a whole number',
      'Line 5, column Found: "someday" is not a date (YYYY-MM-DD)',
      'Line 7, column Owner: "not-an-address" is not an account address',
      'Line 8: Power needs a value (the schema requires it once a token has attributes)'
    ]);
    // The good row, with the enum's own spelling.
    expect(bare(items)).toEqual([{ owner: BOB, data: { name: { _: 'Ok' }, attributes: { Rarity: 'rare', Power: 3, Found: '2024-05-01' } } }]);
    // A row without attributes needs none.
    expect(parseMintList('name\nPlain', rarity).errors).toEqual([]);
  });

  it('refuses cells past the last column (a comma in an unquoted value)', () => {
    expect(parseMintList('name,description\nFox,red, and quick\nOwl,wise,,\n').errors).toEqual([
      'Line 2: 3 cells, but the list has 2 columns (a value with a comma needs quotes around it)'
    ]);
  });

  it('reads JSON arrays, {tokens}, and the API item shape', () => {
    const { items, errors } = parseMintList(
      JSON.stringify({ tokens: [{ name: 'A', image: CID, attributes: { Color: 'blue' } }, { owner: BOB, data: { name: { _: 'B' } }, properties: [{ key: 'k', value: 'v' }] }] }),
      schema
    );
    expect(errors).toEqual([]);
    expect(bare(items)).toEqual([
      { data: { name: { _: 'A' }, image: { ipfsCid: CID }, attributes: { color: 'blue' } } },
      { owner: BOB, data: { name: { _: 'B' } }, properties: [{ key: 'k', value: 'v' }] }
    ]);
    expect(parseMintList('[1]').errors).toEqual(['Token 1: expected an object like {"name": "…", "image": "…"}']);
    expect(parseMintList('{"a":').errors[0]).toMatch(/^This is not valid JSON/);
  });

  it('checks JSON tokens against the schema and their owners, by token', () => {
    const list = [
      { name: 'A', attributes: { Rarity: 'epic', Power: 1 } },
      { name: 'B', owner: '5Grw', attributes: { Size: 2, Power: 1 } }
    ];
    expect(parseMintList(JSON.stringify(list), rarity).errors).toEqual([
      'Token 1, attribute Rarity: "epic" is not one of the allowed values (common, rare)',
      'Token 2, attribute Size: the collection schema has no such attribute (it has Rarity, Power, Found)',
      'Token 2, owner: "5Grw" is not an account address'
    ]);
  });

  it('makes one token per image and splits into batches', () => {
    expect(bare(itemsFromImages(['fox.png']))).toEqual([{ data: { name: { _: 'fox' } }, imageFile: 'fox.png' }]);
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('says where each row is, its owner and its image, for the limit checks', () => {
    const [item] = parseMintList(`name,Image,Owner\nFox,fox.png,${BOB}`, null, ['fox.png']).items;
    expect(item).toMatchObject({ where: 'Line 2', ownerWhere: 'Line 2, column Owner', imageWhere: 'Line 2, column Image' });
    expect(parseMintList(JSON.stringify([{ name: 'A' }])).items[0]).toMatchObject({ where: 'Token 1', ownerWhere: 'Token 1, owner' });
    expect(itemsFromImages(['fox.png'])[0]).toMatchObject({ where: 'Image fox.png' });
  });
});
