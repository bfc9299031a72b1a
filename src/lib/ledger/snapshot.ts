// The whole ledger as one JSON file (export/import, the Node host's old data file). Bigints are
// tagged so they survive JSON; a file is checked row by row before anything is replaced.
import { z } from 'zod';
import { isValidAddress } from '../codec/address';
import { U128_MAX } from '../codec/scale';
import type { Rows, TableName } from './store';
import { TABLES, keyOf } from './store';

export const SNAPSHOT_FORMAT = 'opalite-ledger';
export const SNAPSHOT_VERSION = 1;

/** At most this many characters of a bad row are quoted in an error (the API's MAX_QUOTE_CHARS). */
const MAX_QUOTE_CHARS = 120;

export type Dump = { [N in TableName]: Rows[N][] };

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  exportedAt: number;
  tables: Dump;
}

export class SnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotError';
  }
}

// ---- tagged JSON: bigints as {"$bigint":"…"} ---------------------------------------------------

const BIGINT_TAG = '"$bigint"';

function tagBigint(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? { $bigint: value.toString() } : value;
}

function untagBigint(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object') {
    const tagged = (value as { $bigint?: unknown }).$bigint;
    if (typeof tagged === 'string' && /^-?\d+$/.test(tagged)) return BigInt(tagged);
  }
  return value;
}

/** JSON text of `value`, bigints tagged `{"$bigint":"…"}` (the export's and the SQLite store's form). */
export function toTaggedJson(value: unknown): string {
  return JSON.stringify(value, tagBigint);
}

/** The value of tagged JSON text; tagged bigints come back as bigints. */
export function fromTaggedJson(text: string): unknown {
  // The reviver costs a walk of the whole value: skip it when nothing is tagged.
  return text.includes(BIGINT_TAG) ? JSON.parse(text, untagBigint) : JSON.parse(text);
}

export function serializeSnapshot(tables: Dump, exportedAt: number): string {
  const snapshot: Snapshot = { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, exportedAt, tables };
  return toTaggedJson(snapshot);
}

// ---- row schemas: the fields and types the ledger relies on ------------------------------------

const int = z.number().int().nonnegative();
const id = z.number().int().positive();
const text = z.string();
// SS58 of a 32-byte account, or 0x + 40 hex (Ethereum and token nesting addresses); 64 is the API's limit.
const address = z.string().min(1).max(64).refine(isValidAddress, 'expected an SS58 account or a 0x address of 20 bytes');
const hash = z.string().regex(/^0x[0-9a-fA-F]*$/, 'expected 0x-prefixed hex');
// Every amount of the chain is a u128.
const amount = z.bigint().min(0n, 'expected an amount of at least 0').max(U128_MAX, 'expected an amount of at most 2^128 - 1');
const property = z.looseObject({ key: text, value: text });
const call = z.looseObject({ name: z.string().regex(/^\w+\.\w+$/, 'expected "section.method"'), args: z.record(z.string(), z.unknown()) });

/** Call arguments that the ledger reads as bigints, by call name. */
const BIGINT_ARGS: Record<string, readonly string[]> = {
  'unique.transfer': ['value'],
  'unique.transferFrom': ['value'],
  'unique.approve': ['amount'],
  'unique.burnItem': ['value'],
  'unique.burnFrom': ['value'],
  'unique.repartition': ['amount'],
  'balances.transferKeepAlive': ['value']
};

/** Call arguments that are bigints when present (Fungible and ReFungible item amounts). */
const OPTIONAL_BIGINT_ARGS: Record<string, readonly string[]> = {
  'unique.createItem': ['amount']
};

const optionalAmount = amount.optional();

const callWithAmounts = call.superRefine((c, ctx) => {
  for (const arg of BIGINT_ARGS[c.name] ?? []) {
    if (typeof c.args[arg] !== 'bigint') ctx.addIssue({ code: 'custom', path: ['args', arg], message: 'expected a bigint' });
  }
  for (const arg of OPTIONAL_BIGINT_ARGS[c.name] ?? []) {
    if (!optionalAmount.safeParse(c.args[arg]).success) ctx.addIssue({ code: 'custom', path: ['args', arg], message: 'expected a bigint' });
  }
  if ((c.name === 'unique.createMultipleItemsEx' || c.name === 'unique.createMultipleItems') && Array.isArray(c.args.items)) {
    c.args.items.forEach((item: unknown, i: number) => {
      if (!optionalAmount.safeParse((item as { amount?: unknown } | null)?.amount).success) {
        ctx.addIssue({ code: 'custom', path: ['args', 'items', i, 'amount'], message: 'expected a bigint' });
      }
    });
  }
});

// Fungible and ReFungible state lives in `meta` rows (fungible/state.ts, refungible/state.ts,
// tokens/piece-children.ts): each key prefix has its value's shape.
const ref = z.looseObject({ collectionId: int, tokenId: int });
const META_VALUES: [RegExp, z.ZodType][] = [
  [/^ft:(supply|balance|allowance):/, amount.refine((v) => v > 0n, 'expected an amount above 0')],
  [/^rft:allowance:/, amount.refine((v) => v > 0n, 'expected an amount above 0')],
  [/^rft:pieces:/, z.looseObject({ total: amount, balances: z.record(address, amount.refine((v) => v > 0n, 'expected an amount above 0')) })],
  [/^rft:owned:/, z.array(int).min(1)],
  [/^children:/, z.array(ref).min(1)],
  [/^head$/, z.looseObject({ number: int, hash })],
  // history/snapshots.ts: the snapshot book.
  [/^snapshots$/, z.looseObject({ next: id, list: z.array(z.looseObject({ snapshotId: text, blockNumber: int, blockHash: hash, createdAt: z.number() })) })]
];

const metaRow = z.looseObject({ key: text, value: z.unknown() }).superRefine((row, ctx) => {
  const shape = META_VALUES.find(([prefix]) => prefix.test(row.key))?.[1];
  if (!shape) return;
  const result = shape.safeParse(row.value);
  if (!result.success) ctx.addIssue({ code: 'custom', path: ['value', ...result.error.issues[0].path.map(String)], message: result.error.issues[0].message });
});

const ROW_SCHEMAS: { [N in TableName]: z.ZodType } = {
  meta: metaRow,
  accounts: z.looseObject({ address, free: amount, nonce: int }),
  collections: z.looseObject({
    id,
    owner: address,
    mode: z.enum(['NFT', 'Fungible', 'ReFungible']),
    decimals: int,
    name: text,
    description: text,
    tokenPrefix: text,
    sponsorship: z.looseObject({ address, isConfirmed: z.boolean() }).nullable(),
    limits: z.record(z.string(), z.union([z.number(), z.boolean(), z.null()])),
    permissions: z.looseObject({
      access: z.enum(['Normal', 'AllowList']),
      mintMode: z.boolean(),
      nesting: z.looseObject({ tokenOwner: z.boolean(), collectionAdmin: z.boolean(), restricted: z.array(int).nullable() })
    }),
    readOnly: z.boolean(),
    properties: z.array(property),
    tokenPropertyPermissions: z.array(z.looseObject({ key: text, permission: z.record(z.string(), z.boolean()) })),
    admins: z.array(address),
    tokensMinted: int,
    tokensBurnt: int
  }),
  tokens: z
    .looseObject({
      collectionId: id,
      tokenId: id,
      owner: address,
      properties: z.array(property),
      approved: address.optional(),
      parentCollectionId: int.optional(),
      parentTokenId: int.optional()
    })
    .refine((t) => (t.parentCollectionId === undefined) === (t.parentTokenId === undefined), {
      message: 'parentCollectionId and parentTokenId must be set together',
      path: ['parentTokenId']
    })
    .refine((t) => t.parentCollectionId !== t.collectionId || t.parentTokenId !== t.tokenId, { message: 'a token cannot be its own parent', path: ['parentTokenId'] }),
  allowList: z.looseObject({ collectionId: int, address }),
  blocks: z.looseObject({
    number: int,
    hash,
    parentHash: hash,
    stateRoot: hash,
    extrinsicsRoot: hash,
    timestamp: z.number(),
    extrinsics: z.array(hash)
  }),
  extrinsics: z.looseObject({
    hash,
    signer: address,
    nonce: int,
    callMethod: z.looseObject({ section: text, method: text }),
    call: callWithAmounts,
    status: z.enum(['pending', 'Ready', 'InBlock', 'Error', 'Invalid']),
    isCompleted: z.boolean(),
    isError: z.boolean(),
    blockNumber: int.nullable(),
    blockHash: hash.nullable(),
    blockIndex: int.nullable(),
    events: z.array(z.looseObject({ section: text, method: text, data: z.record(z.string(), z.unknown()) })),
    error: z.looseObject({ section: text, name: text, message: text }).nullable(),
    fee: z.string().regex(/^\d+$/, 'expected a decimal string'),
    feePayer: address,
    createdAt: z.number(),
    callbackUrl: text.optional()
  }),
  pool: z.looseObject({
    hash,
    signer: address,
    nonce: int,
    call: callWithAmounts,
    fee: amount,
    validUntil: int,
    createdAt: z.number(),
    callbackUrl: text.optional()
  })
};

function quote(row: unknown): string {
  let json: string;
  try {
    json = toTaggedJson(row) ?? String(row);
  } catch {
    json = String(row);
  }
  return json.length > MAX_QUOTE_CHARS ? `${json.slice(0, MAX_QUOTE_CHARS - 1)}…` : json;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/**
 * Check every row of every table: the fields and types the ledger relies on, and unique keys.
 * Throws SnapshotError naming the table and row index of the first bad row.
 */
export function checkRows(tables: Dump): void {
  for (const table of TABLES) {
    const schema = ROW_SCHEMAS[table];
    const seen = new Map<string, number>();
    (tables[table] as unknown[]).forEach((row, index) => {
      const bad = (why: string) =>
        new SnapshotError(`Row ${index} of the "${table}" table of this ledger export is not valid (${why}): ${quote(row)}`);
      const result = schema.safeParse(row);
      if (!result.success) throw bad(describeIssue(result.error.issues[0]));
      const key = toTaggedJson(keyOf(table, row as never));
      const first = seen.get(key);
      if (first !== undefined) throw bad(`it has the same key as row ${first}`);
      seen.set(key, index);
    });
  }
}

/**
 * What rows say about each other: the head is a block of the export, and every token's collection
 * is in it (a ledger that would answer nonsense, or stop producing blocks, is refused here).
 */
export function checkReferences(tables: Dump): void {
  const head = tables.meta.find((r) => r.key === 'head')?.value as { number: number; hash: string } | undefined;
  if (!head) throw new SnapshotError('This ledger export has no head (meta "head")');
  const headBlock = tables.blocks.find((b) => b.number === head.number);
  if (!headBlock || headBlock.hash.toLowerCase() !== head.hash.toLowerCase()) {
    throw new SnapshotError(`The head of this ledger export (block ${head.number}, ${quote(head.hash)}) is not one of its blocks`);
  }
  if (tables.blocks.some((b) => b.number > head.number)) throw new SnapshotError(`This ledger export has blocks after its head (block ${head.number})`);
  // A fork's export holds only the rows it copied from its source: a token's collection may be the source's.
  const config = tables.meta.find((r) => r.key === 'chainConfig')?.value as { fork?: unknown } | undefined;
  if (config?.fork) return;
  const collections = new Set(tables.collections.map((c) => c.id));
  const orphan = tables.tokens.findIndex((t) => !collections.has(t.collectionId));
  if (orphan >= 0) {
    throw new SnapshotError(`Row ${orphan} of the "tokens" table of this ledger export is not valid (its collection ${tables.tokens[orphan].collectionId} is not in the export): ${quote(tables.tokens[orphan])}`);
  }
}

/** Parse and check a snapshot file; throws SnapshotError saying what is wrong. */
export function parseSnapshot(text: string): Snapshot {
  let value: unknown;
  try {
    value = JSON.parse(text, untagBigint);
  } catch {
    throw new SnapshotError('This file is not JSON, so it is not an Opalite ledger export');
  }
  const s = value as Partial<Snapshot> | null;
  if (!s || typeof s !== 'object' || s.format !== SNAPSHOT_FORMAT) throw new SnapshotError('This file is not an Opalite ledger export (its "format" is not "opalite-ledger")');
  if (s.version !== SNAPSHOT_VERSION) throw new SnapshotError(`This ledger export has version ${String(s.version)}; this Opalite reads version ${SNAPSHOT_VERSION}`);
  if (!s.tables || typeof s.tables !== 'object') throw new SnapshotError('This ledger export has no tables');
  // Exports made before the pool was kept in the store have no pool: nothing was waiting.
  if ((s.tables as Record<string, unknown>).pool === undefined) (s.tables as Record<string, unknown>).pool = [];
  for (const table of TABLES) {
    const rows = (s.tables as Record<string, unknown>)[table];
    if (!Array.isArray(rows)) throw new SnapshotError(`This ledger export lacks the "${table}" table`);
  }
  checkRows(s.tables);
  const config = s.tables.meta.find((r) => r.key === 'chainConfig');
  if (!config || !config.value || typeof config.value !== 'object') throw new SnapshotError('This ledger export has no chain configuration (meta "chainConfig")');
  checkReferences(s.tables);
  return s as Snapshot;
}
