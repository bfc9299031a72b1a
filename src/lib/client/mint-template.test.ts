import { describe, expect, it } from 'vitest';
import { parseCsv, parseMintList } from './mint-list';
import { addImageRows, csvLine, imagesWithoutRow, templateColumns, templateCsv } from './mint-template';
import type { CollectionSchema } from './types';

const schema: CollectionSchema = {
  attributesSchema: {
    '0': { name: { _: 'Rarity' }, type: 'string', optional: true, enumValues: { '0': { _: 'common' }, '1': { _: 'rare' } } },
    '1': { name: { _: 'Power, max' }, type: 'integer' },
    '2': { name: { _: 'Tags' }, type: 'string', isArray: true, optional: true },
    '3': { name: { _: 'Found' }, type: 'isoDate', optional: true }
  }
};

describe('the CSV template', () => {
  it('has the schema attributes by name between image and owner, quoted where needed', () => {
    expect(templateColumns(schema)).toEqual(['name', 'description', 'image', 'Rarity', 'Power, max', 'Tags', 'Found', 'owner']);
    expect(templateCsv(null).split('\n')[0]).toBe('name,description,image,owner');
    expect(parseCsv(templateCsv(schema)).rows[0].cells).toEqual(templateColumns(schema));
  });

  it('has an example row the schema accepts (the image as a picked file)', () => {
    const result = parseMintList(templateCsv(schema), schema, ['token-1.png']);
    expect(result.errors).toEqual([]);
    expect(result.items[0].data.attributes).toEqual({ Rarity: 'common', 'Power, max': 1, Tags: ['text', 'text'], Found: '2025-01-31' });
    expect(result.items[0].imageFile).toBe('token-1.png');
  });

  it('quotes cells with the delimiter, quotes or line breaks', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'x\ny'])).toBe('a,"b,c","say ""hi""","x\ny"');
    expect(csvLine(['a;b', 'c,d'], ';')).toBe('"a;b";c,d');
  });
});

describe('rows from images', () => {
  it('starts an empty list with the template header and one row per image, named after the file', () => {
    const text = addImageRows('', ['red-fox.png', 'owl.jpeg'], schema)!;
    expect(text.split('\n')).toEqual(['name,description,image,Rarity,"Power, max",Tags,Found,owner', 'red-fox,,red-fox.png,,,,,', 'owl,,owl.jpeg,,,,,', '']);
  });

  it('adds rows only for images no row names, in the list’s own columns and delimiter', () => {
    const list = 'name;image;Rarity\nFox;fox.png;rare\n';
    expect(imagesWithoutRow(list, ['fox.png', 'owl.png'])).toEqual(['owl.png']);
    expect(addImageRows(list, ['owl.png'], schema)).toBe('name;image;Rarity\nFox;fox.png;rare\nowl;owl.png;\n');
    expect(imagesWithoutRow('', ['a.png'])).toEqual(['a.png']);
  });

  it('adds nothing to a list without an image column or to JSON', () => {
    expect(addImageRows('name\nFox\n', ['owl.png'], null)).toBeNull();
    expect(addImageRows('[{"name":"x"}]', ['owl.png'], null)).toBeNull();
    expect(imagesWithoutRow('[{"name":"x"}]', ['owl.png'])).toEqual([]);
  });
});
