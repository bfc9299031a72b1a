// What a call changed: one change-list type for the three uses that ask it (the dry run of the
// sign dialog, `/extrinsic/changes` of an included extrinsic, and the explorer), built from the
// row changes the store records (history) or an overlay holds (dry run). Rows are the ledger's
// storage; a Change is what a person reads: a balance, a token's owner, one property.
import type { RefungiblePieces } from './refungible/state';
import type { RowChange, Rows } from './store';
export type { RowChange } from './store';
import type { AccountRecord, AllowListRecord, CollectionRecord, TokenRecord } from './types';

export type ChangeKind =
  /** `address`: native free balance, smallest unit, decimal string. */
  | 'balance'
  /** `address`: the account's nonce. */
  | 'nonce'
  /** `collectionId`: created (before null) or destroyed (after null): name, description, tokenPrefix, mode, decimals, owner. */
  | 'collection'
  /** `collectionId`: the owner's address. */
  | 'collectionOwner'
  /** `collectionId`, `key`: the property's value, null when absent. */
  | 'collectionProperty'
  /** `collectionId`, `key`: a token property permission `{mutable, collectionAdmin, tokenOwner}`, null when absent. */
  | 'propertyPermission'
  /** `collectionId`, `address`: whether the address is an admin. */
  | 'admin'
  /** `collectionId`, `key` (limit name): the stored limit, null when not set. */
  | 'limit'
  /** `collectionId`, `key` (`access`, `mintMode`, `nesting`): the permission. */
  | 'permission'
  /** `collectionId`: `{address, isConfirmed}`, null when there is none. */
  | 'sponsorship'
  /** `collectionId`, `key`: another field of the collection (`readOnly`, `name`, …). */
  | 'collectionField'
  /** `collectionId`, `address`: whether the address is on the allow list. */
  | 'allowList'
  /** `collectionId`, `tokenId`: minted (before null) or burned (after null): `{owner}`. */
  | 'token'
  /** `collectionId`, `tokenId`: the direct owner (a token's nesting address when nested). */
  | 'tokenOwner'
  /** `collectionId`, `tokenId`, `key`: the property's value, null when absent. */
  | 'tokenProperty'
  /** `collectionId`, `tokenId`: the approved spender, null when none. */
  | 'approval'
  /** `collectionId`: total supply of a fungible collection, decimal string. */
  | 'fungibleSupply'
  /** `collectionId`, `address`: a fungible balance, decimal string. */
  | 'fungibleBalance'
  /** `collectionId`, `address` (owner), `key` (spender): a fungible allowance, decimal string. */
  | 'fungibleAllowance'
  /** `collectionId`, `tokenId`, `address`: pieces of a refungible token held, decimal string. */
  | 'pieces'
  /** `collectionId`, `tokenId`: a refungible token's total pieces, decimal string; null when it is gone. */
  | 'totalPieces'
  /** `collectionId`, `tokenId`, `address` (owner), `key` (spender): an allowance of pieces, decimal string. */
  | 'piecesAllowance'
  /** `key` (`table:key`): any other state row, as stored (JSON-safe). */
  | 'state';

/** One readable change: what it is about, and its value before and after (JSON-safe). */
export interface Change {
  kind: ChangeKind;
  collectionId?: number;
  tokenId?: number;
  address?: string;
  key?: string;
  before: unknown;
  after: unknown;
}

/** Meta rows that are the ledger's own bookkeeping or indexes, derived from other state. */
const BOOKKEEPING_META = [/^head$/, /^createdCollectionCount$/, /^destroyedCollectionCount$/, /^sponsoredAt:/, /^rft:owned:/, /^children:/];

/** Bigints as decimal strings, so a change is JSON. */
function jsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSafe(v)]));
  return value;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(jsonSafe(a)) === JSON.stringify(jsonSafe(b));
}

/** One change per key of two keyed lists whose value differs (`null` for a side without the key). */
function keyedDiff<T>(before: T[] | undefined, after: T[] | undefined, keyOf: (item: T) => string, valueOf: (item: T) => unknown): { key: string; before: unknown; after: unknown }[] {
  const was = new Map((before ?? []).map((item) => [keyOf(item), valueOf(item)]));
  const now = new Map((after ?? []).map((item) => [keyOf(item), valueOf(item)]));
  const out: { key: string; before: unknown; after: unknown }[] = [];
  for (const key of new Set([...was.keys(), ...now.keys()])) {
    const b = was.has(key) ? was.get(key) : null;
    const a = now.has(key) ? now.get(key) : null;
    if (!same(b, a)) out.push({ key, before: b, after: a });
  }
  return out;
}

function accountChanges(before: AccountRecord | undefined, after: AccountRecord | undefined, address: string): Change[] {
  const out: Change[] = [];
  const free = (r: AccountRecord | undefined) => (r?.free ?? 0n).toString();
  const nonce = (r: AccountRecord | undefined) => r?.nonce ?? 0;
  if (free(before) !== free(after)) out.push({ kind: 'balance', address, before: free(before), after: free(after) });
  if (nonce(before) !== nonce(after)) out.push({ kind: 'nonce', address, before: nonce(before), after: nonce(after) });
  return out;
}

const COLLECTION_SUMMARY = (c: CollectionRecord) => ({ name: c.name, description: c.description, tokenPrefix: c.tokenPrefix, mode: c.mode, decimals: c.decimals, owner: c.owner });
/** Fields a Change of its own covers, or bookkeeping the token changes already say (minted and burned counts). */
const COLLECTION_COVERED = new Set(['id', 'owner', 'properties', 'tokenPropertyPermissions', 'admins', 'limits', 'permissions', 'sponsorship', 'tokensMinted', 'tokensBurnt']);

function collectionChanges(before: CollectionRecord | undefined, after: CollectionRecord | undefined, collectionId: number): Change[] {
  const out: Change[] = [];
  if (!before || !after) out.push({ kind: 'collection', collectionId, before: before ? COLLECTION_SUMMARY(before) : null, after: after ? COLLECTION_SUMMARY(after) : null });
  if (before && after && before.owner !== after.owner) out.push({ kind: 'collectionOwner', collectionId, before: before.owner, after: after.owner });
  for (const d of keyedDiff(before?.properties, after?.properties, (p) => p.key, (p) => p.value)) out.push({ kind: 'collectionProperty', collectionId, ...d });
  for (const d of keyedDiff(before?.tokenPropertyPermissions, after?.tokenPropertyPermissions, (p) => p.key, (p) => p.permission)) out.push({ kind: 'propertyPermission', collectionId, ...d });
  const admins = (r: CollectionRecord | undefined) => new Set(r?.admins ?? []);
  const [wereAdmins, areAdmins] = [admins(before), admins(after)];
  for (const address of new Set([...wereAdmins, ...areAdmins])) {
    if (wereAdmins.has(address) !== areAdmins.has(address)) out.push({ kind: 'admin', collectionId, address, before: wereAdmins.has(address), after: areAdmins.has(address) });
  }
  if (before && after) {
    for (const key of Object.keys({ ...before.limits, ...after.limits }) as (keyof CollectionRecord['limits'])[]) {
      const [b, a] = [before.limits[key] ?? null, after.limits[key] ?? null];
      if (!same(b, a)) out.push({ kind: 'limit', collectionId, key, before: b, after: a });
    }
    for (const key of Object.keys({ ...before.permissions, ...after.permissions }) as (keyof CollectionRecord['permissions'])[]) {
      const [b, a] = [before.permissions[key] ?? null, after.permissions[key] ?? null];
      if (!same(b, a)) out.push({ kind: 'permission', collectionId, key, before: b, after: a });
    }
    if (!same(before.sponsorship, after.sponsorship)) out.push({ kind: 'sponsorship', collectionId, before: before.sponsorship, after: after.sponsorship });
    for (const key of Object.keys({ ...before, ...after }) as (keyof CollectionRecord)[]) {
      if (COLLECTION_COVERED.has(key) || same(before[key], after[key])) continue;
      out.push({ kind: 'collectionField', collectionId, key, before: jsonSafe(before[key] ?? null), after: jsonSafe(after[key] ?? null) });
    }
  }
  return out;
}

function tokenChanges(before: TokenRecord | undefined, after: TokenRecord | undefined, [collectionId, tokenId]: [number, number]): Change[] {
  const out: Change[] = [];
  if (!before || !after) out.push({ kind: 'token', collectionId, tokenId, before: before ? { owner: before.owner } : null, after: after ? { owner: after.owner } : null });
  else if (before.owner !== after.owner) out.push({ kind: 'tokenOwner', collectionId, tokenId, before: before.owner, after: after.owner });
  for (const d of keyedDiff(before?.properties, after?.properties, (p) => p.key, (p) => p.value)) out.push({ kind: 'tokenProperty', collectionId, tokenId, ...d });
  // A mint or burn says the token's whole story; an approval changes on a token that stays.
  if (before && after && (before.approved ?? null) !== (after.approved ?? null)) {
    out.push({ kind: 'approval', collectionId, tokenId, before: before?.approved ?? null, after: after?.approved ?? null });
  }
  return out;
}

// `meta` keys of amounts, as FT_KEYS and RFT_KEYS spell them (changes.test.ts builds them with those).
const FT_SUPPLY = /^ft:supply:(\d+)$/;
const FT_BALANCE = /^ft:balance:(\d+):(.+)$/;
const FT_ALLOWANCE = /^ft:allowance:(\d+):([^:]+):(.+)$/;
const RFT_PIECES = /^rft:pieces:(\d+):(\d+)$/;
const RFT_ALLOWANCE = /^rft:allowance:(\d+):(\d+):([^:]+):(.+)$/;

const amount = (row: Rows['meta'] | undefined) => ((row?.value as bigint | undefined) ?? 0n).toString();

function piecesChanges(before: RefungiblePieces | undefined, after: RefungiblePieces | undefined, collectionId: number, tokenId: number): Change[] {
  const out: Change[] = [];
  const total = (p: RefungiblePieces | undefined) => (p ? p.total.toString() : null);
  if (total(before) !== total(after)) out.push({ kind: 'totalPieces', collectionId, tokenId, before: total(before), after: total(after) });
  const holders = new Set([...Object.keys(before?.balances ?? {}), ...Object.keys(after?.balances ?? {})]);
  for (const address of holders) {
    const [b, a] = [(before?.balances[address] ?? 0n).toString(), (after?.balances[address] ?? 0n).toString()];
    if (b !== a) out.push({ kind: 'pieces', collectionId, tokenId, address, before: b, after: a });
  }
  return out;
}

function metaChanges(before: Rows['meta'] | undefined, after: Rows['meta'] | undefined, key: string): Change[] {
  if (BOOKKEEPING_META.some((pattern) => pattern.test(key))) return [];
  let m: RegExpMatchArray | null;
  if ((m = key.match(FT_SUPPLY))) return [{ kind: 'fungibleSupply', collectionId: Number(m[1]), before: amount(before), after: amount(after) }];
  if ((m = key.match(FT_ALLOWANCE))) return [{ kind: 'fungibleAllowance', collectionId: Number(m[1]), address: m[2], key: m[3], before: amount(before), after: amount(after) }];
  if ((m = key.match(FT_BALANCE))) return [{ kind: 'fungibleBalance', collectionId: Number(m[1]), address: m[2], before: amount(before), after: amount(after) }];
  if ((m = key.match(RFT_ALLOWANCE))) return [{ kind: 'piecesAllowance', collectionId: Number(m[1]), tokenId: Number(m[2]), address: m[3], key: m[4], before: amount(before), after: amount(after) }];
  if ((m = key.match(RFT_PIECES))) return piecesChanges(before?.value as RefungiblePieces | undefined, after?.value as RefungiblePieces | undefined, Number(m[1]), Number(m[2]));
  return [{ kind: 'state', key: `meta:${key}`, before: jsonSafe(before?.value ?? null), after: jsonSafe(after?.value ?? null) }];
}

/** The readable changes of row changes, in row order; rows whose difference a person would not see give none. */
export function describeChanges(rows: readonly RowChange[]): Change[] {
  const out: Change[] = [];
  for (const row of rows) {
    switch (row.table) {
      case 'accounts':
        out.push(...accountChanges(row.before as AccountRecord | undefined, row.after as AccountRecord | undefined, row.key as string));
        break;
      case 'collections':
        out.push(...collectionChanges(row.before as CollectionRecord | undefined, row.after as CollectionRecord | undefined, row.key as number));
        break;
      case 'tokens':
        out.push(...tokenChanges(row.before as TokenRecord | undefined, row.after as TokenRecord | undefined, row.key as [number, number]));
        break;
      case 'allowList': {
        const [collectionId, address] = row.key as [number, string];
        const listed = (r: AllowListRecord | undefined) => r !== undefined;
        if (listed(row.before as AllowListRecord | undefined) !== listed(row.after as AllowListRecord | undefined)) {
          out.push({ kind: 'allowList', collectionId, address, before: listed(row.before as AllowListRecord | undefined), after: listed(row.after as AllowListRecord | undefined) });
        }
        break;
      }
      case 'meta':
        out.push(...metaChanges(row.before as Rows['meta'] | undefined, row.after as Rows['meta'] | undefined, row.key as string));
        break;
    }
  }
  return out;
}

/** Whether two row changes of the same row leave it as it was (a write of the same value). */
export function isNoChange(row: RowChange): boolean {
  return same(row.before, row.after);
}
