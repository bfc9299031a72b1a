// REST errors: named values, each mapped once to its HTTP status and the error envelope
// `{"error": {code, name, message, details}}` of the real service.
import { jsonResponse } from './json';
import type { ZodError } from 'zod';
import { TransactionError } from '../ledger/chain/errors';

export type ErrorName =
  | 'ValidationError'
  | 'BadSignatureError'
  | 'BadPayloadError'
  | 'SubmitExtrinsicError'
  | 'InvalidSignerError'
  | 'VerificationFailedError'
  | 'NotFoundError'
  | 'CollectionNotFoundError'
  | 'StorageFullError'
  | 'SdkError';

const CODES: Record<ErrorName, string> = {
  SdkError: 'UN01000',
  BadSignatureError: 'UN01001',
  SubmitExtrinsicError: 'UN01003',
  ValidationError: 'UN01004',
  InvalidSignerError: 'UN01005',
  BadPayloadError: 'UN01006',
  NotFoundError: 'UN01008',
  VerificationFailedError: 'UN01009',
  CollectionNotFoundError: 'UN01013',
  StorageFullError: 'UN01020'
};

const STATUS: Record<ErrorName, number> = {
  SdkError: 500,
  BadSignatureError: 400,
  SubmitExtrinsicError: 400,
  ValidationError: 400,
  InvalidSignerError: 400,
  BadPayloadError: 400,
  NotFoundError: 404,
  VerificationFailedError: 400,
  CollectionNotFoundError: 404,
  StorageFullError: 507
};

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(
    readonly errorName: ErrorName,
    message: string,
    readonly details?: unknown,
    /** Overrides the name's usual status (a missing entity named in a mutation is a 400). */
    status?: number
  ) {
    super(message);
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
        ...(this.details === undefined ? {} : { details: this.details })
      }
    };
  }
}

export function validationError(message: string, details?: unknown): ApiError {
  return new ApiError('ValidationError', message, details);
}

/** A zod failure as a ValidationError naming each bad field. */
export function fromZodError(error: ZodError, where: 'body' | 'query'): ApiError {
  const issues = error.issues.map((i) => ({ path: i.path.join('.') || where, message: i.message }));
  const message = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
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
  }
}

export function errorResponse(error: ApiError): Response {
  return jsonResponse(error.toJSON(), error.status);
}
