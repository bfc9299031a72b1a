// The ledger's Store on SQLite (better-sqlite3), for the Node host. Node-only.
//
// One file (layout in sqlite-schema.ts, reasons in docs/decisions/0005-node-host-storage.md):
// - write(fn): one at a time (an internal queue), on the single writing connection:
//   BEGIN IMMEDIATE, fn, COMMIT; ROLLBACK if anything throws. WAL with synchronous=FULL, so when
//   write() resolves the block is on disk. Reads inside fn use the same connection and see fn's
//   own writes. fn may await anything (unlike IndexedDB), but not this store's own methods.
// - read(fn): a read transaction on a reading connection (a small pool, one per concurrent read):
//   one consistent snapshot of the last commit, never waiting for an open write (WAL).
// - files: the built-in IPFS store, in the same file (sqlite-files.ts).
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { QueryTx, Rows, Store, TableName } from '../../src/lib/ledger/store';
import { TABLES } from '../../src/lib/ledger/store';
import { fromTaggedJson } from '../../src/lib/ledger/snapshot';
import { mapSqliteError } from './sqlite-errors';
import { SqliteFileStore } from './sqlite-files';
import { claimLedgerFile } from './owner-lock';
import { openReader, openWriter } from './sqlite-open';
import { StatementCache, SqliteTx, type StoreFaults } from './sqlite-tx';

export type { StoreFaults, StatementKind } from './sqlite-tx';
export { DiskFullError, LedgerFileError } from './sqlite-errors';

type Connection = Database.Database;
type AllRows = { [N in TableName]: Rows[N][] };

/** Reading connections kept open between reads; more are opened while more reads overlap. */
const IDLE_READERS = 4;

export interface OpenSqliteStoreOptions {
  /** The database file, created if missing. Default: a fresh temporary file, deleted on close. */
  path?: string;
  /** Test hooks to make writes fail at chosen points. */
  faults?: StoreFaults;
}

let tempCounter = 0;

/** Temporary stores still open: their files are deleted when the process exits without close(). */
const openTemporaryStores = new Set<SqliteStore>();
let exitHookInstalled = false;

function deleteOnExit(store: SqliteStore): void {
  openTemporaryStores.add(store);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const open of openTemporaryStores) open.close();
  });
}

function temporaryPath(): string {
  const unique = `${process.pid}-${Date.now().toString(36)}-${++tempCounter}-${Math.random().toString(36).slice(2, 8)}`;
  return join(tmpdir(), `opalite-ledger-${unique}.sqlite`);
}

class StoreClosedError extends Error {
  override readonly name = 'StoreClosedError';
  constructor(path: string) {
    super(`The ledger database ${path} is closed.`);
  }
}

export class SqliteStore implements Store {
  /** The built-in IPFS file store, in the same database. */
  readonly files: SqliteFileStore;

  private readonly writer: StatementCache;
  private readonly idleReaders: StatementCache[] = [];
  /** The end of the write queue: each write starts when the previous one settled. */
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    /** The database file. */
    readonly path: string,
    writer: Connection,
    private readonly options: { faults?: StoreFaults; temporary?: boolean; release?: () => void } = {}
  ) {
    this.writer = new StatementCache(writer);
    this.files = new SqliteFileStore(path, (work) => this.exclusive(work), (work) => this.withReader(work), this.writer);
  }

  read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    return this.readTransaction(async (reader) => {
      const tx = new SqliteTx(reader, false, undefined);
      try {
        return await fn(tx);
      } finally {
        tx.finish();
      }
    });
  }

  write<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    return this.exclusive(() => this.transaction(fn));
  }

  dump(): Promise<AllRows> {
    // One read transaction: one snapshot for every table. Rows come out in key order.
    return this.readTransaction(async (reader) => {
      const out = {} as Record<string, unknown[]>;
      for (const t of TABLES) {
        out[t] = (reader.get(`SELECT value FROM "${t}"`).pluck().all() as string[]).map(fromTaggedJson);
      }
      return out as AllRows;
    });
  }

  replaceAll(rows: AllRows): Promise<void> {
    return this.exclusive(() =>
      this.transaction(async (tx) => {
        for (const t of TABLES) this.writer.get(`DELETE FROM "${t}"`).run();
        for (const t of TABLES) for (const row of rows[t] ?? []) tx.put(t, row as never);
      })
    );
  }

  /**
   * Cap the database at about `bytes` (SQLite's max_page_count on the writer), or lift the cap
   * (`undefined`). A write that would pass it fails with DiskFullError: a full disk, simulated.
   */
  setSizeLimit(bytes: number | undefined): void {
    const db = this.writer.db;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    // SQLite will not set max_page_count below the current page count (it keeps that instead).
    const pages = bytes === undefined ? 0xfffffffe : Math.max(1, Math.floor(bytes / pageSize));
    db.pragma(`max_page_count = ${pages}`);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    // Readers still in a read() close when it ends (withReader).
    for (const reader of this.idleReaders) reader.db.close();
    this.idleReaders.length = 0;
    this.writer.db.close(); // the last connection: checkpoints the WAL into the file
    this.options.release?.();
    if (this.options.temporary) {
      openTemporaryStores.delete(this);
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(this.path + suffix, { force: true });
    }
  }

  // ---- internals ---------------------------------------------------------------------------

  /** Run `work` when every earlier write has settled, alone on the writer. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = () => {
      if (this.closed) throw new StoreClosedError(this.path);
      return work();
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** One write transaction on the writer; the caller holds the queue. */
  private async transaction<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    const db = this.writer.db;
    const faults = this.options.faults;
    const tx = new SqliteTx(this.writer, true, faults);
    try {
      this.writer.get('BEGIN IMMEDIATE').run();
      let result: T;
      try {
        result = await fn(tx);
      } finally {
        tx.finish();
      }
      // A statement failed and the caller caught it: commit nothing rather than part of a block.
      if (tx.failure) throw tx.failure.error;
      faults?.beforeCommit?.();
      this.writer.get('COMMIT').run();
      return result;
    } catch (e) {
      // A failed COMMIT may have rolled back already (SQLite does on some errors): check first.
      if (db.inTransaction) this.writer.get('ROLLBACK').run();
      throw mapSqliteError(e, this.path);
    }
  }

  /** A read transaction (one snapshot) on a reading connection of its own. */
  private readTransaction<T>(work: (reader: StatementCache) => Promise<T>): Promise<T> {
    return this.withReader(async (reader) => {
      reader.get('BEGIN').run();
      try {
        return await work(reader);
      } finally {
        reader.get('COMMIT').run(); // ends the snapshot; a read transaction has nothing to write
      }
    });
  }

  private async withReader<T>(work: (reader: StatementCache) => Promise<T>): Promise<T> {
    if (this.closed) throw new StoreClosedError(this.path);
    const reader = this.idleReaders.pop() ?? new StatementCache(openReader(this.path));
    try {
      return await work(reader);
    } finally {
      if (this.closed) reader.db.close();
      else if (this.idleReaders.length < IDLE_READERS) this.idleReaders.push(reader);
      else reader.db.close();
    }
  }
}

/**
 * Open (creating or upgrading as needed) a ledger database. Throws LedgerFileError naming the
 * file when it is not an Opalite ledger (not SQLite, another application's, a newer schema).
 */
export async function openSqliteStore(options: OpenSqliteStoreOptions = {}): Promise<SqliteStore> {
  const temporary = options.path === undefined;
  const path = options.path ?? temporaryPath();
  const release = temporary ? () => {} : claimLedgerFile(path);
  let writer: Connection;
  try {
    writer = openWriter(path);
  } catch (e) {
    release();
    throw e;
  }
  const store = new SqliteStore(path, writer, { faults: options.faults, temporary, release });
  if (temporary) deleteOnExit(store);
  return store;
}
