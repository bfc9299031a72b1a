// REST errors: named values, each mapped once to its HTTP status and the error envelope
// `{"error": {code, name, message, details}}` of the real service.
import { jsonResponse } from './json';
import type { ZodError } from 'zod';
import { TransactionError } from '../ledger/chain/errors';
import { HistoryError } from '../ledger/history/errors';
import { ForkSourceError } from '../ledger/fork/source';
import { MAX_QUOTE_CHARS, MAX_REPORTED_ISSUES, quote } from '../limits';

export type ErrorName =
  | 'ValidationError'
  | 'BadSignatureError'
  | 'BadPayloadError'
  | 'BuildQueryError'
  | 'SubmitExtrinsicError'
  | 'InvalidSignerError'
  | 'VerificationFailedError'
  | 'NotFoundError'
  | 'CollectionNotFoundError'
  | 'StorageFullError'
  | 'StoreBusyError'
  | 'StorageIoError'
  | 'PayloadTooLargeError'
  | 'BlockNotFoundError'
  | 'SnapshotNotFoundError'
  | 'HistoryPrunedError'
  | 'ForkSourceError'
  | 'ImpersonationRefusedError'
  | 'SdkError';

const CODES: Record<ErrorName, string> = {
  SdkError: 'UN01000',
  BadSignatureError: 'UN01001',
  SubmitExtrinsicError: 'UN01003',
  ValidationError: 'UN01004',
  InvalidSignerError: 'UN01005',
  BadPayloadError: 'UN01006',
  BuildQueryError: 'UN01007',
  NotFoundError: 'UN01008',
  VerificationFailedError: 'UN01009',
  CollectionNotFoundError: 'UN01013',
  StorageFullError: 'UN01020',
  StoreBusyError: 'UN01022',
  StorageIoError: 'UN01023',
  PayloadTooLargeError: 'UN01021',
  BlockNotFoundError: 'UN01024',
  SnapshotNotFoundError: 'UN01025',
  HistoryPrunedError: 'UN01026',
  ForkSourceError: 'UN01027',
  ImpersonationRefusedError: 'UN01028'
};

const STATUS: Record<ErrorName, number> = {
  SdkError: 500,
  BadSignatureError: 400,
  SubmitExtrinsicError: 400,
  ValidationError: 400,
  InvalidSignerError: 400,
  BadPayloadError: 400,
  BuildQueryError: 400,
  NotFoundError: 404,
  VerificationFailedError: 400,
  CollectionNotFoundError: 404,
  StorageFullError: 507,
  StoreBusyError: 503,
  // The server's disk failed: its fault, not the request's, and not known to pass (a 503 would
  // invite clients to retry against a broken disk). Nothing was stored, so a later retry is safe.
  StorageIoError: 500,
  PayloadTooLargeError: 413,
  BlockNotFoundError: 404,
  SnapshotNotFoundError: 404,
  // The block existed, but its state is no longer kept (`--history`): gone, not unknown.
  HistoryPrunedError: 410,
  // A fork's source failed to give what was never copied: a bad gateway (504 when it timed out).
  ForkSourceError: 502,
  ImpersonationRefusedError: 403
};

/**
 * A message with every run of more than MAX_QUOTE_CHARS characters without a space quoted: a
 * safety net under the messages of lower layers that repeat their input (`Cannot build <section>`).
 */
export function boundText(text: string): string {
  if (text.length <= MAX_QUOTE_CHARS) return text;
  return text.replace(LONG_RUN, (run: string, at: number) => (quotedAlready(run, text.slice(at + run.length)) ? run : quote(run)));
}

const LONG_RUN = new RegExp(`[^\\s]{${MAX_QUOTE_CHARS + 1},}`, 'g');
const QUOTE_TAIL = /^ \(\d+ characters\)/;

/** A run quote() cut already (its kept characters and `…`, then "(N characters)"), in a short frame such as quotes or a field path. */
function quotedAlready(run: string, after: string): boolean {
  return run.length <= MAX_QUOTE_CHARS + 32 && run.endsWith('…') && QUOTE_TAIL.test(after);
}

/** Strings inside details bounded the same way (details are small, nested a few levels at most). */
function boundDetails(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return boundText(value);
  if (typeof value !== 'object' || value === null || depth > 4) return value;
  if (Array.isArray(value)) return value.slice(0, MAX_REPORTED_ISSUES * 10).map((v) => boundDetails(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [boundText(k), boundDetails(v, depth + 1)]));
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: unknown;

  constructor(
    readonly errorName: ErrorName,
    message: string,
    details?: unknown,
    /** Overrides the name's usual status (a missing entity named in a mutation is a 400). */
    status?: number,
    /** Headers the answer carries besides the envelope (`Retry-After` of a 429). */
    readonly headers?: Readonly<Record<string, string>>
  ) {
    super(boundText(message));
    this.details = boundDetails(details, 0);
    // Not the envelope name: names like NotFoundError would be taken for DOM errors by Dexie.
    this.name = 'ApiError';
    this.code = CODES[errorName];
    this.status = status ?? STATUS[errorName];
  }

  toJSON() {
    return {
      error: {
        code: this.code,
        name: this.errorName,
        message: this.message,
        // DECISIONS 2: every envelope has all four fields, so `details` is {} when there are none.
        details: this.details ?? {}
      }
    };
  }
}

export function validationError(message: string, details?: unknown): ApiError {
  return new ApiError('ValidationError', message, details);
}

/**
 * A zod failure as a ValidationError naming each bad field: the first MAX_REPORTED_ISSUES of them,
 * each path quoted (object keys come from the client and may be long).
 */
export function fromZodError(error: ZodError, where: 'body' | 'query'): ApiError {
  const all = error.issues;
  const issues = all.slice(0, MAX_REPORTED_ISSUES).map((i) => ({ path: quote(i.path.map(String).join('.') || where), message: i.message }));
  const more = all.length > issues.length ? `; and ${all.length - issues.length} more` : '';
  const message = issues.map((i) => `${i.path}: ${i.message}`).join('; ') + more;
  return validationError(message || `Invalid ${where}`, issues);
}

/** Rejections of the ledger before inclusion, as the real service names them. */
export function fromTransactionError(error: TransactionError): ApiError {
  switch (error.kind) {
    case 'BadPayload':
      return new ApiError('BadPayloadError', error.message, error.details);
    case 'BadSignature':
      return new ApiError('BadSignatureError', error.message, error.details);
    case 'Invalid':
      return new ApiError('SubmitExtrinsicError', error.message, error.details);
    case 'PoolBusy':
      // The chain's pool refusing a valid extrinsic is a submit error to the real service's
      // clients; 429 and Retry-After tell them it is for now only.
      return new ApiError('SubmitExtrinsicError', error.message, error.details, 429, { 'retry-after': String(retryAfterOf(error)) });
  }
}

/** A block, snapshot or state history that is not there, as the API names it. */
export function fromHistoryError(error: HistoryError): ApiError {
  const name = ({ unknown: 'BlockNotFoundError', 'unknown-snapshot': 'SnapshotNotFoundError', pruned: 'HistoryPrunedError' } as const)[error.kind];
  return new ApiError(name, error.message);
}

/** Whole seconds of a PoolBusy refusal's `details.retryAfter` (1 when it says none). */
function retryAfterOf(error: TransactionError): number {
  const seconds = error.details?.retryAfter;
  return typeof seconds === 'number' && Number.isSafeInteger(seconds) && seconds > 0 ? seconds : 1;
}

export function errorResponse(error: ApiError): Response {
  const response = jsonResponse(error.toJSON(), error.status);
  for (const [name, value] of Object.entries(error.headers ?? {})) response.headers.set(name, value);
  return response;
}

/** 413: a body over `maxBytes`, refused before (or while) reading it. */
export function payloadTooLarge(maxBytes: number, what = 'The request body'): ApiError {
  return new ApiError('PayloadTooLargeError', `${what} is larger than ${formatBytes(maxBytes)}, the most this service takes`, { maxBytes });
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** Errors of input the client sent, thrown below the API layer: each is a 400, not a bug. */
const CLIENT_ERROR_NAMES = new Set(['InvalidAddressError', 'ContentError', 'SignatureFormatError', 'ScaleError']);

/** Any thrown value as the ApiError it is answered with; null for a bug (an internal error). */
export function toApiError(error: unknown): ApiError | null {
  // Dexie wraps what is thrown inside a transaction; the cause is what the client must see.
  while (error instanceof Error && !(error instanceof ApiError) && (error as { inner?: unknown }).inner instanceof Error) {
    error = (error as { inner?: unknown }).inner;
  }
  if (error instanceof ApiError) return error;
  if (error instanceof TransactionError) return fromTransactionError(error);
  if (error instanceof HistoryError) return fromHistoryError(error);
  if (error instanceof ForkSourceError) return new ApiError('ForkSourceError', error.message, { source: error.source, kind: error.kind }, error.kind === 'timeout' ? 504 : 502);
  if (!(error instanceof Error)) return null;
  if (error.name === 'StorageFullError') return new ApiError('StorageFullError', error.message);
  // A read of a fork raced a reset, import or another fork: nothing was copied; try again (503).
  if (error.name === 'ForkReplacedError') return new ApiError('StoreBusyError', error.message);
  // The store's file is locked by another program: nothing was written; try again (503).
  if (error.name === 'StoreBusyError') return new ApiError('StoreBusyError', error.message);
  // The disk failed reading or writing (never reported as full): 500, logged for the operator.
  if (error.name === 'StorageIoError') return new ApiError('StorageIoError', error.message);
  // decodeURIComponent and friends on a client's malformed percent-encoding.
  if (error instanceof URIError) return validationError('The URL is not valid: malformed percent-encoding');
  if (CLIENT_ERROR_NAMES.has(error.name)) return validationError(quote(error.message));
  return null;
}

/**
 * The one way every host (worker, in-page, Node) turns a thrown value into an answer: the error
 * envelope with its status; anything unexpected is a bug, logged once and answered 500.
 */
export function errorResponseFor(error: unknown): Response {
  let apiError: ApiError | null;
  try {
    apiError = toApiError(error);
  } catch {
    apiError = null; // a value whose properties throw when read
  }
  if (apiError) {
    if (apiError.status >= 500 && apiError.errorName === 'SdkError') console.error('[opalite] internal error', error);
    if (apiError.errorName === 'StorageIoError') console.error('[opalite] storage failure', error);
    return errorResponse(apiError);
  }
  console.error('[opalite] internal error', error);
  return errorResponse(new ApiError('SdkError', 'Internal error'));
}
