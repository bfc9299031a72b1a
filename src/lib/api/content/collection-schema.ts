// Collection schema: the default one, create-time encoding and merging, and the decoded read model.
import type { Property, PropertyKeyPermission } from '../../ledger/types';
import { ContentError, messageOf } from './errors';
import { encodeSchemaProperties, schemaTokenPermissions, type UniqueCollectionSchemaToCreate } from './library';
import { decodeMedia, type MediaInput } from './media';
import { mergeByKey, sortByKey } from './merge';
import { decodeRoyalties } from './royalties';
import { checkSchema, pickSchemaInput } from './schema-check';
import { copyJson, deepFreeze, isGiven, isRecord } from './shape';
import { readStoredSchema } from './stored-schema';

/**
 * Given to collections created without `schema` (DECISIONS 4). Every media field of token `data`
 * is declared with the bare '{infix}' template, so a token's image, preview, video, audio, 3D
 * object and file all survive a mint on any collection (the library drops media the schema lacks).
 * The validator insists on a cover picture; an empty url infix is the honest "none", and decodes to
 * fullUrl "".
 */
export const DEFAULT_SCHEMA: Readonly<UniqueCollectionSchemaToCreate> = deepFreeze({
  schemaName: 'unique',
  schemaVersion: '1.0.0',
  coverPicture: { urlInfix: '' },
  image: { urlTemplate: '{infix}' },
  imagePreview: { urlTemplate: '{infix}' },
  video: { urlTemplate: '{infix}' },
  audio: { urlTemplate: '{infix}' },
  spatialObject: { urlTemplate: '{infix}' },
  file: { urlTemplate: '{infix}' }
});

export interface CollectionContent {
  properties: Property[];
  tokenPropertyPermissions: PropertyKeyPermission[];
}

/** Validates a create-time schema like the real service and encodes it with the real library. */
export function encodeCollectionSchema(schema: unknown): CollectionContent {
  const picked = pickSchemaInput(schema);
  checkSchema(picked);
  try {
    return {
      properties: sortByKey(encodeSchemaProperties(picked)),
      tokenPropertyPermissions: sortByKey(schemaTokenPermissions(picked))
    };
  } catch (error) {
    throw new ContentError(`Invalid collection schema: ${messageOf(error)}`);
  }
}

function checkProperties(value: unknown): Property[] {
  if (!isGiven(value)) return [];
  if (!Array.isArray(value)) throw new ContentError('properties must be an array of {key, value}');
  return value.map((item, i) => {
    if (!isRecord(item) || typeof item.key !== 'string' || typeof item.value !== 'string') {
      throw new ContentError(`properties[${i}] must be {key: string, value: string}`);
    }
    return { key: item.key, value: item.value };
  });
}

function checkPermissions(value: unknown): PropertyKeyPermission[] {
  if (!isGiven(value)) return [];
  if (!Array.isArray(value)) throw new ContentError('tokenPropertyPermissions must be an array of {key, permission}');
  return value.map((item, i) => {
    const path = `tokenPropertyPermissions[${i}]`;
    if (!isRecord(item) || typeof item.key !== 'string') throw new ContentError(`${path} must be {key: string, permission}`);
    const p = item.permission;
    if (!isRecord(p)) throw new ContentError(`${path}.permission must be {mutable, collectionAdmin, tokenOwner}`);
    for (const flag of ['mutable', 'collectionAdmin', 'tokenOwner']) {
      if (typeof p[flag] !== 'boolean') throw new ContentError(`${path}.permission.${flag} must be a boolean`);
    }
    return { key: item.key, permission: { mutable: p.mutable as boolean, collectionAdmin: p.collectionAdmin as boolean, tokenOwner: p.tokenOwner as boolean } };
  });
}

/** The first segment of a flattened key: `coverPicture.urlInfix` → `coverPicture`. */
function group(key: string): string {
  return key.split('.')[0];
}

/**
 * The default schema's properties minus every group the explicit properties touch: a client
 * sending `coverPicture.ipfsCid` means to replace the default cover, and keeping the default's
 * `coverPicture.urlInfix` beside it would make the schema invalid (one source only).
 */
function defaultPropertiesUnder(explicit: readonly Property[]): Property[] {
  const touched = new Set(explicit.map((p) => group(p.key)));
  return defaultContent().properties.filter((p) => !touched.has(group(p.key)));
}

let defaultEncoded: CollectionContent | undefined;

/** DEFAULT_SCHEMA encoded once; callers get their own copies. */
function defaultContent(): CollectionContent {
  defaultEncoded ??= encodeCollectionSchema(DEFAULT_SCHEMA);
  return copyJson(defaultEncoded);
}

/**
 * Create-collection content: the schema's properties and token property permissions (the default
 * schema when `schema` is absent), overridden key by key by the body's explicit lists, as the real
 * [sc] encode does. A body whose explicit properties carry their own `schemaName` brings its own
 * schema, so the default one is not mixed in.
 */
export function mergeCreateCollectionContent(body: {
  schema?: unknown;
  properties?: unknown;
  tokenPropertyPermissions?: unknown;
}): CollectionContent {
  const properties = checkProperties(body.properties);
  const permissions = checkPermissions(body.tokenPropertyPermissions);
  if (isGiven(body.schema)) {
    const encoded = encodeCollectionSchema(body.schema);
    return {
      properties: mergeByKey(encoded.properties, properties),
      tokenPropertyPermissions: mergeByKey(encoded.tokenPropertyPermissions, permissions)
    };
  }
  if (properties.some((p) => p.key === 'schemaName')) {
    return { properties: mergeByKey([], properties), tokenPropertyPermissions: mergeByKey([], permissions) };
  }
  return {
    properties: mergeByKey(defaultPropertiesUnder(properties), properties),
    tokenPropertyPermissions: mergeByKey(defaultContent().tokenPropertyPermissions, permissions)
  };
}

export interface DecodedCollectionSchema {
  schema?: Record<string, unknown>;
  decodingError?: string;
}

/**
 * The decoded schema as the real service shows it (the library's decodeUniqueCollectionFromProperties
 * shape: the unpacked properties, `collectionId`, cover pictures with fullUrl, decoded royalties).
 * Not a Unique schema → `{}`; a broken one → `{decodingError}`.
 */
export async function decodeCollectionSchema(
  collectionId: number,
  properties: Property[],
  options: { ipfsGateway: string }
): Promise<DecodedCollectionSchema> {
  const stored = readStoredSchema(properties);
  if (stored.kind === 'none') return {};
  if (stored.kind === 'invalid') return { decodingError: stored.message };
  // A fresh copy: the cached schema is shared and frozen.
  const schema = copyJson(stored.schema) as unknown as Record<string, unknown>;
  const template = stored.schema.image.urlTemplate;
  schema.collectionId = collectionId;
  schema.coverPicture = decodeMedia(stored.schema.coverPicture as MediaInput, template, options.ipfsGateway);
  if (stored.schema.coverPicturePreview) {
    schema.coverPicturePreview = decodeMedia(stored.schema.coverPicturePreview as MediaInput, template, options.ipfsGateway);
  }
  const royalties = decodeRoyalties(properties);
  if (royalties) schema.royalties = royalties;
  return { schema };
}
