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
    expect(tokenPropertyWords('a.0', '1', attributes)).toEqual({ field: 'Attribute “color”', value: 'blue' });
    expect(tokenPropertyWords('a.1', '{"_":10}', attributes)).toEqual({ field: 'Attribute “power”', value: '10' });
    expect(tokenPropertyWords('a.2', '[0,1]', attributes)).toEqual({ field: 'Attribute “traits”', value: 'fast, shy' });
  });

  it('leaves keys the schema does not define to be said as they are', () => {
    expect(tokenPropertyWords('a.9', '1', attributes)).toBeNull();
    expect(tokenPropertyWords('royalty', '5', attributes)).toBeNull();
    expect(tokenPropertyWords('a.0', '1', undefined)).toBeNull();
    expect(tokenPropertyWords('a.__proto__', '1', attributes)).toBeNull();
  });

  it('unpacks only what shows exactly what is stored: other forms, rounded numbers, escapes and odd schemas are left as stored', () => {
    // Another form than the schema's {"_": …} box: "Sunset" and ["Sunset"] must not read as {"_":"Sunset"}.
    expect(tokenPropertyWords('n', '"Sunset"', attributes)).toBeNull();
    expect(tokenPropertyWords('n', '["Sunset"]', attributes)).toBeNull();
    // Another language beside the default would go unseen: shown as stored.
    expect(tokenPropertyWords('n', '{"_":"Tom","en":"Thomas"}', attributes)).toBeNull();
    // A number JSON cannot keep, and an escape that would become an invisible character.
    expect(tokenPropertyWords('a.1', '{"_":12345678901234567890}', attributes)).toBeNull();
    expect(tokenPropertyWords('a.1', '{"_":1.50}', attributes)).toBeNull();
    expect(tokenPropertyWords('n', '{"_":"abc\\u202edef"}', attributes)).toBeNull();
    // Deep nesting, objects where text is expected, an enum entry that is null: no throw, no guess.
    expect(tokenPropertyWords('n', '['.repeat(16_000) + ']'.repeat(16_000), attributes)).toBeNull();
    expect(tokenPropertyWords('a.1', '{"_":{"x":1}}', attributes)).toBeNull();
    const odd = { '0': { name: { _: 'color' }, type: 'string', enumValues: { '0': null } } } as unknown as Record<string, AttributeSchema>;
    expect(tokenPropertyWords('a.0', '0', odd)).toBeNull();
    expect(tokenPropertyWords('a.0', '1', { '0': null } as unknown as Record<string, AttributeSchema>)).toBeNull();
  });

  it('labels an attribute by at most 64 characters of its name, none hiding or reordering text', () => {
    const named = (name: string) => ({ '1': { name: { _: name }, type: 'number' } }) as unknown as Record<string, AttributeSchema>;
    expect(tokenPropertyWords('a.1', '{"_":1}', named('po\u202ewer'))?.field).toBe('Attribute “po\uFFFDwer”');
    const long = tokenPropertyWords('a.1', '{"_":1}', named('😀'.repeat(70)))!.field;
    expect(long).toBe(`Attribute “${'😀'.repeat(64)}…”`);
  });
});
