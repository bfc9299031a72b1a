// Properties → Unique schema 2.0.0, as @unique-nft/schemas 2.x `decodeCollectionToV2` /
// `decodeTokenToV2`: a v2 collection or token is its stored JSON; a v1 one is converted (name,
// description, image url, attributes as trait/value pairs, media, royalties); anything else is a
// parsing error in the library's words.
import { Royalties } from '@unique-nft/utils/royalties';
import type { Property } from '../../ledger/types';
import { decodeCollectionSchema } from './collection-schema';
import { COLLECTION_INFO_KEY, TOKEN_DATA_KEY } from './encode-v2';
import { messageOf } from './errors';
import { ROYALTIES_KEY } from './royalties';
import { isRecord, type Json } from './shape';
import { decodeTokenData, type DecodedAttribute } from './token-data';

type Family = 'V1' | 'V2' | 'ERC721' | 'UNKNOWN';
type RoyaltyV2 = { address: string; percent: number; isPrimaryOnly?: boolean };

export interface V2Decoded<T> {
  value: T | null;
  parsingError: string | null;
}

const valueOf = (properties: readonly Property[], key: string) => properties.find((p) => p.key === key)?.value;

/** The library's detectCollectionSchemaFamily, over token and collection properties. */
function schemaFamily(token: readonly Property[], collection: readonly Property[]): { family: Family; tokenURI: string | null } {
  const collectionName = valueOf(collection, 'schemaName');
  const isUnique = valueOf(token, 'schemaName') === 'unique' || collectionName === 'unique' || collectionName === '"unique"';
  const version = isUnique ? (valueOf(token, 'schemaVersion') || valueOf(collection, 'schemaVersion') || '') : '';
  const major = Number.parseInt(version.replace(/^"/, ''), 10);
  const tokenURI = valueOf(token, 'URI') || (valueOf(collection, 'baseURI') ?? '') + (valueOf(token, 'URISuffix') ?? '') || null;
  if (major === 2) return { family: 'V2', tokenURI };
  if (major === 1) return { family: 'V1', tokenURI };
  return { family: tokenURI ? 'ERC721' : 'UNKNOWN', tokenURI };
}

function parseObject(json: string | undefined): Json | null {
  try {
    const value: unknown = JSON.parse(json ?? '');
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

/** Royalties of a `royalties` property in the v2 form ({address, percent}); none when absent. */
export function royaltiesV2(properties: readonly Property[]): RoyaltyV2[] {
  const encoded = valueOf(properties, ROYALTIES_KEY);
  return encoded ? Royalties.uniqueV2.decode(encoded) : [];
}

function safeRoyalties(properties: readonly Property[]): RoyaltyV2[] {
  try {
    return royaltiesV2(properties);
  } catch {
    return [];
  }
}

const failed = <T>(message: string): V2Decoded<T> => ({ value: null, parsingError: message });

export async function decodeCollectionV2(properties: Property[], options: { ipfsGateway: string }): Promise<V2Decoded<Json>> {
  const { family } = schemaFamily(properties, properties);
  if (family === 'V2') return { value: parseObject(valueOf(properties, COLLECTION_INFO_KEY)) ?? {}, parsingError: null };
  if (properties.length === 0) return failed('Unable to parse: collection properties are empty');
  if (family !== 'V1') return failed(`Unknown collection schema: "${family}"`);
  const { schema, decodingError } = await decodeCollectionSchema(0, properties, options);
  if (!schema) return failed(decodingError ?? 'Unknown collection schema: "V1"');
  const info: Json = { schemaName: 'unique', schemaVersion: '2.0.0', originalSchemaVersion: (schema.schemaVersion as string) || '1.0.0' };
  const royalties = safeRoyalties(properties);
  if (royalties.length) info.royalties = royalties;
  const attributes = schema.attributesSchema as Record<string, { name: { _: string }; type: string; enumValues?: Record<string, { _: unknown }> }> | undefined;
  if (attributes) {
    info.potential_attributes = Object.values(attributes).map((a) => ({
      trait_type: a.name._,
      display_type: a.type,
      ...(a.enumValues ? { values: Object.values(a.enumValues).map((e) => e._) } : {})
    }));
  }
  const cover = (schema.coverPicture as { fullUrl?: string | null } | undefined)?.fullUrl;
  if (cover) info.cover_image = { url: cover };
  return { value: info, parsingError: null };
}

/** An attribute's v1 values as trait/value pairs (arrays give one pair per entry). */
function traits(attribute: DecodedAttribute): Array<{ trait_type: string; value: string | number }> {
  const trait_type = attribute.name._;
  const values = attribute.isArray && Array.isArray(attribute.value) ? attribute.value : [attribute.value];
  return values
    .map((v) => (isRecord(v) ? v._ : undefined))
    .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
    .map((value) => ({ trait_type, value }));
}

/** Collection royalties overridden address by address by the token's. */
function mergeRoyalties(collection: RoyaltyV2[], token: RoyaltyV2[]): RoyaltyV2[] {
  const byAddress = new Map(collection.map((r) => [r.address, r]));
  for (const r of token) byAddress.set(r.address, r);
  return [...byAddress.values()];
}

async function tokenFromV1(token: Property[], collection: Property[], options: { ipfsGateway: string }): Promise<V2Decoded<Json>> {
  const decoded = await decodeTokenData(token, collection, options);
  if (decoded.decodingError !== null) return failed(decoded.decodingError);
  const attributes = Object.values(decoded.attributes);
  const named = (name: string) => {
    const value = attributes.find((a) => a.name._ === name)?.value;
    return isRecord(value) && typeof value._ === 'string' ? value._ : undefined;
  };
  const out: Json = { schemaName: 'unique', schemaVersion: '2.0.0', originalSchemaVersion: '1.0.0' };
  if (decoded.image.fullUrl) out.image = decoded.image.fullUrl;
  const name = decoded.name?._ ?? named('name');
  const description = decoded.description?._ ?? named('description');
  if (name) out.name = name;
  if (description) out.description = description;
  const pairs = attributes.flatMap(traits);
  if (pairs.length) out.attributes = pairs;
  const media: Json = {};
  if (decoded.video?.fullUrl) media.video = { type: 'video', url: decoded.video.fullUrl };
  if (decoded.audio?.fullUrl) media.audio = { type: 'audio', url: decoded.audio.fullUrl };
  if (decoded.spatialObject?.fullUrl) media.spatial = { type: 'spatial', url: decoded.spatialObject.fullUrl };
  if (decoded.file?.fullUrl) media.file = { type: 'document', url: decoded.file.fullUrl };
  if (Object.keys(media).length) out.media = media;
  const royalties = mergeRoyalties(safeRoyalties(collection), safeRoyalties(token));
  if (royalties.length) out.royalties = royalties;
  return { value: out, parsingError: null };
}

export async function decodeTokenV2(token: Property[], collection: Property[], options: { ipfsGateway: string }): Promise<V2Decoded<Json>> {
  const { family } = schemaFamily(token, collection);
  try {
    if (family === 'V2' || family === 'ERC721') {
      const data = parseObject(valueOf(token, TOKEN_DATA_KEY));
      return data ? { value: data, parsingError: null } : failed('Unable to parse tokenData JSON');
    }
    if (family === 'V1') return await tokenFromV1(token, collection, options);
  } catch (error) {
    return failed(messageOf(error));
  }
  return failed('Unknown token schema version - not Unique v2, v1 or v0 and not ERC721Metadata-compatible');
}
