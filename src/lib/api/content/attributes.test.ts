// Attribute names and indexes come from the client: only the schema's own entries count.
import { describe, expect, it } from 'vitest';
import { encodeAttributes } from './attributes';
import { ContentError } from './errors';
import type { UniqueCollectionSchemaToCreate } from './library';

const SCHEMA = {
  schemaName: 'unique',
  schemaVersion: '1.0.0',
  coverPicture: { urlInfix: '' },
  image: { urlTemplate: '{infix}' },
  attributesSchemaVersion: '1.0.0',
  attributesSchema: {
    '0': { name: { _: 'gender' }, type: 'string', enumValues: { '0': { _: 'Male' }, '1': { _: 'Female' } } },
    '1': { name: { _: 'motto' }, type: 'string', optional: true }
  }
} as unknown as UniqueCollectionSchemaToCreate;

const PROTOTYPE_NAMES = ['toString', 'constructor', 'hasOwnProperty', 'valueOf', '__proto__', 'isPrototypeOf'];

describe('encodeAttributes and Object.prototype', () => {
  it.each(PROTOTYPE_NAMES)('refuses encodedAttributes index %j', (name) => {
    // JSON.parse makes `__proto__` an own key, as a request body would.
    const data = JSON.parse(`{"encodedAttributes": {${JSON.stringify(name)}: 0}}`);
    expect(() => encodeAttributes(data, SCHEMA)).toThrow(ContentError);
    expect(() => encodeAttributes(data, SCHEMA)).toThrow(`data.encodedAttributes.${name}: the collection schema has no attribute`);
  });

  it.each(PROTOTYPE_NAMES)('refuses attributes name %j', (name) => {
    const data = JSON.parse(`{"attributes": {${JSON.stringify(name)}: "x"}}`);
    expect(() => encodeAttributes(data, SCHEMA)).toThrow(`data.attributes.${name}: the collection schema has no attribute named`);
  });

  it('refuses an enum value named after a prototype property', () => {
    expect(() => encodeAttributes({ attributes: { gender: 'toString' } }, SCHEMA)).toThrow(/is not one of the attribute's values/);
  });

  it('still maps own indexes and names', () => {
    expect(encodeAttributes({ encodedAttributes: { '0': 1 }, attributes: { motto: 'hi' } }, SCHEMA)).toEqual({ '0': 1, '1': { _: 'hi' } });
  });

  it('quotes at most 120 characters of a long unknown name', () => {
    const name = 'n'.repeat(100_000);
    let message = '';
    try {
      encodeAttributes({ attributes: { [name]: 'x' } }, SCHEMA);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('has no attribute named');
    expect(message.length).toBeLessThan(400);
  });
});
