// A token property of a Unique schema v1 collection in the words a person reads: its field's name
// (Name, Description, Image, or the attribute's own name) and its value unpacked from the schema's
// encoding (`{"_": …}` boxes, enum indexes), so the sign dialog says "color: blue", not
// `"a.0" set to "1"`. Keys the schema does not define stay as they are.
import type { AttributeSchema } from '../types';

/** A property's field name and readable value, or null when the key is not one of the schema's. */
export interface PropertyWords {
  field: string;
  value: string;
}

const FIXED_FIELDS: Record<string, string> = { n: 'Name', d: 'Description', 'i.u': 'Image (web address)', 'i.c': 'Image (IPFS file)' };

function parse(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** `{"_": x}` → x; localized text keeps its default (`_`) form; lists are joined. */
function unboxed(value: unknown): string {
  if (Array.isArray(value)) return value.map(unboxed).join(', ');
  if (value !== null && typeof value === 'object' && '_' in value) return String((value as { _: unknown })._);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** An attribute's stored value: enum indexes as their values' text, else the boxed value. */
function attributeValue(definition: AttributeSchema | undefined, value: unknown): string {
  const enumValues = definition?.enumValues;
  const named = (index: unknown) => (enumValues && Object.hasOwn(enumValues, String(index)) ? String(enumValues[String(index)]._) : unboxed(index));
  if (enumValues && Array.isArray(value)) return value.map(named).join(', ');
  if (enumValues && typeof value === 'number') return named(value);
  return unboxed(value);
}

export function tokenPropertyWords(key: string, value: string, attributes: Record<string, AttributeSchema> | undefined): PropertyWords | null {
  if (Object.hasOwn(FIXED_FIELDS, key)) return { field: FIXED_FIELDS[key], value: key.startsWith('i.') ? value : unboxed(parse(value)) };
  const attribute = /^a\.(\d+)$/.exec(key)?.[1];
  if (attribute === undefined || !attributes) return null;
  const definition = Object.hasOwn(attributes, attribute) ? attributes[attribute] : undefined;
  if (!definition) return null;
  return { field: String(definition.name?._ ?? `Attribute ${attribute}`), value: attributeValue(definition, parse(value)) };
}
