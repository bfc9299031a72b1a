// Form values ⇄ API shapes for collection settings (limits, permissions, schema attributes,
// token property permissions), shared by the create page and the detail page.
import type { AttributeSchema, AttributeType, CollectionLimits, CollectionPermissions, PropertyKeyPermission } from '../../client/types';

export const NUMBER_LIMITS = [
  { key: 'tokenLimit', label: 'Token limit', hint: 'Most tokens ever minted in the collection (burned ones count)' },
  { key: 'accountTokenOwnershipLimit', label: 'Tokens per account', hint: 'Most tokens one account may own' },
  { key: 'sponsoredDataSize', label: 'Sponsored data size', hint: 'Bytes of token data a sponsor pays for' },
  { key: 'sponsoredDataRateLimit', label: 'Sponsored data rate limit', hint: 'Blocks between sponsored data changes' },
  { key: 'sponsorTransferTimeout', label: 'Sponsor transfer timeout', hint: 'Blocks between sponsored transfers of one token' },
  { key: 'sponsorApproveTimeout', label: 'Sponsor approve timeout', hint: 'Blocks between sponsored approvals' }
] as const;

export const FLAG_LIMITS = [
  { key: 'ownerCanTransfer', label: 'Owner can transfer', hint: 'The owner and admins may transfer and burn anyone’s tokens' },
  { key: 'ownerCanDestroy', label: 'Owner can destroy', hint: 'The owner may destroy the collection (once off, for good)' },
  { key: 'transfersEnabled', label: 'Transfers enabled', hint: 'Token holders may transfer their tokens' }
] as const;

export type NumberLimitKey = (typeof NUMBER_LIMITS)[number]['key'];
export type FlagLimitKey = (typeof FLAG_LIMITS)[number]['key'];

/** Limits as typed in a form: numbers as text ('' = the chain's default), flags as 'default' | 'yes' | 'no'. */
export interface LimitsForm {
  numbers: Record<NumberLimitKey, string>;
  flags: Record<FlagLimitKey, 'default' | 'yes' | 'no'>;
}

export function emptyLimits(): LimitsForm {
  return {
    numbers: Object.fromEntries(NUMBER_LIMITS.map((l) => [l.key, ''])) as Record<NumberLimitKey, string>,
    flags: Object.fromEntries(FLAG_LIMITS.map((l) => [l.key, 'default'])) as Record<FlagLimitKey, 'default' | 'yes' | 'no'>
  };
}

/** Only the limits that were set; throws a readable error for a bad number. */
export function limitsFromForm(form: LimitsForm): CollectionLimits {
  const limits: CollectionLimits = {};
  for (const { key, label } of NUMBER_LIMITS) {
    const text = form.numbers[key].trim();
    if (text === '') continue;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${label} must be a whole number from 0`);
    limits[key] = n;
  }
  for (const { key } of FLAG_LIMITS) {
    if (form.flags[key] !== 'default') limits[key] = form.flags[key] === 'yes';
  }
  return limits;
}

export interface PermissionsForm {
  access: 'Normal' | 'AllowList';
  mintMode: boolean;
  nestingTokenOwner: boolean;
  nestingCollectionAdmin: boolean;
  /** Comma-separated collection ids whose tokens may be nested ('' = any). */
  restricted: string;
}

export function permissionsForm(p?: CollectionPermissions): PermissionsForm {
  return {
    access: p?.access ?? 'Normal',
    mintMode: p?.mintMode ?? false,
    nestingTokenOwner: p?.nesting?.tokenOwner ?? false,
    nestingCollectionAdmin: p?.nesting?.collectionAdmin ?? false,
    restricted: p?.nesting?.restricted?.join(', ') ?? ''
  };
}

export function permissionsFromForm(form: PermissionsForm): CollectionPermissions {
  const ids = form.restricted
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((s) => {
      const n = Number(s);
      if (!Number.isInteger(n) || n <= 0) throw new Error(`"${s}" is not a collection id`);
      return n;
    });
  return {
    access: form.access,
    mintMode: form.mintMode,
    nesting: { tokenOwner: form.nestingTokenOwner, collectionAdmin: form.nestingCollectionAdmin, restricted: ids.length ? ids : null }
  };
}

export const ATTRIBUTE_TYPES: { type: AttributeType; label: string }[] = [
  { type: 'string', label: 'Text' },
  { type: 'integer', label: 'Whole number' },
  { type: 'number', label: 'Number' },
  { type: 'boolean', label: 'Yes / no' },
  { type: 'url', label: 'URL' },
  { type: 'isoDate', label: 'Date' },
  { type: 'colorRgba', label: 'Colour' }
];

export interface AttributeRow {
  name: string;
  type: AttributeType;
  optional: boolean;
  isArray: boolean;
  /** Comma-separated allowed values ('' = any value). */
  values: string;
}

export function newAttribute(): AttributeRow {
  return { name: '', type: 'string', optional: true, isArray: false, values: '' };
}

const NUMERIC = new Set(['integer', 'number', 'float', 'timestamp', 'boolean']);

export function attributesSchema(rows: AttributeRow[]): Record<string, AttributeSchema> {
  const schema: Record<string, AttributeSchema> = {};
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const name = row.name.trim();
    if (name === '') throw new Error(`Attribute ${index + 1} needs a name`);
    if (seen.has(name.toLowerCase())) throw new Error(`Two attributes are called "${name}"`);
    seen.add(name.toLowerCase());
    const attribute: AttributeSchema = { name: { _: name }, type: row.type, optional: row.optional };
    if (row.isArray) attribute.isArray = true;
    const values = row.values.split(',').map((v) => v.trim()).filter(Boolean);
    if (values.length) {
      attribute.enumValues = Object.fromEntries(
        values.map((v, i) => {
          if (NUMERIC.has(row.type) && !Number.isFinite(Number(v))) throw new Error(`Attribute "${name}": "${v}" is not a number`);
          return [String(i), { _: NUMERIC.has(row.type) ? Number(v) : v }];
        })
      );
    }
    schema[String(index)] = attribute;
  });
  return schema;
}

export interface PermissionRow {
  key: string;
  mutable: boolean;
  collectionAdmin: boolean;
  tokenOwner: boolean;
}

export function newPermissionRow(): PermissionRow {
  return { key: '', mutable: true, collectionAdmin: true, tokenOwner: true };
}

// The chain's rule: 1 to 256 bytes of A-Z a-z 0-9 _ - .
const PROPERTY_KEY = /^[A-Za-z0-9_.-]{1,256}$/;

export function checkPropertyKey(key: string): string {
  const trimmed = key.trim();
  if (!PROPERTY_KEY.test(trimmed)) throw new Error(`Property key "${key}" may only use letters, digits, _ - . (1 to 256 of them)`);
  return trimmed;
}

export function propertyPermissions(rows: PermissionRow[]): PropertyKeyPermission[] {
  return rows.map((row) => ({
    key: checkPropertyKey(row.key),
    permission: { mutable: row.mutable, collectionAdmin: row.collectionAdmin, tokenOwner: row.tokenOwner }
  }));
}

/**
 * Token property permissions that let the collection's owner and admins change a token's name,
 * description, image and attributes after minting (the schema's own keys; the schema library
 * makes them fixed once set by default).
 */
export function editableDataPermissions(attributeCount: number): PropertyKeyPermission[] {
  const keys = ['n', 'd', 'i.c', 'i.u', 'i.i', 'i.h', ...Array.from({ length: attributeCount }, (_, i) => `a.${i}`)];
  return keys.map((key) => ({ key, permission: { mutable: true, collectionAdmin: true, tokenOwner: false } }));
}

/** Permission lists merged by key, later lists winning (as the service merges them). */
export function mergePermissions(...lists: PropertyKeyPermission[][]): PropertyKeyPermission[] {
  const byKey = new Map<string, PropertyKeyPermission>();
  for (const list of lists) for (const p of list) byKey.set(p.key, p);
  return [...byKey.values()];
}
