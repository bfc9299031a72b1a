// Token `data` ⇄ token properties (Unique schema v1: n, d, a.<n>, i.*, p.*, f.*, v.*, au.*, so.*).
import type { Property } from '../../ledger/types';
import { MAX_PROPERTY_VALUE_LENGTH } from '../../ledger/constants';
import { quote } from '../../limits';
import { encodeAttributes } from './attributes';
import { ContentError, messageOf } from './errors';
import {
  decodeTokenAttributes,
  encodeTokenProperties,
  unpackTokenProperties,
  validateLocalizedText,
  validateToken,
  type LocalizedStringWithDefault,
  type UniqueCollectionSchemaToCreate,
  type UniqueTokenToCreate
} from './library';
import { checkMedia, decodeMedia, type DecodedMedia, type MediaInput } from './media';
import { sortByKey } from './merge';
import { checkRoyalties, decodeRoyalties, type DecodedRoyaltyPart } from './royalties';
import { isGiven, isRecord, type Json } from './shape';
import { readStoredSchema } from './stored-schema';

export type LocalizedText = LocalizedStringWithDefault;

export interface DecodedAttribute {
  name: LocalizedText;
  value: unknown;
  type: string;
  isArray: boolean;
  isEnum: boolean;
  rawValue: unknown;
}

export interface DecodedToken {
  name?: LocalizedText;
  description?: LocalizedText;
  image: DecodedMedia;
  imagePreview?: DecodedMedia;
  file?: DecodedMedia;
  video?: DecodedMedia;
  audio?: DecodedMedia;
  spatialObject?: DecodedMedia;
  attributes: Record<string, DecodedAttribute>;
  royalties?: DecodedRoyaltyPart[];
  decodingError: string | null;
}

type Schema = Readonly<UniqueCollectionSchemaToCreate>;

/** Token media fields; each takes its url template from the schema entry of the same name. */
const MEDIA_FIELDS = ['image', 'imagePreview', 'file', 'video', 'audio', 'spatialObject'] as const;
type MediaField = (typeof MEDIA_FIELDS)[number];

/**
 * The library requires an image; Opalite lets `data` omit it (every field is optional), so the
 * validators see this stand-in and its keys are dropped again.
 */
const IMAGE_STAND_IN = { urlInfix: '' };

/** Library messages say `token.x`; the client sent `data.x`. */
function asDataError(error: unknown): ContentError {
  return new ContentError(messageOf(error).replace(/\btoken\./g, 'data.'));
}

function schemaOf(collectionProperties: readonly Property[]): Schema {
  const stored = readStoredSchema(collectionProperties);
  if (stored.kind === 'none') {
    throw new ContentError('data needs a collection with a Unique schema, and this collection has none; send raw properties instead');
  }
  if (stored.kind === 'invalid') throw new ContentError(`data cannot be encoded: the collection schema is invalid (${stored.message})`);
  return stored.schema;
}

/** Name or description: a plain string becomes `{_: string}`. */
function localized(value: unknown, path: string): LocalizedText {
  if (typeof value === 'string') return { _: value };
  if (!isRecord(value)) throw new ContentError(`${path} must be a string or a localized text object {_: string}`);
  try {
    validateLocalizedText(value, true, path);
  } catch (error) {
    throw new ContentError(messageOf(error));
  }
  return value as LocalizedText;
}

/**
 * Every string inside `data` fits one property value: a longer one can never be stored, so it is
 * refused (naming where it is) before the library encodes, copies and measures it.
 */
function checkStringLengths(value: unknown, path: string): void {
  if (typeof value === 'string') {
    if (value.length > MAX_PROPERTY_VALUE_LENGTH) throw new ContentError(`${path} must be at most ${MAX_PROPERTY_VALUE_LENGTH} characters long`);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => checkStringLengths(item, `${path}[${i}]`));
  } else if (isRecord(value)) {
    for (const [key, inner] of Object.entries(value)) checkStringLengths(inner, `${path}.${quote(key)}`);
  }
}

/** `data` checked and normalized into the library's token input. */
function tokenInput(data: unknown, schema: Schema): UniqueTokenToCreate {
  if (!isRecord(data)) throw new ContentError('data must be an object');
  checkStringLengths(data, 'data');
  const token: Json = {};
  for (const field of ['name', 'description']) if (isGiven(data[field])) token[field] = localized(data[field], `data.${field}`);
  for (const field of MEDIA_FIELDS) if (isGiven(data[field])) token[field] = checkMedia(data[field], `data.${field}`);
  const encodedAttributes = encodeAttributes(data, schema);
  if (encodedAttributes) token.encodedAttributes = encodedAttributes;
  if (isGiven(data.royalties)) {
    checkRoyalties(data.royalties, 'data.royalties');
    token.royalties = data.royalties;
  }
  return token as unknown as UniqueTokenToCreate;
}

/**
 * Token properties for mint `data`, per the schema in `collectionProperties`: n, d and a.<n> as
 * JSON, media as raw strings, media the schema does not declare left out (as the real encoder).
 */
export function encodeTokenData(data: unknown, collectionProperties: Property[]): Property[] {
  const schema = schemaOf(collectionProperties);
  const token = tokenInput(data, schema);
  let properties: Property[];
  try {
    properties = encodeTokenProperties(token.image ? token : { ...token, image: IMAGE_STAND_IN }, schema);
  } catch (error) {
    throw asDataError(error);
  }
  if (!token.image) properties = properties.filter((p) => !p.key.startsWith('i.'));
  return sortByKey(properties);
}

/** Flat copies of localized texts ({_: text, <lang>: text}), one level down inside arrays. */
function flatCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(flatCopy);
  return isRecord(value) ? { ...value } : value;
}

/**
 * Attribute names and enum values are the cached, frozen schema's own objects; the caller gets
 * copies (they are flat localized texts, so shallow copies suffice and cost little).
 */
function ownAttributes(attributes: Record<string, DecodedAttribute>): Record<string, DecodedAttribute> {
  const own: Record<string, DecodedAttribute> = {};
  for (const [index, attribute] of Object.entries(attributes)) {
    own[index] = { ...attribute, name: { ...attribute.name }, value: flatCopy(attribute.value) };
  }
  return own;
}

/** What the real service shows for a token it cannot present through a schema. */
function undecoded(decodingError: string): DecodedToken {
  return { attributes: {}, image: { ipfsCid: '', fullUrl: '' } as DecodedMedia, decodingError };
}

/**
 * The token read model of a Unique-schema collection (reference §9.2 without the record fields:
 * the caller adds collectionId, tokenId, owner, properties, collection). A token without image
 * shows `image: {fullUrl: null}`.
 */
export async function decodeTokenData(
  tokenProperties: Property[],
  collectionProperties: Property[],
  options: { ipfsGateway: string }
): Promise<DecodedToken> {
  const stored = readStoredSchema(collectionProperties);
  // The real decoder's words when the collection has no usable schema.
  if (stored.kind !== 'unique') return undecoded('unable to parse: collection schema was not provided');
  const schema = stored.schema;
  const unpacked = unpackTokenProperties(tokenProperties, schema);
  try {
    validateToken(unpacked.image ? unpacked : { ...unpacked, image: IMAGE_STAND_IN }, schema);
  } catch (error) {
    return undecoded(messageOf(error));
  }
  const templates = schema as unknown as Record<MediaField, { urlTemplate?: string } | undefined>;
  const decoded: Partial<DecodedToken> = {};
  if (unpacked.name) decoded.name = unpacked.name;
  if (unpacked.description) decoded.description = unpacked.description;
  decoded.image = unpacked.image ? decodeMedia(unpacked.image as MediaInput, schema.image.urlTemplate, options.ipfsGateway) : { fullUrl: null };
  for (const field of MEDIA_FIELDS) {
    const media = unpacked[field];
    if (field !== 'image' && media) decoded[field] = decodeMedia(media as MediaInput, templates[field]?.urlTemplate, options.ipfsGateway);
  }
  decoded.attributes = ownAttributes(decodeTokenAttributes(unpacked, schema) as Record<string, DecodedAttribute>);
  const royalties = decodeRoyalties(tokenProperties);
  if (royalties) decoded.royalties = royalties;
  decoded.decodingError = null;
  return decoded as DecodedToken;
}
