// The real encoder (@unique-nft/schemas 0.1.8). Its functions are only reachable through
// `SchemaTools` (the .d.ts declares more named exports than the module really has).
import { SchemaTools } from '@unique-nft/schemas';
import type {
  AttributeSchema,
  DecodedAttributes,
  InfixOrUrlOrCidAndHash,
  LocalizedStringWithDefault,
  UniqueCollectionSchemaToCreate,
  UniqueTokenToCreate
} from '@unique-nft/schemas';

export type {
  AttributeSchema,
  DecodedAttributes,
  InfixOrUrlOrCidAndHash,
  LocalizedStringWithDefault,
  UniqueCollectionSchemaToCreate,
  UniqueTokenToCreate
};

const { collection, token, validators } = SchemaTools.tools.unique;

export const encodeSchemaProperties = collection.encodeCollectionSchemaToProperties;
export const unpackSchemaProperties = collection.unpackCollectionSchemaFromProperties;
export const schemaTokenPermissions = collection.generateTokenPropertyPermissionsFromCollectionSchema;
export const validateSchema = validators.validateUniqueCollectionSchema;
export const validateLocalizedText = validators.validateLocalizedStringWithDefault;
export const validateToken = validators.validateUniqueToken;
export const encodeTokenProperties = token.encodeTokenToProperties;
export const unpackTokenProperties = token.unpackEncodedTokenFromProperties;
export const decodeTokenAttributes = token.fullDecodeTokenAttributes;

/** The schema's template placeholder. */
export const INFIX = '{infix}';

/** Attribute types the library accepts (its enum also has `number`). */
export const ATTRIBUTE_TYPES: readonly string[] = SchemaTools.types.AttributeTypeValues;
