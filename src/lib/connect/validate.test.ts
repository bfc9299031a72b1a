import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_CALL_HEX_LENGTH, MAX_SIGNED_EXTENSIONS } from '../limits';
import { MAX_APP_NAME_LENGTH, MAX_BRIDGE_BODY_BYTES, MAX_BRIDGE_HEADERS, MAX_BRIDGE_PATH_LENGTH, MAX_HEADER_VALUE_LENGTH, MAX_SIGN_RAW_DATA_LENGTH } from './protocol';
import { readClientMessage } from './validate';

const request = (fields: Record<string, unknown> = {}) => ({ v: 1, type: 'request', id: 7, method: 'GET', path: '/sandbox/v1/collections', headers: [], body: null, ...fields });

const payload = {
  address: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
  blockHash: `0x${'11'.repeat(32)}`,
  blockNumber: '0x00000003',
  era: '0x3500',
  genesisHash: `0x${'22'.repeat(32)}`,
  method: '0x0a00',
  nonce: '0x00000000',
  signedExtensions: ['CheckSpecVersion', 'CheckNonce'],
  specVersion: '0x00000001',
  tip: '0x00000000000000000000000000000000',
  transactionVersion: '0x00000001',
  version: 4
};

/** The problem an answerable message is refused with. */
function problemOf(data: unknown): { status: number; problem: string } {
  const message = readClientMessage(data);
  if (message?.type !== 'invalid') throw new Error(`expected an invalid message, got ${JSON.stringify(message)}`);
  return { status: message.status, problem: message.problem };
}

describe('messages of the connect protocol', () => {
  it('reads each message of version 1, keeping only the fields it knows', () => {
    expect(readClientMessage({ v: 1, type: 'hello', extra: 'x' })).toEqual({ v: 1, type: 'hello' });
    expect(readClientMessage({ v: 1, type: 'bye' })).toEqual({ v: 1, type: 'bye' });
    const body = new TextEncoder().encode('{"a":1}').buffer;
    expect(readClientMessage(request({ method: 'post', headers: [['Content-Type', 'application/json']], body, secret: 'x' }))).toEqual({
      v: 1,
      type: 'request',
      id: 7,
      method: 'POST',
      path: '/sandbox/v1/collections',
      headers: [['content-type', 'application/json']],
      body
    });
    expect(readClientMessage({ v: 1, type: 'sign', id: 1, payload: { ...payload, signerPayloadHex: '0xff' } })).toEqual({ v: 1, type: 'sign', id: 1, payload });
  });

  it('ignores other versions, unknown types, garbage and messages without an id to answer', () => {
    for (const data of [
      { v: 2, type: 'hello' },
      { v: '1', type: 'hello' },
      { type: 'hello' },
      { v: 1, type: 'HELLO' },
      { v: 1, type: 'gossip' },
      { v: 1 },
      [1, 'hello'],
      null,
      undefined,
      'hello',
      42,
      request({ id: 0 }),
      request({ id: -1 }),
      request({ id: 1.5 }),
      request({ id: '7' }),
      request({ id: 2 ** 53 }),
      request({ id: undefined }),
      { v: 1, type: 'sign', payload },
      { v: 1, type: 'sign-raw', raw: { address: payload.address, data: 'hi' } }
    ]) {
      expect(readClientMessage(data)).toBeNull();
    }
  });

  it('refuses methods it does not relay and huge method names', () => {
    expect(problemOf(request({ method: 'TRACE' })).problem).toMatch(/method must be one of GET, HEAD, POST, PUT, PATCH, DELETE/);
    expect(problemOf(request({ method: 'G'.repeat(1_000_000) })).problem).toBe('method must be at most 16 characters long');
    expect(problemOf(request({ method: 5 })).problem).toBe('method must be a string');
  });

  it('refuses paths that are not a path on the Opalite origin', () => {
    for (const path of ['http://evil.example/sandbox/v1/collections', '//evil.example/sandbox/v1', 'sandbox/v1/collections', '\\\\evil.example\\x', '/sandbox\\..\\x', '']) {
      expect(problemOf(request({ path })).problem).toMatch(/^path must be a path on the Opalite origin/);
    }
    expect(problemOf(request({ path: `/sandbox/v1/${'a'.repeat(MAX_BRIDGE_PATH_LENGTH)}` })).problem).toMatch(/^path must be at most/);
    expect(problemOf(request({ path: ['/sandbox'] })).problem).toBe('path must be a string');
  });

  it('refuses malformed, too many and oversized headers', () => {
    expect(problemOf(request({ headers: { accept: '*/*' } })).problem).toMatch(/list of \[name, value\] pairs/);
    expect(problemOf(request({ headers: Array.from({ length: MAX_BRIDGE_HEADERS + 1 }, (_, i) => [`x-${i}`, '1']) })).problem).toMatch(/at most 32 entries/);
    expect(problemOf(request({ headers: [['accept']] })).problem).toMatch(/\[name, value\] pair/);
    expect(problemOf(request({ headers: [['accept', 1]] })).problem).toBe('header accept must be a string');
    expect(problemOf(request({ headers: [['x a', '1']] })).problem).toMatch(/characters a header name cannot/);
    expect(problemOf(request({ headers: [['x-a', 'one\r\nset-cookie: b']] })).problem).toMatch(/control characters/);
    expect(problemOf(request({ headers: [['x-a', 'v'.repeat(MAX_HEADER_VALUE_LENGTH + 1)]] })).problem).toMatch(/at most 1024 characters/);
  });

  it('takes a body only as bytes, and no more than the largest upload (413 beyond)', () => {
    expect(problemOf(request({ body: '{"a":1}' })).problem).toBe('body must be an ArrayBuffer or null');
    expect(problemOf(request({ body: new Uint8Array(4) })).problem).toBe('body must be an ArrayBuffer or null');
    expect(problemOf(request({ body: new ArrayBuffer(MAX_BRIDGE_BODY_BYTES + 1) }))).toEqual({ status: 413, problem: expect.stringMatching(/larger than/) });
    expect(readClientMessage(request({ method: 'POST', body: new ArrayBuffer(MAX_BRIDGE_BODY_BYTES) }))).toMatchObject({ type: 'request' });
  });

  it('bounds every field of a payload to sign and checks its type', () => {
    const sign = (fields: Record<string, unknown>) => ({ v: 1, type: 'sign', id: 3, payload: { ...payload, ...fields } });
    expect(problemOf({ v: 1, type: 'sign', id: 3, payload: 'sign me' }).problem).toMatch(/payload must be a signer payload object/);
    expect(problemOf(sign({ genesisHash: undefined })).problem).toBe('payload.genesisHash must be a string');
    expect(problemOf(sign({ address: 'x'.repeat(1_000_000) })).problem).toBe('payload.address must be at most 66 characters long');
    expect(problemOf(sign({ method: `0x${'0'.repeat(MAX_CALL_HEX_LENGTH)}` })).problem).toMatch(/payload.method must be at most/);
    expect(problemOf(sign({ signedExtensions: 'CheckNonce' })).problem).toMatch(/list of names/);
    expect(problemOf(sign({ signedExtensions: Array(MAX_SIGNED_EXTENSIONS + 1).fill('CheckNonce') })).problem).toMatch(/at most 32 names/);
    expect(problemOf(sign({ signedExtensions: [{}] })).problem).toBe('a signed extension name must be a string');
    expect(problemOf(sign({ version: '4' })).problem).toBe('payload.version must be an integer');
  });

  it("keeps a hello's app name only when it is one short line of text to show", () => {
    expect(readClientMessage({ v: 1, type: 'hello', appName: '  My dapp ' })).toEqual({ v: 1, type: 'hello', appName: 'My dapp' });
    for (const appName of ['', '   ', 'x'.repeat(MAX_APP_NAME_LENGTH + 1), 'two\nlines', 'evil\u202eppa', 42, { name: 'x' }, null]) {
      expect(readClientMessage({ v: 1, type: 'hello', appName }), String(appName)).toEqual({ v: 1, type: 'hello' });
    }
  });

  it('reads a signRaw request, and bounds and types its fields', () => {
    const raw = { address: payload.address, data: '0x48656c6c6f', type: 'bytes' };
    expect(readClientMessage({ v: 1, type: 'sign-raw', id: 4, raw: { ...raw, extra: 1 } })).toEqual({ v: 1, type: 'sign-raw', id: 4, raw });
    expect(readClientMessage({ v: 1, type: 'sign-raw', id: 4, raw: { address: raw.address, data: 'text' } })).toEqual({ v: 1, type: 'sign-raw', id: 4, raw: { address: raw.address, data: 'text' } });
    // `payload` passes here: the signing rule refuses it with its reason, before any dialog.
    expect(readClientMessage({ v: 1, type: 'sign-raw', id: 4, raw: { ...raw, type: 'payload' } })).toMatchObject({ raw: { type: 'payload' } });
    const signRaw = (fields: Record<string, unknown>) => ({ v: 1, type: 'sign-raw', id: 4, raw: { ...raw, ...fields } });
    expect(problemOf({ v: 1, type: 'sign-raw', id: 4, raw: '0x00' }).problem).toMatch(/raw must be \{ address, data, type \}/);
    expect(problemOf(signRaw({ data: 'x'.repeat(MAX_SIGN_RAW_DATA_LENGTH + 1) })).problem).toBe(`raw.data must be at most ${MAX_SIGN_RAW_DATA_LENGTH} characters long`);
    expect(problemOf(signRaw({ data: new Uint8Array(4) })).problem).toBe('raw.data must be a string');
    expect(problemOf(signRaw({ address: 'x'.repeat(1_000_000) })).problem).toBe('raw.address must be at most 66 characters long');
    expect(problemOf(signRaw({ type: 'extrinsic' })).problem).toMatch(/^raw.type must be "bytes"/);
  });

  it('never throws, whatever arrives', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.record({ v: fc.constant(1), type: fc.constantFrom('hello', 'request', 'sign', 'sign-raw', 'bye'), id: fc.anything(), raw: fc.anything(), appName: fc.anything() }, { requiredKeys: [] })), (data) => {
        const message = readClientMessage(data);
        expect(message === null || typeof message.type === 'string').toBe(true);
      }),
      { numRuns: 2000 }
    );
  });
});
