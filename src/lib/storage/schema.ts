// The IndexedDB schema of a ledger, as a Dexie database. One database holds the ledger tables
// (the `Store` of ledger/store.ts, see dexie-store.ts) and the built-in IPFS file store
// (files.ts), which is not part of the ledger state and never exported with it.
//
// Every read the API makes on a hot path has an index here:
//   tokens     primary [collectionId+tokenId]   get, tokenIdsOfCollection (primary-key range)
//              [collectionId+owner]             countOwned, tokensOfOwner(owner, collection)
//              owner                            tokensOfOwner(owner)
//              [parentCollectionId+parentTokenId]  childrenOf (absent on un-nested tokens, so
//                                               only nested tokens are in this index)
//   allowList  primary [collectionId+address]   get, allowListOf (primary-key range)
//   blocks     primary number                   get, headBlock (reverse, first)
//              hash                             blockByHash
//   extrinsics primary hash                     get
//              createdAt                        recentExtrinsics(limit)
//              [signer+createdAt]               recentExtrinsics(limit, signer)
//   changes    *accountPlaces                   changesOfAccount (history.ts)
//   pool       primary hash                     get, pooled (the whole, bounded table)
//   files      primary cid, createdAt           getFile/hasFile, listFiles (newest first)
//
// ---- Changing the schema ---------------------------------------------------------------------
// Schema changes go through Dexie versions; a ledger written by an older release must open in a
// newer one with nothing lost. To add version 2:
//
//   1. Append an entry to SCHEMA_VERSIONS below. Its `stores` lists only the tables that change
//      (Dexie carries the others over); a table set to `null` is deleted. Keep version 1 as it
//      is: Dexie replays the list to upgrade databases of any older version.
//        {
//          version: 2,
//          stores: { tokens: '[collectionId+tokenId], [collectionId+owner], owner, ' +
//                            '[parentCollectionId+parentTokenId], approved' },
//          upgrade: async (tx) => {
//            // Rewrite rows into the new shape. Runs inside the versionchange transaction:
//            // await only IndexedDB work here (Dexie table calls on `tx`), nothing else.
//            await tx.table('tokens').toCollection().modify((t) => { ... });
//          }
//        }
//   2. A primary key cannot change in place: create a new table in version N with the new key,
//      copy the rows over in N's `upgrade`, and delete the old table (set it to `null`) in N+1
//      (or in N if nothing reads it any more).
//   3. DB_SCHEMA_VERSION follows the list automatically. Add a test that writes a database with
//      the previous version's declarations (a LedgerDatabase built with `versions: [...]` cut
//      at the old version), closes it, reopens it with the current schema, and checks the rows.
//   4. If a ledger table is added or renamed, update `TABLES`/`Rows`/`Keys` in ledger/store.ts
//      (owned by the ledger) and LEDGER_TABLES here together.
import { Dexie, type Table, type Transaction } from './dexie';
import { accountsOfChange } from '../ledger/history/accounts-of-change';
import type { Keys, RowChange, Rows, StateTable, TableName } from '../ledger/store';
import { TABLES } from '../ledger/store';

export const DEFAULT_DB_NAME = 'opalite-ledger';

/** A file of the built-in IPFS store (not ledger state). */
export interface FileRecord {
  /** Content id (CIDv1 string); the primary key. */
  cid: string;
  bytes: Uint8Array | Blob;
  /** MIME type, e.g. `image/png`. */
  type: string;
  /** The name the file was added with. */
  name: string;
  /** Length of `bytes` in bytes. */
  size: number;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

export interface SchemaVersion {
  version: number;
  /** Dexie store declarations: primary key first, then indexes. `null` deletes a table. */
  stores: Record<string, string | null>;
  /** Rewrites rows of older versions; only IndexedDB work may be awaited inside. */
  upgrade?: (tx: Transaction) => Promise<unknown> | void;
}

export const SCHEMA_VERSIONS: readonly SchemaVersion[] = [
  {
    version: 1,
    stores: {
      meta: 'key',
      accounts: 'address',
      collections: 'id',
      tokens: '[collectionId+tokenId], [collectionId+owner], owner, [parentCollectionId+parentTokenId]',
      allowList: '[collectionId+address]',
      blocks: 'number, hash',
      extrinsics: 'hash, createdAt, [signer+createdAt]',
      files: 'cid, createdAt'
    }
  },
  // The waiting pool is kept with the ledger, so a hash answered at submit survives a restart.
  { version: 2, stores: { pool: 'hash' } },
  // State history (history.ts): every block's row changes, and where history starts. A ledger
  // of an older release keeps no history of its past: reads at a block before its upgrade are refused.
  {
    version: 3,
    stores: { changes: '[block+seq], [tbl+keyId+block+seq], [tbl+block+keyId]', historyInfo: 'key' },
    upgrade: async (tx) => {
      const head = (await tx.table('meta').get('head')) as { value?: { number?: number } } | undefined;
      await tx.table('historyInfo').put({ key: 'start', value: head?.value?.number ?? 0 });
    }
  },
  // An account's history (history.ts changesOfAccount): each change lists the places it takes
  // under the accounts it names, so a page of one account's changes is one range of this index.
  {
    version: 4,
    stores: { changes: '[block+seq], [tbl+keyId+block+seq], [tbl+block+keyId], *accountPlaces' },
    upgrade: async (tx) => {
      await tx
        .table('changes')
        .toCollection()
        .modify((row: ChangeRow) => {
          row.accountPlaces = accountPlacesOf({ table: row.tbl, key: row.key as never, before: row.before as never, after: row.after as never }, row.block, row.seq);
        });
    }
  }
];

/** The schema version a database is at after opening with this release. */
export const DB_SCHEMA_VERSION: number = SCHEMA_VERSIONS[SCHEMA_VERSIONS.length - 1].version;

/** The ledger tables (the Store's TABLES), in one transaction scope. */
export const LEDGER_TABLES: readonly TableName[] = TABLES;

export const FILES_TABLE = 'files';

/** The state history's tables: in every ledger transaction, never exported (history.ts). */
export const HISTORY_TABLES = ['changes', 'historyInfo'] as const;

/** A kept row change as IndexedDB holds it: the key also as text, for the per-row index. */
export interface ChangeRow {
  block: number;
  seq: number;
  extrinsic: number | null;
  tbl: StateTable;
  keyId: string;
  key: unknown;
  before?: unknown;
  after?: unknown;
  /** `<account>\u0001<block>\u0001<seq>` for each account it names (accountPlaceOf), the account-history index. */
  accountPlaces?: string[];
}

/** A change's place under one account, as text that sorts as (account, block, seq). */
export function accountPlaceOf(account: string, block: number, seq: number): string {
  return `${account}\u0001${String(block).padStart(10, '0')}\u0001${String(seq).padStart(7, '0')}`;
}

/** The places a change takes in the account-history index. */
export function accountPlacesOf(change: RowChange, block: number, seq: number): string[] {
  return accountsOfChange(change).map((account) => accountPlaceOf(account, block, seq));
}

export interface LedgerDatabaseOptions {
  /** Database name; default `opalite-ledger`. Tests and several ledgers use their own. */
  name?: string;
  /** The IndexedDB factory; default the global one (pass fake-indexeddb's in Node). */
  indexedDB?: IDBFactory;
  /** The IDBKeyRange class that belongs to `indexedDB`. */
  IDBKeyRange?: typeof IDBKeyRange;
  /** Schema versions to declare; default SCHEMA_VERSIONS (tests of upgrades cut this list). */
  versions?: readonly SchemaVersion[];
}

type LedgerTable<N extends TableName> = Table<Rows[N], Keys[N]>;

export class LedgerDatabase extends Dexie {
  declare meta: LedgerTable<'meta'>;
  declare accounts: LedgerTable<'accounts'>;
  declare collections: LedgerTable<'collections'>;
  declare tokens: LedgerTable<'tokens'>;
  declare allowList: LedgerTable<'allowList'>;
  declare blocks: LedgerTable<'blocks'>;
  declare extrinsics: LedgerTable<'extrinsics'>;
  declare pool: LedgerTable<'pool'>;
  declare files: Table<FileRecord, string>;
  declare changes: Table<ChangeRow, [number, number]>;
  declare historyInfo: Table<{ key: string; value: number }, string>;

  /** The IndexedDB factory this database opens through (for key validation). */
  readonly factory: IDBFactory | undefined;

  constructor(options: LedgerDatabaseOptions = {}) {
    const deps: { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange } = {};
    // Only pass what is set: an explicit `undefined` would override Dexie's defaults.
    if (options.indexedDB) deps.indexedDB = options.indexedDB;
    if (options.IDBKeyRange) deps.IDBKeyRange = options.IDBKeyRange;
    super(options.name ?? DEFAULT_DB_NAME, {
      ...deps,
      // Every transaction of this connection is opened with durability 'strict': a committed
      // write is on disk before `complete` fires (Chromium otherwise defaults to 'relaxed' in
      // some versions). Read-only transactions ignore it.
      chromeTransactionDurability: 'strict'
    });
    this.factory = options.indexedDB ?? (Dexie.dependencies.indexedDB as IDBFactory | undefined);
    // Nothing observes this database with liveQuery (contexts hear of blocks on the ledger
    // channel): without these, a write no longer tracks the key ranges it touched and broadcasts
    // them to every context on commit.
    this.unuse({ stack: 'dbcore', name: 'Observability' }).unuse({ stack: 'dbcore', name: 'Cache' });
    for (const v of options.versions ?? SCHEMA_VERSIONS) {
      const version = this.version(v.version).stores(v.stores);
      if (v.upgrade) version.upgrade(v.upgrade);
    }
  }
}
