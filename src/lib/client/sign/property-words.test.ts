import { describe, expect, it } from 'vitest';
import type { AttributeSchema } from '../types';
import { tokenPropertyWords } from './property-words';

const attributes: Record<string, AttributeSchema> = {
  '0': { name: { _: 'color' }, type: 'string', enumValues: { '0': { _: 'red' }, '1': { _: 'blue' } } } as AttributeSchema,
  '1': { name: { _: 'power' }, type: 'number' } as AttributeSchema,
  '2': { name: { _: 'traits' }, type: 'string', isArray: true, enumValues: { '0': { _: 'fast' }, '1': { _: 'shy' } } } as AttributeSchema
};

describe('tokenPropertyWords', () => {
  it('says the schema’s fixed fields by name, their values unboxed', () => {
    expect(tokenPropertyWords('n', '{"_":"Sunset"}', attributes)).toEqual({ field: 'Name', value: 'Sunset' });
    expect(tokenPropertyWords('d', '{"_":"A warm evening"}', attributes)).toEqual({ field: 'Description', value: 'A warm evening' });
    expect(tokenPropertyWords('i.u', 'https://x/i.png', attributes)).toEqual({ field: 'Image (web address)', value: 'https://x/i.png' });
  });

  it('says an attribute by its name: an enum index as its value’s text, a boxed value unboxed, a list of indexes joined', () => {
    expect(tokenPropertyWords('a.0', '1', attributes)).toEqual({ field: 'color', value: 'blue' });
    expect(tokenPropertyWords('a.1', '{"_":10}', attributes)).toEqual({ field: 'power', value: '10' });
    expect(tokenPropertyWords('a.2', '[0,1]', attributes)).toEqual({ field: 'traits', value: 'fast, shy' });
  });

  it('leaves keys the schema does not define to be said as they are', () => {
    expect(tokenPropertyWords('a.9', '1', attributes)).toBeNull();
    expect(tokenPropertyWords('royalty', '5', attributes)).toBeNull();
    expect(tokenPropertyWords('a.0', '1', undefined)).toBeNull();
  });
});
