// The ledger's view of storage. Adapters (Dexie on IndexedDB, in the browser and in Node via
// fake-indexeddb) implement it; the ledger never sees IndexedDB itself.
import type {
  AccountRecord,
  Address,
  AllowListRecord,
  BlockRecord,
  CollectionRecord,
  ExtrinsicRecord,
  PoolRecord,
  TokenRecord,
  TokenRef
} from './types';

/** Rows of every table, by table name. */
export interface Rows {
  meta: { key: string; value: unknown };
  accounts: AccountRecord;
  collections: CollectionRecord;
  tokens: TokenRecord;
  allowList: AllowListRecord;
  blocks: BlockRecord;
  extrinsics: ExtrinsicRecord;
  pool: PoolRecord;
}

/** Primary keys of every table, by table name. */
export interface Keys {
  meta: string;
  accounts: Address;
  collections: number;
  tokens: [number, number];
  allowList: [number, Address];
  blocks: number;
  extrinsics: string;
  pool: string;
}

export type TableName = keyof Rows;

export const TABLES: readonly TableName[] = [
  'meta',
  'accounts',
  'collections',
  'tokens',
  'allowList',
  'blocks',
  'extrinsics',
  'pool'
];

/** The tables that hold chain state (blocks, extrinsics and the pool are bookkeeping around it). */
export const STATE_TABLES = ['meta', 'accounts', 'collections', 'tokens', 'allowList'] as const satisfies readonly TableName[];
export type StateTable = (typeof STATE_TABLES)[number];

export function isStateTable(table: string): table is StateTable {
  return (STATE_TABLES as readonly string[]).includes(table);
}

/** One row of a state table before and after a change (`undefined`: no row). */
export interface RowChange<N extends StateTable = StateTable> {
  table: N;
  key: Keys[N];
  before: Rows[N] | undefined;
  after: Rows[N] | undefined;
}

/**
 * A row change kept in history: made in block `block` by its extrinsic at index `extrinsic`
 * (null: by the block itself, its head), `seq`-th of the block's changes.
 */
export interface HistoryRecord<N extends StateTable = StateTable> extends RowChange<N> {
  block: number;
  seq: number;
  extrinsic: number | null;
}

/** The primary key of a row, as the adapter stores it. */
export function keyOf<N extends TableName>(table: N, row: Rows[N]): Keys[N] {
  switch (table) {
    case 'meta':
      return (row as Rows['meta']).key as Keys[N];
    case 'accounts':
      return (row as AccountRecord).address as Keys[N];
    case 'collections':
      return (row as CollectionRecord).id as Keys[N];
    case 'tokens': {
      const t = row as TokenRecord;
      return [t.collectionId, t.tokenId] as Keys[N];
    }
    case 'allowList': {
      const a = row as AllowListRecord;
      return [a.collectionId, a.address] as Keys[N];
    }
    case 'blocks':
      return (row as BlockRecord).number as Keys[N];
    case 'extrinsics':
      return (row as ExtrinsicRecord).hash as Keys[N];
    case 'pool':
      return (row as PoolRecord).hash as Keys[N];
  }
  throw new Error(`unknown table ${String(table)}`);
}

/**
 * One transaction's access to state. Every method is an indexed lookup: nothing here scans a
 * table. `put`/`delete` may only be called inside a write transaction.
 */
export interface StateTx {
  get<N extends TableName>(table: N, key: Keys[N]): Promise<Rows[N] | undefined>;
  put<N extends TableName>(table: N, row: Rows[N]): void | Promise<void>;
  delete<N extends TableName>(table: N, key: Keys[N]): void | Promise<void>;
  /** Direct children of a token (rows whose parent index points at it). */
  childrenOf(collectionId: number, tokenId: number): Promise<TokenRecord[]>;
  /** How many tokens of a collection an owner holds directly. */
  countOwned(collectionId: number, owner: Address): Promise<number>;
}

/** Read-side queries the REST reads need beyond point lookups; each goes through an index. */
export interface QueryTx extends StateTx {
  tokensOfOwner(owner: Address, collectionId?: number): Promise<TokenRef[]>;
  tokenIdsOfCollection(collectionId: number): Promise<number[]>;
  allowListOf(collectionId: number): Promise<Address[]>;
  /** Newest first, at most `limit`, optionally one signer's. */
  recentExtrinsics(limit: number, signer?: Address): Promise<ExtrinsicRecord[]>;
  headBlock(): Promise<BlockRecord | undefined>;
  blockByHash(hash: string): Promise<BlockRecord | undefined>;
  /** Every waiting extrinsic (the pool is bounded, so this is a small table). */
  pooled(): Promise<PoolRecord[]>;

  /** The row changes of every kept block, in this same transaction (see ledger/history/). */
  readonly history: HistoryTx;
}

/** One transaction's access to the state history: what each kept block changed, row by row. */
export interface HistoryTx {
  /** The oldest block whose state history can answer (older changes were pruned, or never kept). */
  start(): Promise<number>;
  /** The first recorded change of one row in a block after `block`: its `before` is the row as of `block`. */
  changeAfter<N extends StateTable>(table: N, key: Keys[N], block: number): Promise<HistoryRecord<N> | undefined>;
  /**
   * For every row (of `table`, or of every state table) changed in a block after `block`, its
   * first such change, in (block, seq) order: the rows that differ from the state as of `block`.
   */
  firstChangesAfter(block: number, table?: StateTable): Promise<HistoryRecord[]>;
  /** The changes recorded in block `block`, in `seq` order. */
  changesOfBlock(block: number): Promise<HistoryRecord[]>;
  /** One row's changes before the place `before` (every one when absent), newest first, at most `limit`. */
  changesOfRow<N extends StateTable>(table: N, key: Keys[N], before: { block: number; seq: number } | undefined, limit: number): Promise<HistoryRecord<N>[]>;
  /**
   * The changes naming `account` (ledger/history/accounts-of-change.ts) before the place `before`
   * (every one when absent), newest first, at most `limit`: one index range, never a scan.
   */
  changesOfAccount(account: Address, before: { block: number; seq: number } | undefined, limit: number): Promise<HistoryRecord[]>;
  /** Write side: keep `records` (one block's, in seq order). */
  add(records: HistoryRecord[]): void | Promise<void>;
  /** Write side: forget the changes of blocks after `after` (revert), or up to `upTo` (pruning). */
  delete(range: { after: number } | { upTo: number }): void | Promise<void>;
  /** Write side: the oldest block history answers from now on. */
  setStart(block: number): void | Promise<void>;
}

/** The head block of rows being imported (replaceAll): history starts again there. */
export function importedHead(rows: { blocks?: readonly BlockRecord[] }): number {
  return (rows.blocks ?? []).reduce((head, b) => Math.max(head, b.number), 0);
}

/**
 * `fn` of read() and write() reaches state only through its `tx`: a decorator may run it again
 * (a fork does, after copying in rows the first run missed; the first run's writes are rolled back).
 */
export interface Store {
  /** A read-only transaction over every table. */
  read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T>;
  /** One row, read in a transaction of its own over its table only (cheaper than `read` where a transaction's scope costs). */
  readRow?<N extends TableName>(table: N, key: Keys[N]): Promise<Rows[N] | undefined>;
  /** One read-write transaction over every ledger table, committed with strict durability. */
  write<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T>;
  /** Every row of every table, for export. */
  dump(): Promise<{ [N in TableName]: Rows[N][] }>;
  /** Replace all state with `rows` in one transaction (import); history starts again at the imported head. */
  replaceAll(rows: { [N in TableName]: Rows[N][] }): Promise<void>;
  close(): void;
}
