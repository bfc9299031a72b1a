// The SQL layout of a ledger database: one table per ledger table (ledger/store.ts TABLES), each
// row kept whole as JSON text in `value` (bigints tagged as in ledger/snapshot.ts), beside the key
// columns and the columns the QueryTx indexes need. Plus `files`, the built-in IPFS store.
//
//   meta        key                                   value
//   accounts    address                               value
//   collections id                                    value
//   tokens      (collectionId, tokenId)  owner, parentCollectionId, parentTokenId   value
//               idx (owner, collectionId, tokenId)    tokensOfOwner, countOwned
//               idx (parentCollectionId, parentTokenId) WHERE nested   childrenOf
//   allowList   (collectionId, address)               value
//   blocks      number                   hash         value    idx hash: blockByHash
//   extrinsics  hash                     signer, createdAt   value
//               idx (createdAt, hash), idx (signer, createdAt, hash): recentExtrinsics
//   pool        hash                                  value
//   files       cid   bytes, type, name, size, createdAt   idx (createdAt, cid): listFiles
//   changes     id = block * 2^20 + seq   extrinsic, tbl, keyId, before, after   (sqlite-history.ts)
//               idx (tbl, keyId, id): a row's first change after a block
//   change_accounts (account, id)   idx id: an account's changes, newest first (changesOfAccount)
//   history_info key                                  value: where history starts
//
// Tables are STRICT, so a key of the wrong type is refused rather than stored. Changing the
// layout: bump SCHEMA_VERSION, add the step to MIGRATIONS (run in one transaction on open).
import type { Keys, Rows, TableName } from '../../src/lib/ledger/store';
import type { AllowListRecord, ExtrinsicRecord, TokenRecord } from '../../src/lib/ledger/types';

/** Written to `PRAGMA application_id`: marks the file as an Opalite ledger ("OPAL"). */
export const APPLICATION_ID = 0x4f50414c;
/** Written to `PRAGMA user_version`. */
export const SCHEMA_VERSION = 3;

/** How one ledger table maps to SQL. */
export interface TableSpec<N extends TableName> {
  /** Key columns, in primary-key order. */
  keyColumns: readonly string[];
  /** Columns besides the keys and `value`, kept for indexes. */
  indexColumns: readonly string[];
  /** The key columns' values of a key (throws on a malformed key). */
  keyValues(key: Keys[N]): unknown[];
  /** The index columns' values of a row. */
  indexValues(row: Rows[N]): unknown[];
}

function invalidKey(table: string, key: unknown): Error {
  let shown: string;
  try {
    shown = JSON.stringify(key, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)) ?? String(key);
  } catch {
    shown = String(key);
  }
  return new Error(`invalid ${table} key ${shown}`);
}

function scalarKey(table: string, kind: 'string' | 'integer') {
  return (key: unknown): unknown[] => {
    const ok = kind === 'string' ? typeof key === 'string' : Number.isSafeInteger(key);
    if (!ok) throw invalidKey(table, key);
    return [key];
  };
}

function pairKey(table: string, second: 'string' | 'integer') {
  return (key: unknown): unknown[] => {
    if (!Array.isArray(key) || key.length !== 2 || !Number.isSafeInteger(key[0])) throw invalidKey(table, key);
    const ok = second === 'string' ? typeof key[1] === 'string' : Number.isSafeInteger(key[1]);
    if (!ok) throw invalidKey(table, key);
    return [key[0], key[1]];
  };
}

const none = (): unknown[] => [];

export const TABLE_SPECS: { [N in TableName]: TableSpec<N> } = {
  meta: { keyColumns: ['key'], indexColumns: [], keyValues: scalarKey('meta', 'string'), indexValues: none },
  accounts: { keyColumns: ['address'], indexColumns: [], keyValues: scalarKey('accounts', 'string'), indexValues: none },
  collections: { keyColumns: ['id'], indexColumns: [], keyValues: scalarKey('collections', 'integer'), indexValues: none },
  tokens: {
    keyColumns: ['collectionId', 'tokenId'],
    indexColumns: ['owner', 'parentCollectionId', 'parentTokenId'],
    keyValues: pairKey('tokens', 'integer'),
    indexValues: (t: TokenRecord) => [t.owner, t.parentCollectionId ?? null, t.parentTokenId ?? null]
  },
  allowList: {
    keyColumns: ['collectionId', 'address'],
    indexColumns: [],
    keyValues: pairKey('allowList', 'string'),
    indexValues: none as (r: AllowListRecord) => unknown[]
  },
  blocks: { keyColumns: ['number'], indexColumns: ['hash'], keyValues: scalarKey('blocks', 'integer'), indexValues: (b) => [b.hash] },
  extrinsics: {
    keyColumns: ['hash'],
    indexColumns: ['signer', 'createdAt'],
    keyValues: scalarKey('extrinsics', 'string'),
    indexValues: (e: ExtrinsicRecord) => [e.signer, e.createdAt]
  },
  pool: { keyColumns: ['hash'], indexColumns: [], keyValues: scalarKey('pool', 'string'), indexValues: none }
};

/** The DDL of schema version 1. */
const SCHEMA_V1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) STRICT;
CREATE TABLE accounts (address TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) STRICT;
CREATE TABLE collections (id INTEGER PRIMARY KEY NOT NULL, value TEXT NOT NULL) STRICT;
CREATE TABLE tokens (
  collectionId INTEGER NOT NULL, tokenId INTEGER NOT NULL,
  owner TEXT, parentCollectionId INTEGER, parentTokenId INTEGER,
  value TEXT NOT NULL,
  PRIMARY KEY (collectionId, tokenId)
) STRICT, WITHOUT ROWID;
CREATE INDEX tokens_by_owner ON tokens (owner, collectionId, tokenId);
CREATE INDEX tokens_by_parent ON tokens (parentCollectionId, parentTokenId) WHERE parentCollectionId IS NOT NULL;
CREATE TABLE allowList (
  collectionId INTEGER NOT NULL, address TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (collectionId, address)
) STRICT, WITHOUT ROWID;
CREATE TABLE blocks (number INTEGER PRIMARY KEY NOT NULL, hash TEXT, value TEXT NOT NULL) STRICT;
CREATE INDEX blocks_by_hash ON blocks (hash);
CREATE TABLE extrinsics (hash TEXT PRIMARY KEY NOT NULL, signer TEXT, createdAt REAL, value TEXT NOT NULL) STRICT;
CREATE INDEX extrinsics_by_time ON extrinsics (createdAt, hash);
CREATE INDEX extrinsics_by_signer ON extrinsics (signer, createdAt, hash);
CREATE TABLE pool (hash TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) STRICT;
CREATE TABLE files (
  cid TEXT PRIMARY KEY NOT NULL, bytes BLOB NOT NULL, type TEXT NOT NULL, name TEXT NOT NULL,
  size INTEGER NOT NULL, createdAt REAL NOT NULL
) STRICT;
CREATE INDEX files_by_time ON files (createdAt, cid);
`;

/**
 * Version 2: the state history (sqlite-history.ts). The rowid is the change's place, block and
 * seq in one integer (CHANGE_SEQ_BITS), so a range of blocks is a range of the table itself. A
 * ledger of an older release keeps no history of its past: it starts at its head.
 */
const SCHEMA_V2 = `
CREATE TABLE changes (
  id INTEGER PRIMARY KEY NOT NULL, extrinsic INTEGER, tbl TEXT NOT NULL, keyId TEXT NOT NULL,
  before TEXT, after TEXT
) STRICT;
CREATE INDEX changes_by_row ON changes (tbl, keyId, id);
CREATE TABLE history_info (key TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL) STRICT;
INSERT INTO history_info (key, value)
  VALUES ('start', coalesce((SELECT json_extract(value, '$.value.number') FROM meta WHERE key = 'head'), 0));
`;

/**
 * Version 3: an account's history (sqlite-history.ts changesOfAccount): the changes each account
 * is named in (ledger/history/accounts-of-change.ts), by (account, change id). Changes kept before
 * the upgrade are not listed (SQL cannot read the accounts out of them); later ones are.
 */
const SCHEMA_V3 = `
CREATE TABLE change_accounts (account TEXT NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (account, id)) STRICT, WITHOUT ROWID;
CREATE INDEX change_accounts_by_id ON change_accounts (id);
`;

/** Steps from version i to i+1 (index 0 creates version 1 in an empty file). */
export const MIGRATIONS: readonly string[] = [SCHEMA_V1, SCHEMA_V2, SCHEMA_V3];
