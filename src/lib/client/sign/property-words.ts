// A token property of a Unique schema v1 collection in the words a person reads: its field's name
// (Name, Description, Image, or the attribute's own name) and its value unpacked from the schema's
// encoding (`{"_": …}` boxes, enum indexes), so the sign dialog says `Attribute “color”: “blue”`,
// not `"a.0" set to "1"`. Only the schema's own forms are unpacked, and only when unpacking shows
// exactly what is stored; anything else (another form, a number JSON cannot keep, an escape that
// would become an invisible character) is left for the caller to show as stored.
import { isRecord } from '../../codec/scale';
import type { AttributeSchema } from '../types';

/** A property's field name and readable value, or null when it is to be shown as stored. */
export interface PropertyWords {
  field: string;
  value: string;
}

const FIXED_FIELDS: Record<string, string> = { n: 'Name', d: 'Description', 'i.u': 'Image (web address)', 'i.c': 'Image (IPFS file)' };

type Primitive = string | number | boolean;
const isPrimitive = (value: unknown): value is Primitive => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** The stored JSON when writing it back gives the very same text (no number JSON rounds, no escape unescaped), else undefined. */
function exactJson(value: string): unknown {
  try {
    const parsed: unknown = JSON.parse(value);
    return JSON.stringify(parsed) === value ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** `{"_": x}` with x a string, number or boolean, and nothing beside it: x as text (other languages would go unseen). */
function boxed(value: unknown): string | null {
  return isRecord(value) && Object.keys(value).length === 1 && isPrimitive(value._) ? String(value._) : null;
}

/** A name the collection's owner chose, as a label: at most 64 characters, none that hides or reorders text. */
function label(name: string): string {
  const chars = Array.from(name.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '\uFFFD'));
  return chars.length > 64 ? `${chars.slice(0, 64).join('')}…` : chars.join('');
}

/** An attribute's stored value: an enum index (or a list of them) as its value's text, else a boxed value (or a list of them). */
function attributeValue(definition: AttributeSchema, value: unknown): string | null {
  const enumValues = isRecord(definition.enumValues) ? definition.enumValues : undefined;
  const enumText = (index: unknown) => {
    const entry = enumValues && typeof index === 'number' && Object.hasOwn(enumValues, String(index)) ? enumValues[String(index)] : undefined;
    return isRecord(entry) && isPrimitive(entry._) ? String(entry._) : null;
  };
  const one = (item: unknown) => (enumValues ? enumText(item) : boxed(item));
  if (!Array.isArray(value)) return one(value);
  const items = value.map(one);
  return items.every((item): item is string => item !== null) ? items.join(', ') : null;
}

export function tokenPropertyWords(key: string, value: string, attributes: Record<string, AttributeSchema> | undefined): PropertyWords | null {
  if (key === 'i.u' || key === 'i.c') return { field: FIXED_FIELDS[key], value };
  if (key === 'n' || key === 'd') {
    const text = boxed(exactJson(value));
    return text === null ? null : { field: FIXED_FIELDS[key], value: text };
  }
  const index = /^a\.(\d{1,6})$/.exec(key)?.[1];
  if (index === undefined || !isRecord(attributes) || !Object.hasOwn(attributes, index)) return null;
  const definition = attributes[index];
  if (!isRecord(definition)) return null;
  const name = isRecord(definition.name) && isPrimitive(definition.name._) ? String(definition.name._) : `${index}`;
  const text = attributeValue(definition, exactJson(value));
  return text === null ? null : { field: `Attribute “${label(name)}”`, value: text };
}
