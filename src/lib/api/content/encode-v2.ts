// Unique schema 2.0.0 → properties, as @unique-nft/schemas 2.x `encodeCollection` / `encodeToken`:
// `schemaName` and `schemaVersion` as plain text (v1 stores them JSON-quoted), the whole info or
// token as JSON in one property (`collectionInfo`, `tokenData`), token royalties binary-encoded.
import { Royalties } from '@unique-nft/utils/royalties';
import type { Property, PropertyKeyPermission, PropertyPermission } from '../../ledger/types';
import { MAX_PROPERTY_VALUE_LENGTH } from '../../ledger/constants';
import { ContentError, messageOf } from './errors';
import { mergeByKey } from './merge';
import { ROYALTIES_KEY } from './royalties';
import { V2_SCHEMA_NAME, V2_SCHEMA_VERSION, type CollectionInfoV2, type TokenV2 } from './schema-v2';

export const COLLECTION_INFO_KEY = 'collectionInfo';
export const TOKEN_DATA_KEY = 'tokenData';

/** The library's default token property permission (REWRITEABLE_FOR_COLLECTION_ADMIN). */
export const V2_DEFAULT_PERMISSION: PropertyPermission = { mutable: true, collectionAdmin: true, tokenOwner: false };

/** Token keys a v2 collection lets its admins write, in the library's order. */
const V2_TOKEN_KEYS = ['schemaName', 'schemaVersion', 'tokenData', 'URI', 'URISuffix', 'overrides', 'customizing_overrides', 'royalties'];

export interface CollectionEncodeOptions {
  defaultPermission?: PropertyPermission;
  overwriteProperties?: Property[];
  overwriteTPPs?: PropertyKeyPermission[];
}

export interface TokenEncodeOptions {
  URI?: string;
  overwriteProperties?: Property[];
}

/** A JSON property value the chain can hold (its values are at most 32 KiB). */
function jsonValue(key: string, value: unknown): Property {
  const json = JSON.stringify(value);
  if (new TextEncoder().encode(json).length > MAX_PROPERTY_VALUE_LENGTH) {
    throw new ContentError(`${key} is longer than ${MAX_PROPERTY_VALUE_LENGTH} bytes encoded, more than one property value holds`);
  }
  return { key, value: json };
}

function schemaProperties(info: { schemaName: string; schemaVersion: string }): Property[] {
  return [
    { key: 'schemaName', value: info.schemaName || V2_SCHEMA_NAME },
    { key: 'schemaVersion', value: info.schemaVersion || V2_SCHEMA_VERSION }
  ];
}

export function encodeCollectionV2(info: CollectionInfoV2, options: CollectionEncodeOptions = {}) {
  // The library's own refusal, in its words.
  if (info.royalties) throw new ContentError('Royalties are not supported in collections in v2, please use the token level royalties');
  const properties = [...schemaProperties(info), jsonValue(COLLECTION_INFO_KEY, info)];
  const permission = options.defaultPermission ?? V2_DEFAULT_PERMISSION;
  const permissions = V2_TOKEN_KEYS.map((key) => ({ key, permission: { ...permission } }));
  return {
    properties: mergeByKey(properties, options.overwriteProperties ?? []),
    tokenPropertyPermissions: mergeByKey(permissions, options.overwriteTPPs ?? [])
  };
}

/**
 * Royalties as the chain holds them: the binary parts, kept as their hex text (the ledger's
 * properties are text; v1 royalties are stored the same way).
 */
function royaltiesProperty(royalties: TokenV2['royalties']): Property[] {
  if (!royalties) return [];
  try {
    return [{ key: ROYALTIES_KEY, value: Royalties.uniqueV2.encode(royalties) }];
  } catch (error) {
    throw new ContentError(`royalties: ${messageOf(error)}`);
  }
}

export function encodeTokenV2(token: TokenV2, options: TokenEncodeOptions = {}): Property[] {
  const properties = [
    ...schemaProperties(token),
    jsonValue(TOKEN_DATA_KEY, token),
    ...royaltiesProperty(token.royalties),
    ...(options.URI ? [{ key: 'URI', value: options.URI }] : [])
  ];
  return mergeByKey(properties, options.overwriteProperties ?? []);
}
