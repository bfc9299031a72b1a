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
}

export interface Store {
  /** A read-only transaction over every table. */
  read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T>;
  /** One read-write transaction over every ledger table, committed with strict durability. */
  write<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T>;
  /** Every row of every table, for export. */
  dump(): Promise<{ [N in TableName]: Rows[N][] }>;
  /** Replace all state with `rows` in one transaction (import). */
  replaceAll(rows: { [N in TableName]: Rows[N][] }): Promise<void>;
  close(): void;
}
