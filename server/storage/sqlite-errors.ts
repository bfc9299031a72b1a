// Errors of the SQLite store: a file it will not open, a full disk (the API's 507), a failing disk
// (I/O error) and a lock held by another program. Each names the database file.
import { StorageFullError } from '../../src/lib/storage/errors';

/** The database file cannot be opened as an Opalite ledger; the message names the file. */
export class LedgerFileError extends Error {
  override readonly name = 'LedgerFileError';
  constructor(
    readonly path: string,
    reason: string,
    options?: { cause?: unknown }
  ) {
    super(`Cannot open the ledger database ${path}: ${reason}`, options);
  }
}

/** The disk (or the size limit) holding the database is full; the write stored nothing. */
export class DiskFullError extends StorageFullError {
  constructor(path: string, options?: { cause?: unknown }) {
    super(options);
    this.message =
      `The disk holding the ledger database ${path} is full; nothing of this write was stored. ` +
      'Free some space and try again.';
  }
}

/**
 * The operating system failed to read or write the database (a failing disk, a lost network
 * mount, a file changed under the host): a fault of the server's storage, not a full disk and not
 * the request's. A write that hit it stored nothing (SQLite rolls it back).
 */
export class StorageIoError extends Error {
  override readonly name = 'StorageIoError';
  constructor(path: string, code: string, options?: { cause?: unknown }) {
    super(`Reading or writing the ledger database ${path} failed (${code}): the server's storage needs attention. A write that met this stored nothing.`, options);
  }
}

/**
 * Another program holds the database's lock (a person's `sqlite3` session, say) past the store's
 * deadline: nothing was stored and the request may be tried again; no fault of what was sent.
 */
export class StoreBusyError extends Error {
  override readonly name = 'StoreBusyError';
  constructor(path: string, options?: { cause?: unknown; reading?: boolean }) {
    const what = options?.reading ? 'it could not be read' : 'nothing of this write was stored';
    super(`The ledger database ${path} is locked by another program; ${what}. Try again shortly.`, options);
  }
}

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

// Only a full disk: SQLITE_FULL (SQLite's ENOSPC, and max_page_count reached), and Node's own
// ENOSPC/EDQUOT. SQLite reports a quota (EDQUOT) as SQLITE_IOERR_WRITE without the errno
// (better-sqlite3 does not expose sqlite3_system_errno), so that one is an I/O error here.
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

export function isDiskFull(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && FULL_CODES.has(code);
}

/** SQLITE_IOERR and its extended codes (…_WRITE, …_FSYNC, …_READ, …), and a damaged file. */
function isIoError(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CORRUPT') || code === 'EIO');
}

/** Another connection holds a lock SQLite needs (SQLITE_BUSY, SQLITE_LOCKED and their extended codes). */
export function isBusy(error: unknown): boolean {
  if (error instanceof StoreBusyError) return true;
  const code = codeOf(error);
  return code !== undefined && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** DiskFullError, StorageIoError or StoreBusyError for what they are; `error` otherwise. */
export function mapSqliteError(error: unknown, path: string): unknown {
  if (error instanceof StorageFullError || error instanceof StorageIoError || error instanceof StoreBusyError) return error;
  if (isDiskFull(error)) return new DiskFullError(path, { cause: error });
  if (isIoError(error)) return new StorageIoError(path, codeOf(error)!, { cause: error });
  if (isBusy(error)) return new StoreBusyError(path, { cause: error });
  return error;
}
