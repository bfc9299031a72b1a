// Storage errors the layers above can act on.

/** The site's IndexedDB quota is used up; the transaction that hit it wrote nothing. */
export class StorageFullError extends Error {
  override readonly name = 'StorageFullError';

  constructor(options?: { cause?: unknown }) {
    super(
      "The browser's storage for this site is full; nothing was written. " +
        'Free some space (delete unused files or ledgers, or clear site data) and try again.',
      options
    );
  }
}

const QUOTA_NAMES = new Set([
  'QuotaExceededError', // the standard DOMException name (and Dexie's wrapper of it)
  'NS_ERROR_DOM_QUOTA_REACHED' // old Firefox
]);

/**
 * Whether `error` is, or wraps, a quota error. IndexedDB reports a full quota either on the
 * request (QuotaExceededError) or as the transaction's abort reason, which Dexie wraps in an
 * AbortError (`inner`), a BulkError (`failures`) or a ModifyError; walk all of them.
 */
export function isQuotaError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 8) return false;
  const e = error as {
    name?: unknown;
    code?: unknown;
    inner?: unknown;
    cause?: unknown;
    failures?: unknown;
  };
  if (typeof e.name === 'string' && QUOTA_NAMES.has(e.name)) return true;
  // Legacy DOMException code for QUOTA_EXCEEDED_ERR.
  if (e.code === 22 && typeof DOMException !== 'undefined' && error instanceof DOMException) return true;
  if (isQuotaError(e.inner, depth + 1) || isQuotaError(e.cause, depth + 1)) return true;
  if (Array.isArray(e.failures)) return e.failures.some((f) => isQuotaError(f, depth + 1));
  if (e.failures && typeof e.failures === 'object') {
    return Object.values(e.failures).some((f) => isQuotaError(f, depth + 1));
  }
  return false;
}

/**
 * The error to throw for a failed transaction: StorageFullError if `error` or the
 * transaction's abort reason (`IDBTransaction.error`) is a quota error; otherwise `error`.
 */
export function mapStorageError(error: unknown, abortReason?: unknown): unknown {
  if (isQuotaError(error)) return new StorageFullError({ cause: error });
  if (isQuotaError(abortReason)) return new StorageFullError({ cause: abortReason });
  return error;
}
