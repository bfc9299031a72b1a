// The Unique schema held in a collection's properties, parsed once per distinct property list.
import type { Property } from '../../ledger/types';
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

// Reads often hand in the same array (identity hit); stores that copy records hit the content key.
const byIdentity = new WeakMap<readonly Property[], StoredSchema>();
const byContent = new Map<string, StoredSchema>();
const CONTENT_CACHE_SIZE = 256;

function parse(properties: readonly Property[]): StoredSchema {
  const nameProperty = properties.find((p) => p.key === 'schemaName');
  if (!nameProperty) return NONE;
  let name: unknown;
  try {
    name = JSON.parse(nameProperty.value);
  } catch {
    return NONE;
  }
  if (name !== 'unique') return NONE;
  try {
    const schema: unknown = unpackSchemaProperties([...properties]);
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
