// Errors of the REST client, each with a message a person can read. The service's envelope
// (`{error: {code, name, message, details}}`) becomes an ApiError; a request that never got an
// answer becomes a NetworkError; a chain dispatch error (the extrinsic is in a block, but failed)
// becomes an ExtrinsicFailedError.
import type { ExtrinsicStatus } from './types';

/** The service answered with its error envelope (or with something that is not JSON). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errorName: string;
  readonly details: unknown;

  constructor(status: number, envelope: { code?: string; name?: string; message?: string; details?: unknown }) {
    super(envelope.message?.trim() || `The service answered ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = envelope.code ?? '';
    this.errorName = envelope.name ?? '';
    this.details = envelope.details;
  }
}

/** No answer: offline, wrong address, CORS, timeout. */
export class NetworkError extends Error {
  readonly url: string;

  constructor(url: string, reason: string, options?: { cause?: unknown }) {
    super(`Could not reach ${url}: ${reason}`, options);
    this.name = 'NetworkError';
    this.url = url;
  }
}

/** The extrinsic was included but its call failed on chain (fee paid, nothing else changed). */
export class ExtrinsicFailedError extends Error {
  readonly status: ExtrinsicStatus;

  constructor(status: ExtrinsicStatus) {
    const message = status.error?.message?.trim() || 'The chain refused the call';
    const where = [status.error?.details?.section, status.error?.details?.name].filter(Boolean).join('.');
    super(where ? `${message} (${where})` : message);
    this.name = 'ExtrinsicFailedError';
    this.status = status;
  }
}

/** The person closed the sign dialog. */
export class SignatureCancelledError extends Error {
  constructor() {
    super('Signing was cancelled; nothing was submitted');
    this.name = 'SignatureCancelledError';
  }
}

/** The extrinsic was submitted, but no final status came in time. */
export class StatusTimeoutError extends Error {
  readonly hash: string;

  constructor(hash: string, seconds: number) {
    super(`Submitted as ${hash}, but no final status came within ${seconds} seconds; see the extrinsics log`);
    this.name = 'StatusTimeoutError';
    this.hash = hash;
  }
}

function validationLines(details: unknown): string[] {
  if (!Array.isArray(details)) return [];
  return details
    .map((d) => (d && typeof d === 'object' && 'message' in d ? `${(d as { path?: string }).path ? `${(d as { path: string }).path}: ` : ''}${String((d as { message: unknown }).message)}` : ''))
    .filter(Boolean);
}

/** Any error in words, for a person (never a stack trace, never `[object Object]`). */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const lines = validationLines(error.details);
    // Validation errors list every field; the envelope's message repeats the first one.
    if (lines.length > 1) return `${error.message}. All problems: ${lines.join('; ')}`;
    return error.message;
  }
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
