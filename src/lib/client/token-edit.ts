// Editing a minted token's data (Unique schema v1) in plain fields: the form's starting values
// from a token read, who may change each property key, and the properties to set and delete,
// encoded as the schema library encodes a mint (`n`/`d` localized JSON, `a.<n>` JSON of the
// enum index or the boxed value, image keys as raw text).
import { attributeValue } from './attribute-value';
import type { AttributeSchema, Property, PropertyKeyPermission } from './types';

export type FieldValue = string | boolean;

export interface TokenForm {
  name: string;
  description: string;
  /** By attribute index, as AttributeFields holds them (an enum as its key, a list with `|`). */
  attributes: Record<string, FieldValue>;
}

/** What the signer is to the token and its collection. */
export interface SignerRole {
  signs: boolean;
  isTokenOwner: boolean;
  /** The collection's owner or one of its admins. */
  isCollectionAdmin: boolean;
}

export const IMAGE_KEYS = ['i.c', 'i.u', 'i.i', 'i.h'] as const;
const NUMERIC = new Set(['number', 'integer', 'float', 'boolean', 'timestamp']);

function valueOf(properties: readonly Property[], key: string): string | undefined {
  return properties.find((p) => p.key === key)?.value;
}

function parsed(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unboxed(value: unknown): unknown {
  return isRecord(value) && '_' in value ? value._ : value;
}

/** A localized property (`n`, `d`) as its default text. */
function localizedText(properties: readonly Property[], key: string): string {
  const value = unboxed(parsed(valueOf(properties, key)));
  return typeof value === 'string' ? value : '';
}

/** One stored attribute value (`a.<n>`) as the field shows it. */
function fieldValue(definition: AttributeSchema, stored: unknown): FieldValue {
  if (stored === undefined) return definition.type === 'boolean' && !definition.enumValues && !definition.isArray ? false : '';
  if (definition.enumValues) {
    const keys = Array.isArray(stored) ? stored : [stored];
    if (!definition.isArray) return String(keys[0] ?? '');
    return keys.map((k) => String(definition.enumValues?.[String(k)]?._ ?? k)).join(' | ');
  }
  if (definition.isArray && Array.isArray(stored)) return stored.map((v) => String(unboxed(v))).join(' | ');
  const value = unboxed(stored);
  if (definition.type === 'boolean' && !definition.isArray) return value === true || value === 1;
  return value === undefined || value === null ? '' : String(value);
}

/** The form's starting values: the token's stored name, description and attributes. */
export function tokenForm(schema: Record<string, AttributeSchema>, properties: readonly Property[]): TokenForm {
  const attributes: Record<string, FieldValue> = {};
  for (const [index, definition] of Object.entries(schema)) {
    attributes[index] = fieldValue(definition, parsed(valueOf(properties, `a.${index}`)));
  }
  return { name: localizedText(properties, 'n'), description: localizedText(properties, 'd'), attributes };
}

/**
 * Why the signer may not set property `key` of the token, or null when they may: the chain's
 * rule (a permission for the key; mutable, or not set yet; token owner or collection admin as
 * the permission allows).
 */
export function lockReason(key: string, permissions: readonly PropertyKeyPermission[], role: SignerRole, isSet: boolean): string | null {
  if (!role.signs) return 'Choose an account to sign with';
  const permission = permissions.find((p) => p.key === key)?.permission;
  if (!permission || (!permission.tokenOwner && !permission.collectionAdmin)) return 'The collection lets nobody write it';
  if (isSet && !permission.mutable) return 'Fixed at minting: the collection does not let it change';
  if ((permission.tokenOwner && role.isTokenOwner) || (permission.collectionAdmin && role.isCollectionAdmin)) return null;
  if (permission.tokenOwner && permission.collectionAdmin) return 'Only the token owner or a collection admin may change it';
  return permission.tokenOwner ? 'Only the token owner may change it' : 'Only the collection owner or an admin may change it';
}

/** An attribute's stored form: the enum index(es), else the value boxed as `{_: value}`. */
function encodedAttribute(definition: AttributeSchema, raw: FieldValue): unknown {
  // A single enum value comes from a select as its key.
  if (definition.enumValues && !definition.isArray) {
    if (!Object.hasOwn(definition.enumValues, String(raw))) throw new Error(`"${String(raw)}" is not one of the allowed values`);
    return Number(raw);
  }
  const typed = typeof raw === 'boolean' ? raw : attributeValue(definition, raw);
  const one = (value: unknown): unknown => {
    if (definition.enumValues) {
      const entry = Object.entries(definition.enumValues).find(([, e]) => e._ === value);
      return entry ? Number(entry[0]) : value;
    }
    if (NUMERIC.has(definition.type) && typeof value === 'boolean') return { _: value ? 1 : 0 };
    return { _: value };
  };
  return Array.isArray(typed) ? typed.map(one) : one(typed);
}

/** A text kept with its other languages, `_` replaced. */
function localizedJson(current: string | undefined, text: string): string {
  const old = parsed(current);
  return JSON.stringify({ ...(isRecord(old) ? old : {}), _: text });
}

export interface TokenChanges {
  set: Property[];
  remove: string[];
}

/**
 * The properties that make the token's data what the form says: changed keys set, cleared
 * optional ones deleted. Throws an error naming the field (as the screen names it) for a value
 * the schema refuses or a required attribute left empty.
 */
export function tokenChanges(schema: Record<string, AttributeSchema>, properties: readonly Property[], form: TokenForm): TokenChanges {
  const set: Property[] = [];
  const remove: string[] = [];
  const put = (key: string, value: string | null) => {
    const current = valueOf(properties, key);
    if (value === null) {
      if (current !== undefined) remove.push(key);
    } else if (value !== current) set.push({ key, value });
  };
  const name = form.name.trim();
  const description = form.description.trim();
  put('n', name ? localizedJson(valueOf(properties, 'n'), name) : null);
  put('d', description ? localizedJson(valueOf(properties, 'd'), description) : null);
  for (const [index, definition] of Object.entries(schema)) {
    const raw = form.attributes[index];
    const label = definition.name._;
    const empty = raw === undefined || raw === '' || (raw === false && definition.optional);
    if (empty) {
      if (!definition.optional && raw !== false) throw new Error(`${label}: give a value (the attribute is required)`);
      put(`a.${index}`, null);
      continue;
    }
    let encoded: unknown;
    try {
      encoded = encodedAttribute(definition, typeof raw === 'string' ? raw.trim() : raw);
    } catch (error) {
      throw new Error(`${label}: ${(error as Error).message}`);
    }
    // Unchanged when it means the same as what is stored (the stored JSON may be spelled otherwise).
    if (JSON.stringify(parsed(valueOf(properties, `a.${index}`))) === JSON.stringify(encoded)) continue;
    put(`a.${index}`, JSON.stringify(encoded));
  }
  return { set, remove };
}

/**
 * The image keys for a new image: `i.c` for an IPFS CID or `i.u` for a web address, and the
 * other image keys of the token deleted (the old hash no longer fits, and a leftover `i.u`
 * would be read before a new `i.c`).
 */
export function imageChanges(properties: readonly Property[], image: { ipfsCid: string } | { url: string }): TokenChanges {
  const key = 'ipfsCid' in image ? 'i.c' : 'i.u';
  const value = 'ipfsCid' in image ? image.ipfsCid : image.url;
  const remove = IMAGE_KEYS.filter((k) => k !== key && valueOf(properties, k) !== undefined);
  return { set: valueOf(properties, key) === value ? [] : [{ key, value }], remove };
}
