// The REST handler against a hostile client: bounded input, capped bodies, JSON-only writes,
// statuses per method, and an envelope (never a crash) for anything a client can send.
import { beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../ledger/chain/ledger';
import { MemoryStore } from '../ledger/testing/memory-store';
import { createHandler } from './handler';
import {
  MAX_CALLS_PER_BATCH,
  MAX_DECIMAL_DIGITS,
  MAX_JSON_BODY_BYTES,
  MAX_JSON_DEPTH,
  MAX_REQUEST_PROPERTIES,
  MAX_REQUEST_PROPERTY_KEY_CHARS,
  MAX_REQUEST_PROPERTY_VALUE_CHARS,
  MAX_SIGNATURE_HEX_LENGTH,
  MAX_TOKENS_PER_CALL,
  MAX_URL_LENGTH
} from '../limits';
import { fileServer, ipfsRoutes, type FileStoreLike, type StoredFile } from './routes/ipfs';
import { ALICE, BOB, openApi, type Api } from './routes/route-test-kit';
import { signatureHex } from './schemas';

const BASE = 'http://127.0.0.1/sandbox/v1';
const MB = 1_000_000;

let api: Api;

beforeEach(async () => {
  api = await openApi();
});

async function send(path: string, init: RequestInit & { duplex?: 'half' } = {}) {
  const response = await api.handler(new Request(`${BASE}${path}`, init as RequestInit));
  const text = await response.text();
  return { status: response.status, text, json: text ? JSON.parse(text) : undefined };
}

const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body)
});

const collection = { address: ALICE, name: 'C', description: 'D', tokenPrefix: 'T' };

describe('1 MB values in field positions', () => {
  it('refuses a 1 MB address as a ValidationError quoting at most 120 characters', async () => {
    const huge = '5'.repeat(MB);
    for (const answer of [
      await send('/collections?use=Build', json('POST', { ...collection, address: huge })),
      await send(`/balance?address=${'5'.repeat(10_000)}`)
    ]) {
      expect(answer.status).toBe(400);
      expect(answer.json.error.name).toBe('ValidationError');
      expect(answer.json.error.message).toMatch(/Invalid address/);
      expect(answer.text.length).toBeLessThan(1000);
    }
  });

  it.each([
    ['name', { ...collection, name: 'n'.repeat(MB) }],
    ['tokenPrefix', { ...collection, tokenPrefix: 'p'.repeat(MB) }],
    ['properties.0.key', { ...collection, properties: [{ key: 'k'.repeat(MB), value: '' }] }],
    ['properties.0.value', { ...collection, properties: [{ key: 'k', value: 'v'.repeat(MB) }] }],
    ['adminList.0', { ...collection, adminList: ['5'.repeat(MB)] }],
    ['tokenPropertyPermissions.0.key', { ...collection, tokenPropertyPermissions: [{ key: 'k'.repeat(MB), permission: {} }] }]
  ])('refuses a 1 MB %s with a short 400', async (field, body) => {
    const answer = await send('/collections?use=Build', json('POST', body));
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toContain(field);
    expect(answer.text.length).toBeLessThan(1000);
  });
});

describe('limits at and just beyond their bounds', () => {
  const props = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: 'v' }));

  it(`takes ${MAX_REQUEST_PROPERTIES} properties and refuses ${MAX_REQUEST_PROPERTIES + 1}`, async () => {
    expect((await send('/collections?use=Build', json('POST', { ...collection, properties: props(MAX_REQUEST_PROPERTIES) }))).status).toBe(201);
    const over = await send('/collections?use=Build', json('POST', { ...collection, properties: props(MAX_REQUEST_PROPERTIES + 1) }));
    expect(over.status).toBe(400);
    expect(over.json.error.message).toContain(`properties: properties must have at most ${MAX_REQUEST_PROPERTIES} items`);
  });

  it(`takes property keys of ${MAX_REQUEST_PROPERTY_KEY_CHARS} and values of ${MAX_REQUEST_PROPERTY_VALUE_CHARS} characters, not one more`, async () => {
    const at = [{ key: 'k'.repeat(MAX_REQUEST_PROPERTY_KEY_CHARS), value: 'v'.repeat(MAX_REQUEST_PROPERTY_VALUE_CHARS) }];
    expect((await send('/collections?use=Build', json('POST', { ...collection, properties: at }))).status).toBe(201);
    for (const over of [
      [{ key: 'k'.repeat(MAX_REQUEST_PROPERTY_KEY_CHARS + 1), value: '' }],
      [{ key: 'k', value: 'v'.repeat(MAX_REQUEST_PROPERTY_VALUE_CHARS + 1) }]
    ]) {
      expect((await send('/collections?use=Build', json('POST', { ...collection, properties: over }))).status).toBe(400);
    }
  });

  it(`takes ${MAX_TOKENS_PER_CALL} tokens per create-multiple call and refuses ${MAX_TOKENS_PER_CALL + 1}`, async () => {
    await api.createCollection();
    const tokens = (n: number) => Array.from({ length: n }, () => ({}));
    expect((await send('/tokens/create-multiple?use=Build', json('POST', { address: ALICE, collectionId: 1, tokens: tokens(MAX_TOKENS_PER_CALL) }))).status).toBe(201);
    expect((await send('/tokens/create-multiple?use=Build', json('POST', { address: ALICE, collectionId: 1, tokens: tokens(MAX_TOKENS_PER_CALL + 1) }))).status).toBe(400);
  });

  it(`builds ${MAX_CALLS_PER_BATCH} calls per batch and refuses ${MAX_CALLS_PER_BATCH + 1}`, async () => {
    const calls = (n: number) => Array.from({ length: n }, () => ({ address: ALICE, destination: BOB, amount: '1' }));
    const at = await send('/balance/transfer?use=BuildBatch', json('POST', calls(MAX_CALLS_PER_BATCH)));
    expect(at.status, at.text.slice(0, 300)).toBe(201);
    const over = await send('/balance/transfer?use=BuildBatch', json('POST', calls(MAX_CALLS_PER_BATCH + 1)));
    expect(over.status).toBe(400);
    expect(over.json.error.message).toMatch(/at most 120 calls/);
  });

  it(`takes decimal amounts of ${MAX_DECIMAL_DIGITS} digits plus a point, not one character more`, async () => {
    const at = await send('/balance/transfer?use=Build', json('POST', { address: ALICE, destination: BOB, amount: `1.${'0'.repeat(MAX_DECIMAL_DIGITS - 1)}` }));
    expect(at.json.error?.message ?? '').not.toMatch(/at most 40 digits/);
    const over = await send('/balance/transfer?use=Build', json('POST', { address: ALICE, destination: BOB, amount: '1'.repeat(MAX_DECIMAL_DIGITS + 2) }));
    expect(over.status).toBe(400);
    expect(over.json.error.message).toMatch(/^amount: amount must be a number or a decimal string of at most 40 digits/);
  });

  it('refuses a native amount past the chain\'s u128 with a 400 naming the bound, and takes the largest', async () => {
    // 2^128 - 1 smallest units at 18 decimals is 340282366920938463463.374607431768211455 whole units.
    const largest = '340282366920938463463.374607431768211455';
    const at = await send('/balance/transfer?use=Build', json('POST', { address: ALICE, destination: BOB, amount: largest }));
    expect(at.status, at.text.slice(0, 300)).toBe(201);
    for (const amount of ['340282366920938463463.374607431768211456', '1000000000000000000000', 1e21]) {
      for (const use of ['Build', 'GetFee']) {
        const over = await send(`/balance/transfer?use=${use}`, json('POST', { address: ALICE, destination: BOB, amount }));
        expect(over.status, `${use} ${amount}: ${over.text.slice(0, 300)}`).toBe(400);
        expect(over.json.error.name).toBe('ValidationError');
        expect(over.json.error.message).toMatch(/amount is more than the chain holds: at most 340282366920938463463\.374607431768211455 whole units/);
      }
    }
  });

  it('refuses an empty or blank number in a query string instead of reading it as 0', async () => {
    for (const nonce of ['', '%20', '%20%20']) {
      const built = await send(`/balance/transfer?use=Build&nonce=${nonce}`, json('POST', { address: ALICE, destination: BOB, amount: '1' }));
      expect(built.status, `nonce=${nonce}: ${built.text.slice(0, 300)}`).toBe(400);
      expect(built.json.error.message).toMatch(/nonce/);
    }
    const explicit = await send('/balance/transfer?use=Build&nonce=7', json('POST', { address: ALICE, destination: BOB, amount: '1' }));
    expect(explicit.json.signerPayloadJSON.nonce).toBe('0x00000007');
    // Block numbers: an empty one named block 0 (the genesis block) before.
    for (const path of ['/explorer/block?number=', '/explorer/blocks?from=', '/explorer/blocks?from=%20']) {
      const answer = await send(path);
      expect(answer.status, `${path}: ${answer.text.slice(0, 300)}`).toBe(400);
      expect(answer.json.error.name).toBe('ValidationError');
    }
    expect((await send('/explorer/block?number=0')).status).toBe(200);
  });

  it(`bounds signatures at ${MAX_SIGNATURE_HEX_LENGTH} characters`, () => {
    expect(signatureHex.safeParse(`0x${'a'.repeat(MAX_SIGNATURE_HEX_LENGTH - 2)}`).success).toBe(true);
    expect(signatureHex.safeParse(`0x${'a'.repeat(MAX_SIGNATURE_HEX_LENGTH - 1)}`).success).toBe(false);
  });

  it(`takes URLs up to ${MAX_URL_LENGTH} characters`, async () => {
    const pad = (length: number) => `/collections?collectionId=1${'&a=b'.repeat(length)}`;
    const short = await send(pad(10));
    expect(short.status).toBe(200);
    const long = await send(pad(MAX_URL_LENGTH / 4));
    expect(long.status).toBe(400);
    expect(long.json.error.message).toMatch(/longer than 16384/);
  });
});

describe('bodies', () => {
  it('takes a JSON body of exactly the cap and refuses one byte more with 413 PayloadTooLargeError', async () => {
    const padded = (size: number) => {
      const text = JSON.stringify({ ...collection, pad: '' });
      return text.replace('"pad":""', `"pad":"${'x'.repeat(size - text.length)}"`);
    };
    const at = padded(MAX_JSON_BODY_BYTES);
    expect(at.length).toBe(MAX_JSON_BODY_BYTES);
    expect((await send('/collections?use=Build', json('POST', at))).status).toBe(201);
    const over = await send('/collections?use=Build', json('POST', padded(MAX_JSON_BODY_BYTES + 1)));
    expect(over.status).toBe(413);
    expect(over.json.error).toMatchObject({ name: 'PayloadTooLargeError', code: 'UN01021' });
  });

  it('refuses a 2 MiB stream without content-length with 413, having read little past the cap', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (pulled >= 2 * 1024 * 1024) return controller.close();
          pulled += 65536;
          controller.enqueue(new Uint8Array(65536).fill(0x20));
        }
      },
      { highWaterMark: 0 }
    );
    const answer = await send('/collections?use=Build', { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' });
    expect(answer.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(MAX_JSON_BODY_BYTES + 2 * 65536);
  });

  it('answers 400, not 500, for deep JSON with use=Build (the echo of a payload recursed)', async () => {
    const built = await api.request('POST', '/v1/collections?use=Build', collection);
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const text = JSON.stringify({ signerPayloadJSON: built.json.signerPayloadJSON }).replace(/}}$/, `,"x":${deep}}}`);
    for (const use of ['Build', 'BuildBatch', 'GetFee']) {
      const answer = await send(`/collections?use=${use}`, json('POST', text));
      expect(answer.status).toBe(400);
      expect(answer.json.error.message).toBe(`Request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
  });
});

describe('cross-site writes', () => {
  it('refuses text/plain writes with the real service’s message', async () => {
    for (const [method, path] of [['POST', '/collections'], ['PATCH', '/collections/transfer'], ['DELETE', '/collections'], ['POST', '/extrinsic/submit']]) {
      const answer = await send(path, { method, headers: { 'content-type': 'text/plain' }, body: JSON.stringify(collection) });
      expect(answer.status).toBe(400);
      expect(answer.json.error.message).toMatch(/^Invalid Content-type header "text\/plain"/);
    }
  });

  it('refuses a write body without a content type, and form encodings', async () => {
    // Bytes, so that no content type is added for the string.
    const missing = await send('/collections/transfer', { method: 'PATCH', body: new TextEncoder().encode('{}') });
    expect(missing.json.error.message).toMatch(/^Invalid Content-type header ""/);
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const answer = await send('/collections', { method: 'POST', headers: { 'content-type': type }, body: 'a=b' });
      expect(answer.status).toBe(400);
      expect(answer.json.error.message).toMatch(/^Invalid Content-type header/);
    }
  });

  it('refuses a body-less POST without a content type from a browser (it names its Origin)', async () => {
    const browser = await send('/collections', { method: 'POST', headers: { origin: 'https://evil.example' } });
    expect(browser.json.error.message).toMatch(/^Invalid Content-type header ""/);
    // The same from a client that is not a browser reaches the route (which wants arguments).
    const tool = await send('/collections', { method: 'POST' });
    expect(tool.status).toBe(400);
    expect(tool.json.error.message).not.toMatch(/Content-type/);
  });

  it('refuses form submissions (navigations) whatever their type', async () => {
    const answer = await send('/collections', { ...json('POST', collection), headers: { 'content-type': 'application/json', 'sec-fetch-mode': 'navigate' } });
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toMatch(/Form submissions/);
  });

  it('takes DELETE without a body and without a content type to the route', async () => {
    const answer = await send('/tokens', { method: 'DELETE' });
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).not.toMatch(/Content-type/);
    expect(answer.json.error.message).toMatch(/address/);
  });

  it('takes application/json with parameters, any case', async () => {
    const answer = await send('/collections?use=Build', { method: 'POST', headers: { 'content-type': 'Application/JSON; charset=utf-8' }, body: JSON.stringify(collection) });
    expect(answer.status).toBe(201);
  });
});

describe('statuses (DECISIONS 2)', () => {
  it('answers POST 201, PATCH 200 and DELETE 200, every use mode', async () => {
    await api.createCollection();
    await api.mint(1);
    const patch = await api.request('PATCH', '/v1/tokens/transfer?use=Result', { address: ALICE, collectionId: 1, tokenId: 1, to: BOB }, '//Alice');
    expect(patch.status).toBe(200);
    expect(patch.json.isError).toBe(false);
    const build = await api.request('PATCH', '/v1/collections/transfer?use=Build', { address: ALICE, collectionId: 1, to: BOB });
    expect(build.status).toBe(200);
    const burn = await api.request('DELETE', '/v1/tokens?use=Result', { address: BOB, collectionId: 1, tokenId: 1 }, '//Bob');
    expect(burn.status).toBe(200);
    const fee = await api.request('DELETE', '/v1/collections?use=GetFee', { address: ALICE, collectionId: 1 });
    expect(fee.status).toBe(200);
    expect((await api.request('POST', '/v1/collections?use=Build', collection)).status).toBe(201);
  });
});

describe('malformed URLs', () => {
  it('answers 404 for a bad percent-encoding in a route path and 400 in a query', async () => {
    expect((await send('/%E0%A4%A')).status).toBe(404);
    const query = await send('/collections?collectionId=%E0%A4%A');
    expect(query.status).toBe(400);
  });

  it('answers GET /ipfs/%E0%A4%A and a 1 MB CID with 400', async () => {
    const files: FileStoreLike = { putFile: async () => undefined, getFile: async () => undefined };
    const serve = fileServer(files);
    for (const path of ['/ipfs/%E0%A4%A', `/ipfs/z${'1'.repeat(10_000)}`]) {
      const response = await serve(new Request(`http://127.0.0.1${path}`))!;
      expect(response.status).toBe(400);
      expect((await response.text()).length).toBeLessThan(1000);
    }
  });
});

describe('uploads', () => {
  async function uploadHandler(maxUploadBytes: number) {
    const ledger = await Ledger.open({ store: new MemoryStore() });
    const stored = new Map<string, StoredFile>();
    const files: FileStoreLike = {
      putFile: async ({ cid, bytes, type, name }) => void stored.set(cid, { cid, bytes, type, name, size: bytes.byteLength }),
      getFile: async (cid) => stored.get(cid)
    };
    return createHandler({ ledger, extraRoutes: ipfsRoutes({ files }), limits: { maxUploadBytes } });
  }

  const form = (size: number) => {
    const data = new FormData();
    data.set('file', new Blob([new Uint8Array(size)]), 'f.bin');
    return data;
  };

  it('takes a file of the host’s upload limit and refuses one byte more with 413', async () => {
    const handler = await uploadHandler(1000);
    const at = await handler(new Request(`${BASE}/ipfs/upload-file`, { method: 'POST', body: form(1000) }));
    expect(at.status).toBe(201);
    const over = await handler(new Request(`${BASE}/ipfs/upload-file`, { method: 'POST', body: form(1001) }));
    expect(over.status).toBe(413);
    expect(((await over.json()) as { error: { name: string } }).error.name).toBe('PayloadTooLargeError');
  });

  it('refuses an upload sent as JSON or text', async () => {
    const handler = await uploadHandler(1000);
    for (const type of ['application/json', 'text/plain']) {
      const answer = await handler(new Request(`${BASE}/ipfs/upload-file`, { method: 'POST', headers: { 'content-type': type }, body: '{}' }));
      expect(answer.status).toBe(400);
    }
  });

  it('states the limits in the OpenAPI document', async () => {
    const handler = await uploadHandler(1234);
    const doc = (await (await handler(new Request(`${BASE}/openapi.json`))).json()) as any;
    expect(doc.info['x-opalite-limits']).toMatchObject({ maxUploadBytes: 1234, maxJsonBodyBytes: MAX_JSON_BODY_BYTES, maxAddressLength: 64, maxJsonDepth: MAX_JSON_DEPTH });
    const create = doc.paths['/sandbox/v1/collections'].post.requestBody.content['application/json'].schema.oneOf[0];
    expect(create.properties.address.maxLength).toBe(66);
    expect(create.properties.properties.maxItems).toBe(MAX_REQUEST_PROPERTIES);
    expect(doc.paths['/sandbox/v1/ipfs/upload-file'].post.requestBody.content['multipart/form-data']).toBeDefined();
  });
});

describe('token content', () => {
  it('refuses a javascript: image URL naming the field', async () => {
    await api.createCollection();
    const answer = await api.request('POST', '/v1/tokens?use=Build', { address: ALICE, collectionId: 1, data: { image: { url: 'javascript:alert(1)' } } });
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toMatch(/^data\.image\.url must be an http\(s\), ipfs:\/\/ or data:image URL/);
  });

  it('refuses encodedAttributes named after Object.prototype', async () => {
    await api.createCollection();
    for (const name of ['toString', 'constructor', 'hasOwnProperty', '__proto__']) {
      const body = `{"address":"${ALICE}","collectionId":1,"data":{"encodedAttributes":{"${name}":0}}}`;
      const answer = await send('/tokens?use=Build', json('POST', body));
      expect(answer.status).toBe(400);
      expect(answer.json.error.message).toContain(`data.encodedAttributes.${name}`);
    }
  });
});
