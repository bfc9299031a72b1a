// Attribute values checked as the service checks them, before anything is signed.
import { describe, expect, it } from 'vitest';
import { attributeValue, missingAttributes } from './attribute-value';
import type { AttributeSchema } from './types';

const attribute = (type: string, more: Partial<AttributeSchema> = {}): AttributeSchema => ({ name: { _: 'A' }, type: type as AttributeSchema['type'], ...more });
const problem = (definition: AttributeSchema, raw: unknown) => {
  try {
    attributeValue(definition, raw);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('attributeValue', () => {
  it('takes an enum value by its text (any language, any case) or its number, and names the allowed ones otherwise', () => {
    const rarity = attribute('string', { enumValues: { '0': { _: 'common', fr: 'commun' }, '1': { _: 'rare' } } });
    expect(attributeValue(rarity, 'rare')).toBe('rare');
    expect(attributeValue(rarity, ' Commun ')).toBe('common');
    expect(attributeValue(rarity, 1)).toBe(1);
    expect(problem(rarity, 'epic')).toBe('"epic" is not one of the allowed values (common, rare)');
    expect(problem(rarity, 7)).toBe('7 is not one of the allowed values (common, rare)');
    const sizes = attribute('integer', { enumValues: { '0': { _: 10 }, '1': { _: 20 } }, isArray: true });
    expect(attributeValue(sizes, '10|20')).toEqual([10, 20]);
    expect(problem(sizes, '10|30')).toBe('"30" is not one of the allowed values (10, 20)');
  });

  it('checks numbers, whole numbers and booleans', () => {
    expect(attributeValue(attribute('float'), ' 2.5 ')).toBe(2.5);
    expect(problem(attribute('number'), 'lots')).toBe('"lots" is not a number');
    expect(problem(attribute('integer'), '2.5')).toBe('"2.5" is not a whole number');
    expect(problem(attribute('timestamp'), true)).toBe('true is not a whole number');
    expect([attributeValue(attribute('boolean'), 'Yes'), attributeValue(attribute('boolean'), '0'), attributeValue(attribute('boolean'), false)]).toEqual([true, false, false]);
    expect(problem(attribute('boolean'), 'maybe')).toBe('"maybe" is not true or false');
  });

  it('checks dates, times, colours and text', () => {
    expect(attributeValue(attribute('isoDate'), '2024-05-01')).toBe('2024-05-01');
    expect(problem(attribute('isoDate'), 'someday')).toBe('"someday" is not a date (YYYY-MM-DD)');
    expect(problem(attribute('time'), '25:99')).toBe('"25:99" is not a time (hh:mm or hh:mm:ss)');
    expect(attributeValue(attribute('colorRgba'), '#ff00ff80')).toBe('#ff00ff80');
    expect(problem(attribute('colorRgba'), 'red')).toBe('"red" is not a colour (#rrggbb or #rrggbbaa)');
    expect(problem(attribute('string'), 5)).toBe('5 is not text');
    expect(attributeValue(attribute('string'), { _: 'hi', fr: 'salut' })).toEqual({ _: 'hi', fr: 'salut' });
    expect(problem(attribute('string'), ['a'])).toBe('takes one value, not a list');
  });
});

describe('missingAttributes', () => {
  it('names the required attributes a token with attributes lacks', () => {
    const schema = { '0': { ...attribute('string'), name: { _: 'Kind' } }, '1': { ...attribute('integer'), name: { _: 'Power' }, optional: true } };
    expect(missingAttributes(schema, [])).toEqual([]);
    expect(missingAttributes(schema, ['Power'])).toEqual(['Kind']);
    expect(missingAttributes(schema, ['Kind'])).toEqual([]);
  });
});
