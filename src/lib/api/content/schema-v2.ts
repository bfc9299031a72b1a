// Unique schema 2.0.0 input: the token and collection-info shapes of @unique-nft/schemas 2.x
// (`zTokenSchema`, `zCollectionSchema`), which the installed 0.1.8 does not have. Same fields in
// the same order (the encoded JSON is the parsed object, so key order is part of the format),
// unknown keys dropped as the library's parse drops them, and every string, list and map bounded.
import { z } from 'zod';
import { MAX_PROPERTY_VALUE_LENGTH } from '../../ledger/constants';
import { MAX_SCHEMA_V2_ITEMS, MAX_SHORT_TEXT_LENGTH, MAX_URL_FIELD_LENGTH } from '../../limits';
import { boundedArray, boundedString } from '../schemas';
import { isSafeMediaText } from './media';

export const V2_SCHEMA_NAME = 'unique';
export const V2_SCHEMA_VERSION = '2.0.0';

const text = (name: string) => boundedString(name, MAX_PROPERTY_VALUE_LENGTH);
const short = (name: string) => boundedString(name, MAX_SHORT_TEXT_LENGTH);
// As v1 media: a URL a page would open must not be `javascript:` and the like.
const url = (name: string) =>
  boundedString(name, MAX_URL_FIELD_LENGTH).refine(isSafeMediaText, { error: `${name} must be an http(s), ipfs:// or data:image URL, or relative` });
const list = <T extends z.ZodTypeAny>(name: string, item: T) => boundedArray(name, item, MAX_SCHEMA_V2_ITEMS);

/** A map of at most MAX_SCHEMA_V2_ITEMS entries, counted before any entry is parsed. */
const map = <T extends z.ZodTypeAny>(name: string, item: T) =>
  z
    .unknown()
    .refine((v) => typeof v !== 'object' || v === null || Object.keys(v).length <= MAX_SCHEMA_V2_ITEMS, {
      error: `${name} must have at most ${MAX_SCHEMA_V2_ITEMS} entries`,
      abort: true
    })
    .pipe(z.record(short(`${name} key`), item, { error: `${name} must be an object` }));

const semver = short('version').regex(/^\d+\.\d+\.\d+$/, { error: 'version must be in semver format: x.y.z' });
const semver2 = semver.refine((v) => v.split('.')[0] === '2', { error: 'version must be in semver format: 2.x.x' });

const mediaType = z.enum(['image', 'animation', 'video', 'audio', 'spatial', 'pdf', 'document', 'other']);
const point = z.object({ x: z.number(), y: z.number() });

export const imageDetails = z.object({
  name: short('name').optional(),
  type: mediaType.optional(),
  bytes: z.number().optional(),
  format: short('format').optional(),
  sha256: short('sha256').optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  order: z.number().optional()
});
const imageWithDetails = z.object({ url: url('url'), details: imageDetails.optional() });
const imageWithThumbnail = imageWithDetails.extend({ thumbnail: imageWithDetails.optional() });
const mediaDetails = imageDetails.extend({
  duration: z.number().optional(),
  codecs: list('codecs', short('codec')).optional(),
  loop: z.boolean().optional()
});
const media = z.object({
  type: mediaType,
  url: url('url'),
  name: short('name').optional(),
  details: mediaDetails.optional(),
  thumbnail: imageWithDetails.optional(),
  poster: imageWithDetails.optional()
});
const attribute = z.object({
  trait_type: short('trait_type'),
  value: z.union([text('value'), z.number()]),
  display_type: short('display_type').optional()
});
export const royalty = z.object({
  address: short('address'),
  percent: z.number().min(0).max(100),
  isPrimaryOnly: z.boolean().optional()
});

const overlaySpecs = z
  .object({
    layer: z.number(),
    order_in_layer: z.number(),
    offset: point.partial(),
    opacity: z.number(),
    rotation: z.number(),
    scale: z.object({ x: z.number().optional(), y: z.number().optional(), unit: z.enum(['px', '%']).optional() }),
    anchor_point: point,
    parent_anchor_point: point
  })
  .partial();
const mutatorReaction = overlaySpecs.extend({ url: url('url'), details: imageDetails }).partial();
const fileInfo = z.object({
  type: mediaType,
  url: url('url'),
  name: short('name').optional(),
  details: mediaDetails.optional(),
  image_overlay_specs: overlaySpecs.optional(),
  placeholder: imageWithDetails.optional()
});
const collectionRef = z.union([z.number().min(1).max(2 ** 32 - 1), short('collection').regex(/^0x[a-fA-F0-9]{40}$/)]);
const slot = z.object({
  type: mediaType,
  collections: list('collections', collectionRef).optional(),
  name: short('name').optional(),
  image_overlay_specs: overlaySpecs.optional()
});
const customizing = z.object({
  self: fileInfo.extend({ tag: short('tag') }),
  slots: map('slots', slot).optional(),
  mutator_reactions: map('mutator_reactions', mutatorReaction).optional(),
  mutators: list('mutators', short('mutator')).optional()
});
const customizingOverrides = z.object({
  self: fileInfo.extend({ tag: short('tag') }).partial().optional(),
  slots: map('slots', slot.partial()).optional(),
  mutator_reactions: map('mutator_reactions', mutatorReaction.partial()).optional(),
  mutators: list('mutators', short('mutator')).optional()
});

/** The token fields of schema 2.0.0 (the library's zTokenSchema). */
export const tokenV2Fields = {
  schemaName: short('schemaName').optional().default(V2_SCHEMA_NAME),
  schemaVersion: semver2.optional().default(V2_SCHEMA_VERSION),
  originalSchemaVersion: semver.optional(),
  name: text('name').optional(),
  description: text('description').optional(),
  image: url('image').optional(),
  image_details: imageDetails.optional(),
  attributes: list('attributes', attribute).optional(),
  media: map('media', media).optional(),
  royalties: list('royalties', royalty).optional(),
  customizing: customizing.optional(),
  customizing_overrides: customizingOverrides.optional(),
  animation_url: url('animation_url').optional(),
  animation_details: imageDetails.optional(),
  youtube_url: url('youtube_url').optional(),
  created_by: short('created_by').optional(),
  background_color: short('background_color').optional(),
  external_url: url('external_url').optional(),
  locale: short('locale').optional()
};
export const tokenV2 = z.object(tokenV2Fields);
export type TokenV2 = z.output<typeof tokenV2>;

/** The collection-info fields of schema 2.0.0 (the library's zCollectionSchema). */
export const collectionInfoV2Fields = {
  schemaName: z.literal(V2_SCHEMA_NAME, { error: `schemaName must be "${V2_SCHEMA_NAME}"` }).optional().default(V2_SCHEMA_NAME),
  schemaVersion: semver2.optional().default(V2_SCHEMA_VERSION),
  originalSchemaVersion: semver.optional(),
  cover_image: imageWithThumbnail.optional(),
  default_token_image: imageWithThumbnail.optional(),
  potential_attributes: list(
    'potential_attributes',
    z.object({ trait_type: short('trait_type'), display_type: short('display_type').optional(), values: list('values', z.union([text('value'), z.number()])).optional() })
  ).optional(),
  customizing: z
    .object({ slots: map('slots', slot).optional(), customizes: list('customizes', collectionRef).optional() })
    .optional(),
  royalties: list('royalties', royalty).optional()
};
export const collectionInfoV2 = z.object(collectionInfoV2Fields);
export type CollectionInfoV2 = z.output<typeof collectionInfoV2>;
