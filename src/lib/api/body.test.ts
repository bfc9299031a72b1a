// Bodies are read with a byte budget while they stream; JSON depth is checked before parsing.
import { describe, expect, it } from 'vitest';
import { formFile, jsonBody, jsonDepthExceeds, parseJsonText, readBodyBytes } from './body';
import { ApiError } from './errors';
import { MAX_JSON_DEPTH, MULTIPART_OVERHEAD_BYTES } from '../limits';

const CHUNK = 64 * 1024;

/** A body of `total` bytes in 64 KiB chunks with no declared length, counting what is pulled. */
function countingStream(total: number) {
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (counter.pulled >= total) return controller.close();
        const size = Math.min(CHUNK, total - counter.pulled);
        counter.pulled += size;
        controller.enqueue(new Uint8Array(size).fill(0x20));
      }
    },
    { highWaterMark: 0 }
  );
  return { stream, counter };
}

function streamed(stream: ReadableStream<Uint8Array>, contentType = 'application/json'): Request {
  return new Request('http://127.0.0.1/x', { method: 'POST', body: stream, headers: { 'content-type': contentType }, duplex: 'half' } as RequestInit);
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('readBodyBytes', () => {
  it('reads a body of exactly the budget, and refuses one byte more with 413', async () => {
    const at = await readBodyBytes(new Request('http://x/', { method: 'POST', body: new Uint8Array(1000) }), 1000);
    expect(at.byteLength).toBe(1000);
    const over = await refusal(readBodyBytes(new Request('http://x/', { method: 'POST', body: new Uint8Array(1001) }), 1000));
    expect(over.status).toBe(413);
    expect(over.errorName).toBe('PayloadTooLargeError');
    expect(over.code).toBe('UN01021');
  });

  it('refuses a declared Content-Length over the budget without reading the body', async () => {
    const { stream, counter } = countingStream(10 * CHUNK);
    const request = new Request('http://x/', { method: 'POST', body: stream, headers: { 'content-length': String(10 * CHUNK) }, duplex: 'half' } as RequestInit);
    expect((await refusal(readBodyBytes(request, CHUNK))).status).toBe(413);
    expect(counter.pulled).toBe(0);
  });

  it('stops a 2 MiB stream without a declared length soon after the 1 MiB budget', async () => {
    const { stream, counter } = countingStream(2 * 1024 * 1024);
    const error = await refusal(readBodyBytes(streamed(stream), 1024 * 1024));
    expect(error.status).toBe(413);
    // The chunk that crossed the budget, and at most one more already queued.
    expect(counter.pulled).toBeLessThanOrEqual(1024 * 1024 + 2 * CHUNK);
    expect(counter.pulled).toBeGreaterThan(1024 * 1024);
  });

  it('gives an empty body for a request without one', async () => {
    expect((await readBodyBytes(new Request('http://x/'), 10)).byteLength).toBe(0);
  });

  it('answers a body whose connection broke mid-stream with a 400 (the client left), not an internal error', async () => {
    let sent = false;
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new Uint8Array(10));
        } else controller.error(new Error('aborted'));
      }
    });
    const error = await refusal(readBodyBytes(streamed(broken), 1000));
    expect([error.status, error.errorName]).toEqual([400, 'ValidationError']);
    expect(error.message).toMatch(/connection closed before it ended/);
  });
});

describe('JSON depth', () => {
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  it(`parses ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}`, () => {
    expect(parseJsonText(nested(MAX_JSON_DEPTH))).toBeInstanceOf(Array);
    expect(() => parseJsonText(nested(MAX_JSON_DEPTH + 1))).toThrow(`Request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    expect(() => parseJsonText(nested(1_000_000))).toThrow(ApiError);
  });

  it('counts objects and arrays alike, and not brackets inside strings', () => {
    expect(jsonDepthExceeds('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":{"b":[1]}}', 2)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ s: '[[[[[[\\"[[[[' }), 1)).toBe(false);
  });

  it('reads an empty body as {} and a broken one as a ValidationError', async () => {
    expect(await jsonBody(new Request('http://x/', { method: 'POST', body: '  ' }), 10)).toEqual({});
    expect(() => parseJsonText('{"a":')).toThrow('Request body is not valid JSON');
  });
});

describe('formFile', () => {
  it('reads the file field within the file budget plus the multipart framing', async () => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(100)]), 'a.bin');
    const file = await formFile(new Request('http://x/', { method: 'POST', body: form }), 100);
    expect((file as File).size).toBe(100);
  });

  it('refuses a multipart stream over the budget while it streams', async () => {
    const { stream, counter } = countingStream(4 * 1024 * 1024);
    const error = await refusal(formFile(streamed(stream, 'multipart/form-data; boundary=x'), 1024 * 1024));
    expect(error.status).toBe(413);
    expect(counter.pulled).toBeLessThanOrEqual(1024 * 1024 + MULTIPART_OVERHEAD_BYTES + 2 * CHUNK);
  });
});
