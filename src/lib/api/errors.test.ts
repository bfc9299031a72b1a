// errorResponseFor: every thrown value becomes the envelope; only bugs are 500, logged once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TransactionError } from '../ledger/chain/errors';
import { ApiError, errorResponseFor, fromZodError, payloadTooLarge, validationError } from './errors';
import { z } from 'zod';
import { quote } from '../limits';

async function envelope(response: Response) {
  return { status: response.status, type: response.headers.get('content-type'), error: ((await response.json()) as { error: Record<string, unknown> }).error };
}

afterEach(() => vi.restoreAllMocks());

describe('errorResponseFor', () => {
  it('answers an ApiError with its own status and the four-field envelope (details {} when there are none)', async () => {
    expect(await envelope(errorResponseFor(validationError('bad')))).toEqual({
      status: 400,
      type: 'application/json',
      error: { code: 'UN01004', name: 'ValidationError', message: 'bad', details: {} }
    });
    expect(await envelope(errorResponseFor(payloadTooLarge(1024 * 1024)))).toMatchObject({
      status: 413,
      error: { code: 'UN01021', name: 'PayloadTooLargeError', message: 'The request body is larger than 1 MiB, the most this service takes', details: { maxBytes: 1048576 } }
    });
  });

  it('answers a pool with no room now 429, with Retry-After in seconds and the pool in the details', async () => {
    const details = { reason: 'PoolShareExceeded', waiting: 64, share: 64, poolWaiting: 4096, poolSize: 8192, retryAfter: 6 };
    const response = errorResponseFor(new TransactionError('PoolBusy', 'Too many extrinsics of this account waiting', details));
    expect(response.headers.get('retry-after')).toBe('6');
    expect(await envelope(response)).toEqual({
      status: 429,
      type: 'application/json',
      error: { code: 'UN01003', name: 'SubmitExtrinsicError', message: 'Too many extrinsics of this account waiting', details }
    });
    // Other ledger rejections carry no Retry-After: retrying them would not help.
    expect(errorResponseFor(new TransactionError('Invalid', 'Transaction is outdated')).headers.get('retry-after')).toBeNull();
  });

  it('maps ledger rejections, a full disk and malformed URLs', async () => {
    const rejected = new TransactionError('BadSignature', 'Bad signature', undefined);
    expect((await envelope(errorResponseFor(rejected))).error.name).toBe('BadSignatureError');
    const full = Object.assign(new Error('No room'), { name: 'StorageFullError' });
    expect(await envelope(errorResponseFor(full))).toMatchObject({ status: 507, error: { name: 'StorageFullError', code: 'UN01020' } });
    let uriError: unknown;
    try {
      decodeURIComponent('%E0%A4%A');
    } catch (e) {
      uriError = e;
    }
    expect(await envelope(errorResponseFor(uriError))).toMatchObject({ status: 400, error: { name: 'ValidationError' } });
    // Dexie wraps what was thrown inside a transaction.
    const wrapped = Object.assign(new Error('wrapped'), { inner: validationError('inner') });
    expect((await envelope(errorResponseFor(wrapped))).error.message).toBe('inner');
  });

  it.each([new Error('boom'), 'a string', null, undefined, 42, { weird: true }])('answers %j with a 500 envelope, logged once', async (thrown) => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await envelope(errorResponseFor(thrown))).toEqual({
      status: 500,
      type: 'application/json',
      error: { code: 'UN01000', name: 'SdkError', message: 'Internal error', details: {} }
    });
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('quotes a long input once: a message that already quotes it keeps the true length', () => {
    const message = validationError(`Invalid address: ${quote('x'.repeat(20_000))} is too long`).message;
    expect(message).toBe(`Invalid address: ${'x'.repeat(120)}… (20000 characters) is too long`);
    expect(validationError(`Cannot build ${'y'.repeat(500)}`).message).toBe(`Cannot build ${'y'.repeat(120)}… (500 characters)`);
    // Quoted inside quotes or after a field path: still once.
    expect(validationError(`Bad name "${quote('z'.repeat(300))}"`).message).toBe(`Bad name "${'z'.repeat(120)}… (300 characters)"`);
    expect(validationError(`data.attributes.${quote('k'.repeat(4_096))} is not defined`).message).toBe(`data.attributes.${'k'.repeat(120)}… (4096 characters) is not defined`);
    // A run of 121 characters is more than a quote keeps.
    expect(validationError(`Cannot build ${'w'.repeat(121)}`).message).toBe(`Cannot build ${'w'.repeat(120)}… (121 characters)`);
  });

  it('does not log client errors', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    errorResponseFor(validationError('x'));
    errorResponseFor(new ApiError('NotFoundError', 'gone'));
    expect(log).not.toHaveBeenCalled();
  });
});

describe('fromZodError', () => {
  it('lists at most 10 issues and quotes long paths', () => {
    const result = z.array(z.number()).safeParse(Array.from({ length: 1000 }, () => 'x'));
    const error = fromZodError(result.error!, 'body');
    expect((error.details as unknown[]).length).toBe(10);
    expect(error.message).toMatch(/; and 990 more$/);
    const key = 'k'.repeat(10_000);
    const keyed = z.record(z.string(), z.number()).safeParse({ [key]: 'x' });
    expect(fromZodError(keyed.error!, 'body').message.length).toBeLessThan(300);
  });
});
