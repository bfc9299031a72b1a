// The Unique schema held in a collection's properties, parsed once per distinct property list.
import type { Property } from '../../ledger/types';
import { quote } from '../../limits';
import { messageOf } from './errors';
import { unpackSchemaProperties, type UniqueCollectionSchemaToCreate } from './library';
import { checkSchema } from './schema-check';
import { deepFreeze } from './shape';

export type StoredSchema =
  /** No `schemaName` of "unique": not a Unique schema at all. */
  | { kind: 'none' }
  /** Claims to be a Unique schema but does not validate. */
  | { kind: 'invalid'; message: string }
  /** Valid; deep-frozen because it is shared by every read. */
  | { kind: 'unique'; schema: Readonly<UniqueCollectionSchemaToCreate> };

const NONE: StoredSchema = { kind: 'none' };

/**
 * The top-level keys of a Unique collection schema (the library's UniqueCollectionSchemaToCreate;
 * royalties are decoded on their own). The library unpacks every property it is given, so a
 * collection's own property (`website`) would land in the schema as garbage: only these go in.
 */
const SCHEMA_KEYS = new Set([
  'schemaName',
  'schemaVersion',
  'coverPicture',
  'coverPicturePreview',
  'attributesSchemaVersion',
  'attributesSchema',
  'image',
  'imagePreview',
  'file',
  'video',
  'audio',
  'spatialObject'
]);

function isSchemaProperty(property: Property): boolean {
  const dot = property.key.indexOf('.');
  return SCHEMA_KEYS.has(dot === -1 ? property.key : property.key.slice(0, dot));
}

// Reads often hand in the same array (identity hit); stores that copy records hit the content key.
const byIdentity = new WeakMap<readonly Property[], StoredSchema>();
const byContent = new Map<string, StoredSchema>();
const CONTENT_CACHE_SIZE = 256;

function schemaTwo(properties: readonly Property[]): StoredSchema {
  const version = properties.find((p) => p.key === 'schemaVersion')?.value ?? '';
  return { kind: 'invalid', message: `schemaVersion must be "1.0.0", got "${quote(version)}": a Unique schema 2 collection (read it at /collections/v2)` };
}

function parse(properties: readonly Property[]): StoredSchema {
  const nameProperty = properties.find((p) => p.key === 'schemaName');
  if (!nameProperty) return NONE;
  let name: unknown;
  try {
    name = JSON.parse(nameProperty.value);
  } catch {
    // Schema 2 keeps `unique` unquoted: a Unique schema the v1 read cannot decode (decodingError, as the real reads).
    return nameProperty.value === 'unique' ? schemaTwo(properties) : NONE;
  }
  if (name !== 'unique') return NONE;
  try {
    const schema: unknown = unpackSchemaProperties(properties.filter(isSchemaProperty));
    checkSchema(schema);
    return { kind: 'unique', schema: deepFreeze(schema) };
  } catch (error) {
    return { kind: 'invalid', message: messageOf(error) };
  }
}

function contentKey(properties: readonly Property[]): string {
  let key = '';
  for (const p of properties) key += `${p.key}\u0000${p.value}\u0001`;
  return key;
}

export function readStoredSchema(properties: readonly Property[]): StoredSchema {
  const known = byIdentity.get(properties);
  if (known) return known;
  // Only the schema-shaped keys matter; a cheap test skips the key build for plain collections.
  if (!properties.some((p) => p.key === 'schemaName')) return NONE;
  const key = contentKey(properties);
  let stored = byContent.get(key);
  if (!stored) {
    stored = parse(properties);
    if (byContent.size >= CONTENT_CACHE_SIZE) byContent.delete(byContent.keys().next().value as string);
    byContent.set(key, stored);
  }
  byIdentity.set(properties, stored);
  return stored;
}
