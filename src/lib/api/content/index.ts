// Token content and collection schema (Unique schema v1), for the REST layer.
export { ContentError } from './errors';
export {
  DEFAULT_SCHEMA,
  decodeCollectionSchema,
  encodeCollectionSchema,
  mergeCreateCollectionContent,
  type CollectionContent,
  type DecodedCollectionSchema
} from './collection-schema';
export { decodeTokenData, encodeTokenData, type DecodedAttribute, type DecodedToken, type LocalizedText } from './token-data';
export type { DecodedMedia, MediaInput } from './media';
export type { DecodedRoyaltyPart } from './royalties';
export { mergeByKey, sortByKey } from './merge';
