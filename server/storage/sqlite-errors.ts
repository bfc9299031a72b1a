// Errors of the SQLite store: a file it will not open, and a full disk (as the API's 507).
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

// SQLITE_FULL: no space (ENOSPC) or max_page_count reached. A quota (EDQUOT) surfaces as a failed
// write (SQLITE_IOERR_WRITE); ENOSPC/EDQUOT also come from Node's own file calls.
const FULL_CODES = new Set(['SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'ENOSPC', 'EDQUOT']);

export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && FULL_CODES.has(code);
}

/**
 * Another program holds the database's write lock (a person's `sqlite3` session, say) past the busy
 * timeout: the write stored nothing and may be tried again; no fault of what was being written.
 */
export class StoreBusyError extends Error {
  override readonly name = 'StoreBusyError';
  constructor(path: string, options?: { cause?: unknown }) {
    super(`The ledger database ${path} is locked by another program; nothing of this write was stored. Try again shortly.`, options);
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** DiskFullError for a full disk, StoreBusyError for a lock held elsewhere, `error` otherwise. */
export function mapSqliteError(error: unknown, path: string): unknown {
  if (isDiskFull(error) && !(error instanceof StorageFullError)) return new DiskFullError(path, { cause: error });
  if (isBusy(error)) return new StoreBusyError(path, { cause: error });
  return error;
}
