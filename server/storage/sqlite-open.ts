// Opening the SQLite file: refuse what is not an Opalite ledger (naming the file), create or
// upgrade the schema, and set the pragmas durability and concurrency depend on.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { LedgerFileError, mapSqliteError } from './sqlite-errors';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './sqlite-schema';

export type Connection = Database.Database;

const SQLITE_HEADER = 'SQLite format 3\u0000';
/**
 * SQLite's own wait for another process's lock: none. It would sleep the event loop; the store
 * waits with timers instead (sqlite-busy.ts), so a busy statement throws at once.
 */
const BUSY_TIMEOUT_MS = 0;
/**
 * Pages are read through a memory map of the file's first 64 MiB (a 100k-token ledger is about
 * 34 MiB): a random read costs no system call, so it stays as fast at 100k tokens as at 1k. The
 * OS keeps the pages (file cache, reclaimable); nothing is copied into the process.
 */
const MMAP_BYTES = 64 * 1024 * 1024;

/** Refuse early a file that exists, is not empty and does not start like an SQLite database. */
function checkHeader(path: string): void {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new LedgerFileError(path, 'it is not a file');
    size = stat.size;
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ENOENT') return; // created below
    if (e instanceof LedgerFileError) throw e;
    throw new LedgerFileError(path, (e as Error).message, { cause: e });
  }
  if (size === 0) return; // SQLite treats an empty file as an empty database
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  if (header.toString('latin1') !== SQLITE_HEADER) {
    throw new LedgerFileError(path, 'it is not an SQLite database');
  }
}

function explainOpenError(path: string, e: unknown): unknown {
  if (e instanceof LedgerFileError) return e;
  const mapped = mapSqliteError(e, path);
  if (mapped !== e) return mapped;
  const code = (e as { code?: unknown }).code;
  if (code === 'SQLITE_NOTADB') return new LedgerFileError(path, 'it is not an SQLite database', { cause: e });
  return new LedgerFileError(path, (e as Error).message, { cause: e });
}

/** Bring the schema to SCHEMA_VERSION, or refuse a foreign or newer database. */
function prepareSchema(db: Connection, path: string): void {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  const tableCount = (db.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number }).n;
  if (applicationId !== APPLICATION_ID && (tableCount > 0 || applicationId !== 0 || version !== 0)) {
    throw new LedgerFileError(path, 'it is an SQLite database of another application, not an Opalite ledger');
  }
  if (version > SCHEMA_VERSION) {
    throw new LedgerFileError(path, `it was written by a newer Opalite (schema ${version}; this one reads up to ${SCHEMA_VERSION})`);
  }
  if (version === SCHEMA_VERSION) return;
  db.transaction(() => {
    for (let v = version; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/**
 * The one writing connection: WAL, every commit synced to disk before it returns. Throws
 * StoreBusyError at once when another program holds a lock it needs (the caller retries).
 */
export function openWriter(path: string): Connection {
  checkHeader(path);
  let db: Connection | undefined;
  try {
    db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    prepareSchema(db, path);
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') throw new LedgerFileError(path, `its journal cannot be switched to WAL (it stays "${String(mode)}")`);
    // FULL: in WAL mode the log is synced at every commit, so a commit that returned survives a crash.
    db.pragma('synchronous = FULL');
    // After a checkpoint the log is cut back to this size rather than kept at its largest.
    db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
    db.pragma(`mmap_size = ${MMAP_BYTES}`);
    return db;
  } catch (e) {
    db?.close();
    throw explainOpenError(path, e);
  }
}

/** A reading connection: sees the last committed state, never waits for the writer (WAL). */
export function openReader(path: string): Connection {
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    db.pragma(`mmap_size = ${MMAP_BYTES}`);
    return db;
  } catch (e) {
    throw explainOpenError(path, e);
  }
}
