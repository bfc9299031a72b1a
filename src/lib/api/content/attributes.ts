// Token attributes from mint `data`: `encodedAttributes` (by index) and `attributes` (by name).
// Keys come from the client: only own properties count (`toString`, `__proto__` are no attributes).
import { quote } from '../../limits';
import { ContentError } from './errors';
import type { AttributeSchema, UniqueCollectionSchemaToCreate } from './library';
import { isGiven, isRecord, type Json } from './shape';

const NUMBER_TYPES = ['number', 'integer', 'float', 'boolean', 'timestamp'];

type Definitions = Readonly<Record<string, AttributeSchema>>;

/** The index of the attribute called `name` (any language), else `name` itself when it is an index. */
function findIndex(definitions: Definitions, name: string): string | undefined {
  for (const [index, definition] of Object.entries(definitions)) {
    if (definition.name._ === name) return index;
  }
  for (const [index, definition] of Object.entries(definitions)) {
    if (Object.values(definition.name).includes(name)) return index;
  }
  return Object.hasOwn(definitions, name) ? name : undefined;
}

/** One human value of an enum attribute → its enum key: matched by value (`_` or any language), else an index. */
function enumKey(definition: AttributeSchema, value: unknown, path: string): number {
  const enumValues = definition.enumValues as Record<string, Json>;
  const wanted = isRecord(value) ? value._ : value;
  for (const [key, entry] of Object.entries(enumValues)) if (entry._ === wanted) return Number(key);
  if (typeof wanted === 'string') {
    for (const [key, entry] of Object.entries(enumValues)) if (Object.values(entry).includes(wanted)) return Number(key);
  }
  if (typeof wanted === 'number' && Number.isInteger(wanted) && Object.hasOwn(enumValues, String(wanted))) return wanted;
  const allowed = Object.values(enumValues).map((entry) => JSON.stringify(entry._)).join(', ');
  throw new ContentError(`${path}: ${quote(JSON.stringify(wanted))} is not one of the attribute's values (${allowed})`);
}

/** One human value of a plain attribute → the boxed form the schema stores ({_: value}). */
function boxed(definition: AttributeSchema, value: unknown): unknown {
  if (isRecord(value)) return value;
  if (NUMBER_TYPES.includes(definition.type)) {
    if (typeof value === 'boolean') return { _: value ? 1 : 0 };
    return typeof value === 'number' ? { _: value } : value;
  }
  return typeof value === 'string' ? { _: value } : value;
}

function encodeValue(definition: AttributeSchema, value: unknown, path: string): unknown {
  const one = (item: unknown, itemPath: string) => (definition.enumValues ? enumKey(definition, item, itemPath) : boxed(definition, item));
  if (definition.isArray) {
    if (!Array.isArray(value)) throw new ContentError(`${path} must be an array (the attribute is a list)`);
    return value.map((item, i) => one(item, `${path}[${i}]`));
  }
  if (Array.isArray(value)) throw new ContentError(`${path} must not be an array (the attribute is a single value)`);
  return one(value, path);
}

/**
 * The token's encoded attributes (index → stored value), or undefined when `data` has none.
 * Values are type-checked afterwards by the library's token validator; here only the mapping:
 * unknown indexes and names are refused, since the chain would refuse their `a.<n>` keys anyway.
 */
export function encodeAttributes(data: Json, schema: Readonly<UniqueCollectionSchemaToCreate>): Json | undefined {
  const { attributes, encodedAttributes } = data;
  if (!isGiven(attributes) && !isGiven(encodedAttributes)) return undefined;
  const definitions: Definitions = schema.attributesSchema ?? {};
  const result: Json = {};
  if (isGiven(encodedAttributes)) {
    if (!isRecord(encodedAttributes)) throw new ContentError('data.encodedAttributes must be an object keyed by attribute index');
    for (const [index, value] of Object.entries(encodedAttributes)) {
      if (!Object.hasOwn(definitions, index)) throw new ContentError(`data.encodedAttributes.${quote(index)}: the collection schema has no attribute ${quote(index)}`);
      result[index] = value;
    }
  }
  if (isGiven(attributes)) {
    if (!isRecord(attributes)) throw new ContentError('data.attributes must be an object keyed by attribute name');
    for (const [name, value] of Object.entries(attributes)) {
      if (!isGiven(value)) continue;
      const path = `data.attributes.${quote(name)}`;
      const index = findIndex(definitions, name);
      if (index === undefined) throw new ContentError(`${path}: the collection schema has no attribute named "${quote(name)}"`);
      if (Object.hasOwn(result, index)) throw new ContentError(`${path}: attribute ${index} is given twice`);
      result[index] = encodeValue(definitions[index], value, path);
    }
  }
  return result;
}
