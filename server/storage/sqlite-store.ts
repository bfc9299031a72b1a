// The ledger's Store on SQLite (better-sqlite3), for the Node host. Node-only.
//
// One file (layout in sqlite-schema.ts, reasons in docs/decisions/0005-node-host-storage.md):
// - write(fn): one at a time (an internal queue), on the single writing connection:
//   BEGIN IMMEDIATE, fn, COMMIT; ROLLBACK if anything throws. WAL with synchronous=FULL, so when
//   write() resolves the block is on disk. Reads inside fn use the same connection and see fn's
//   own writes. fn may await anything (unlike IndexedDB), but not this store's own methods.
// - read(fn): a read transaction on a reading connection (at most MAX_READERS open; more reads
//   wait in line): one consistent snapshot of the last commit, never waiting for an open write (WAL).
//   fn may await anything but another read() of this store: with every connection held by reads
//   waiting like it, the inner read would wait for ever (read through fn's tx instead).
// - files: the built-in IPFS store, in the same file (sqlite-files.ts).
// - another program's lock (a `sqlite3` session in a write) is waited for with timers, never by
//   sleeping the event loop (sqlite-busy.ts), then refused as StoreBusyError.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { QueryTx, Rows, Store, TableName } from '../../src/lib/ledger/store';
import { TABLES, importedHead } from '../../src/lib/ledger/store';
import { fromTaggedJson } from '../../src/lib/ledger/snapshot';
import { BUSY_DEADLINE_MS, retryWhileBusy, tryWhileBusy } from './sqlite-busy';
import { isBusy, LedgerFileError, mapSqliteError, StoreBusyError } from './sqlite-errors';
import { SqliteFileStore } from './sqlite-files';
import { claimLedgerFile } from './owner-lock';
import { openReader, openWriter } from './sqlite-open';
import { ReaderPool } from './sqlite-readers';
import { StatementCache, SqliteTx, type StoreFaults } from './sqlite-tx';

export type { StoreFaults, StatementKind } from './sqlite-tx';
export { DiskFullError, LedgerFileError, StorageIoError, StoreBusyError } from './sqlite-errors';

type Connection = Database.Database;
type AllRows = { [N in TableName]: Rows[N][] };

/**
 * Reading connections open at once. Statements run on the event loop (better-sqlite3 is
 * synchronous), so more connections add no speed: one is needed only per read transaction held
 * open across an await. Eight let that many such requests interleave, more than two to four cores
 * can keep busy, for about 16 file descriptors and little memory (pages come through the memory
 * map); a ninth waits for the first to end, where each used to open one more connection until
 * enough concurrent requests hit EMFILE.
 */
export const MAX_READERS = 8;

export interface OpenSqliteStoreOptions {
  /** The database file, created if missing. Default: a fresh temporary file, deleted on close. */
  path?: string;
  /** Test hooks to make writes fail at chosen points. */
  faults?: StoreFaults;
  /** How long a read or write waits for another program's lock before StoreBusyError (default 5 s). */
  busyDeadlineMs?: number;
  /** Reading connections open at once (default MAX_READERS). */
  maxReaders?: number;
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

/** Starts a read transaction's snapshot (the first read of the file does), so a lock is met here. */
const START_SNAPSHOT_SQL = 'SELECT 1 FROM sqlite_schema LIMIT 1';

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
  private readonly readers: ReaderPool<StatementCache>;
  private readonly busyDeadlineMs: number;
  /** The end of the write queue: each write starts when the previous one settled. */
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    /** The database file. */
    readonly path: string,
    writer: Connection,
    private readonly options: { faults?: StoreFaults; temporary?: boolean; release?: () => void; busyDeadlineMs?: number; maxReaders?: number } = {}
  ) {
    this.writer = new StatementCache(writer);
    this.busyDeadlineMs = options.busyDeadlineMs ?? BUSY_DEADLINE_MS;
    this.readers = new ReaderPool({
      max: options.maxReaders ?? MAX_READERS,
      open: () => new StatementCache(openReader(path)),
      close: (reader) => reader.db.close(),
      closedError: () => new StoreClosedError(path)
    });
    this.files = new SqliteFileStore(
      (work) => this.exclusive(() => this.inWriteTransaction(async () => work(this.writer))),
      (work) => this.readTransaction(async (reader) => work(reader))
    );
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
        // The imported chain's past is not this ledger's: history starts again at its head.
        tx.history.delete({ after: -1 });
        tx.history.setStart(importedHead(rows));
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
    // Readers still in a read() close when it ends; reads waiting for one are refused.
    this.readers.close();
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

  /** One write transaction of the ledger's tables on the writer; the caller holds the queue. */
  private transaction<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    const faults = this.options.faults;
    return this.inWriteTransaction(async () => {
      const tx = new SqliteTx(this.writer, true, faults);
      let result: T;
      try {
        result = await fn(tx);
      } finally {
        tx.finish();
      }
      // A statement failed and the caller caught it: commit nothing rather than part of a block.
      if (tx.failure) throw tx.failure.error;
      faults?.beforeCommit?.();
      return result;
    });
  }

  /**
   * BEGIN IMMEDIATE (waiting off the event loop while another program holds the write lock),
   * `work`, COMMIT; ROLLBACK if anything throws. The caller holds the queue.
   */
  private async inWriteTransaction<T>(work: () => Promise<T>): Promise<T> {
    const db = this.writer.db;
    try {
      const begun = tryWhileBusy(() => this.writer.get('BEGIN IMMEDIATE').run(), this.busyDeadlineMs);
      if (begun instanceof Promise) await begun;
      const result = await work();
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
        try {
          // In WAL mode only another program's exclusive use of the file (or its recovery) makes a
          // reader wait, and then here, at the snapshot's start: off the event loop too.
          const started = tryWhileBusy(() => reader.get(START_SNAPSHOT_SQL).run(), this.busyDeadlineMs);
          if (started instanceof Promise) await started;
        } catch (e) {
          throw isBusy(e) ? new StoreBusyError(this.path, { cause: e, reading: true }) : e;
        }
        return await work(reader);
      } catch (e) {
        throw mapSqliteError(e, this.path);
      } finally {
        reader.get('COMMIT').run(); // ends the snapshot; a read transaction has nothing to write
      }
    });
  }

  private async withReader<T>(work: (reader: StatementCache) => Promise<T>): Promise<T> {
    if (this.closed) throw new StoreClosedError(this.path);
    const available = this.readers.acquire();
    const reader = available instanceof Promise ? await available : available;
    try {
      return await work(reader);
    } finally {
      this.readers.release(reader);
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
    writer = await retryWhileBusy(() => openWriter(path), options.busyDeadlineMs ?? BUSY_DEADLINE_MS);
  } catch (e) {
    release();
    if (e instanceof StoreBusyError) throw new LedgerFileError(path, 'another program holds its lock (a sqlite3 session in a write, say); end that and start again', { cause: e });
    throw e;
  }
  const { faults, busyDeadlineMs, maxReaders } = options;
  const store = new SqliteStore(path, writer, { faults, temporary, release, busyDeadlineMs, maxReaders });
  if (temporary) deleteOnExit(store);
  return store;
}
