// Validation of a Unique v1 collection schema, as the real service does it ([sc] + @unique-nft/schemas).
import { ContentError, messageOf } from './errors';
import { ATTRIBUTE_TYPES, INFIX, validateSchema, type UniqueCollectionSchemaToCreate } from './library';
import { quote } from '../../limits';
import { checkMedia, isSafeMediaText } from './media';
import { isGiven, isIndexKey, isRecord, isVersion100, type Json } from './shape';

/** Media templates a schema may declare, with the extra fields each may carry. */
const TEMPLATE_FIELDS: Record<string, readonly string[]> = {
  image: ['urlTemplate'],
  imagePreview: ['urlTemplate'],
  file: ['urlTemplate'],
  video: ['urlTemplate'],
  audio: ['urlTemplate', 'format', 'isLossless'],
  spatialObject: ['urlTemplate', 'format']
};

function checkTemplate(schema: Json, field: string): void {
  const value = schema[field];
  const template = isRecord(value) ? value.urlTemplate : undefined;
  if (typeof template !== 'string' || !template.includes(INFIX)) {
    throw new ContentError(`schema.${field}.urlTemplate must be a string containing "${INFIX}"`);
  }
  // With a harmless infix, the template alone decides the scheme (`javascript:{infix}` is refused).
  if (!isSafeMediaText(template.replace(INFIX, 'x'))) {
    throw new ContentError(`schema.${field}.urlTemplate must be an http(s), ipfs:// or data:image URL template, got "${quote(template)}"`);
  }
}

function checkAttributes(schema: Json): void {
  const { attributesSchema, attributesSchemaVersion } = schema;
  // The library pairs these by truthiness; checked here so its console noise never runs.
  if (!attributesSchema !== !attributesSchemaVersion) {
    throw new ContentError('schema.attributesSchemaVersion and schema.attributesSchema must be given together');
  }
  if (!attributesSchema) return;
  if (!isVersion100(attributesSchemaVersion)) {
    throw new ContentError(`schema.attributesSchemaVersion must be "1.0.0", got ${JSON.stringify(attributesSchemaVersion)}`);
  }
  if (!isRecord(attributesSchema)) throw new ContentError('schema.attributesSchema must be an object keyed by attribute index');
  for (const [key, attribute] of Object.entries(attributesSchema)) {
    const path = `schema.attributesSchema.${key}`;
    // Other integer spellings ("1.0", "-1") would break the dotted property keys.
    if (!isIndexKey(key)) throw new ContentError(`schema.attributesSchema key "${key}" must be a non-negative integer`);
    if (!isRecord(attribute)) throw new ContentError(`${path} must be an object {name, type, optional?, isArray?, enumValues?}`);
    if (!ATTRIBUTE_TYPES.includes(attribute.type as string)) {
      throw new ContentError(`${path}.type must be one of ${ATTRIBUTE_TYPES.join(', ')}, got ${JSON.stringify(attribute.type)}`);
    }
  }
}

/**
 * Clear messages for the common mistakes, then the real validator as the final word.
 * Works on create input and on schemas unpacked from stored properties alike.
 */
export function checkSchema(schema: unknown): asserts schema is UniqueCollectionSchemaToCreate {
  if (!isRecord(schema)) throw new ContentError('schema must be an object');
  if (schema.schemaName !== 'unique') {
    throw new ContentError(`schema.schemaName must be "unique", got ${JSON.stringify(schema.schemaName)}`);
  }
  if (!isVersion100(schema.schemaVersion)) {
    throw new ContentError(`schema.schemaVersion must be "1.0.0", got ${JSON.stringify(schema.schemaVersion)}`);
  }
  // The real service's own pre-check, with its text ([sc]).
  if (!isGiven(schema.coverPicture)) throw new ContentError('Schema must contain coverPicture property');
  checkMedia(schema.coverPicture, 'schema.coverPicture');
  if (isGiven(schema.coverPicturePreview)) checkMedia(schema.coverPicturePreview, 'schema.coverPicturePreview');
  checkTemplate(schema, 'image');
  for (const field of Object.keys(TEMPLATE_FIELDS)) if (field !== 'image' && field in schema) checkTemplate(schema, field);
  checkAttributes(schema);
  try {
    validateSchema(schema);
  } catch (error) {
    throw new ContentError(`Invalid collection schema: ${messageOf(error)}`);
  }
}

function pickMedia(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const picked: Json = {};
  for (const key of ['ipfsCid', 'url', 'urlInfix', 'hash']) if (isGiven(value[key])) picked[key] = value[key];
  return picked;
}

function pickFields(value: unknown, fields: readonly string[]): unknown {
  if (!isRecord(value)) return value;
  const picked: Json = {};
  for (const key of fields) if (isGiven(value[key])) picked[key] = value[key];
  return picked;
}

/**
 * The create input reduced to the schema's own fields, as the real DTO whitelists them: unknown
 * keys and read-only ones (collectionId, fullUrl) would otherwise be flattened into properties;
 * `null` means absent. An empty attributesSchema is dropped with its version, because the library
 * would store the version alone and then fail to decode its own output.
 */
export function pickSchemaInput(schema: unknown): unknown {
  if (!isRecord(schema)) return schema;
  const picked: Json = {};
  for (const key of ['schemaName', 'schemaVersion']) if (isGiven(schema[key])) picked[key] = schema[key];
  for (const key of ['coverPicture', 'coverPicturePreview']) if (isGiven(schema[key])) picked[key] = pickMedia(schema[key]);
  const attributes = schema.attributesSchema;
  const emptyAttributes = isRecord(attributes) && Object.keys(attributes).length === 0;
  if (!emptyAttributes) {
    for (const key of ['attributesSchemaVersion', 'attributesSchema']) if (isGiven(schema[key])) picked[key] = schema[key];
  }
  for (const [key, fields] of Object.entries(TEMPLATE_FIELDS)) if (isGiven(schema[key])) picked[key] = pickFields(schema[key], fields);
  if (isGiven(schema.royalties)) picked.royalties = schema.royalties;
  return picked;
}
