// Bounded work per request, against the Node host in a child process: a 1 MB value in every
// field position is refused with a short 4xx while other requests keep being answered; deep JSON
// is a 400; bodies are capped while streaming (413) without the host's memory growing with them;
// malformed URLs are 400s. Each describe is named after the weakness of issue 7 it covers.
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ALICE,
  BOB,
  MiB,
  ONE_MB,
  answersRead,
  api,
  buildAndSign,
  chunks,
  createCollection,
  custodial,
  expectClientError,
  expectNoEcho,
  jsonHeaders,
  residentGrowth,
  send,
  startChildHost,
  type Answer,
  type ChildHost,
  type Signed
} from './kit';

let host: ChildHost;
/** A properly signed payload of this host's chain, whose fields the tests replace one at a time. */
let signed: Signed;

/** A fresh host with collection 1 and token 1 (also after a test left the host stuck). */
async function freshHost(): Promise<void> {
  await host?.stop();
  host = await startChildHost();
  const collectionId = await createCollection(host);
  await custodial(host, 'POST', '/tokens', { address: ALICE, collectionId, data: {} });
  signed = await buildAndSign(host, 'POST', '/collections/properties', { address: ALICE, collectionId, properties: [{ key: 'k', value: 'v' }] });
}

beforeAll(freshHost, 60_000);
afterAll(() => host?.stop());
beforeEach(async () => {
  if (!(await answersRead(host, 5_000))) await freshHost();
}, 60_000);

/** `unit` repeated to one megabyte: base58 and hex digits, so a value passes any character check and reaches the decoder. */
const big = (unit: string, length = ONE_MB) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
const B58 = 'Zq'; // valid base58 characters: an SS58 decoder would take it on
const HEX = 'ab';
const DIGITS = '9';

/** Set `value` at a dotted path of a copy of `body` (array indices as numbers). */
function withField(body: unknown, path: string, value: unknown): unknown {
  const copy = structuredClone(body) as Record<string, any>;
  const keys = path.split('.');
  let at: any = copy;
  for (const key of keys.slice(0, -1)) at = at[key];
  at[keys[keys.length - 1]] = value;
  return copy;
}

/** A JSON text whose field at `path` is a bare number literal of 1M digits (JSON.parse makes Infinity of it). */
function withHugeNumberLiteral(body: unknown, path: string): string {
  const marker = '"__HUGE_NUMBER__"';
  return JSON.stringify(withField(body, path, '__HUGE_NUMBER__')).replace(marker, big(DIGITS));
}

const createBody = {
  address: ALICE,
  name: 'n',
  description: 'd',
  tokenPrefix: 'p',
  properties: [{ key: 'k', value: 'v' }],
  tokenPropertyPermissions: [{ key: 'k', permission: { mutable: true } }],
  sponsorship: { address: BOB },
  limits: { tokenLimit: 10 },
  adminList: [BOB]
};
const mintBody = { address: ALICE, collectionId: 1, owner: BOB, data: { name: 'n' }, properties: [{ key: 'k', value: 'v' }] };
const multipleBody = { address: ALICE, collectionId: 1, tokens: [{ owner: BOB, properties: [{ key: 'k', value: 'v' }] }] };
const transferBody = { address: ALICE, collectionId: 1, tokenId: 1, to: BOB, from: ALICE };
const balanceBody = { address: ALICE, destination: BOB, amount: '1' };
const buildBody = { address: ALICE, section: 'balances', method: 'transferKeepAlive', args: { dest: BOB, value: '1' } };

interface Case {
  what: string;
  method: string;
  path: string;
  /** The body (JSON-encoded unless a string). */
  body: () => unknown;
  /** The repeated unit of the 1 MB value, to find an echo of it in the answer. */
  unit: string;
  headers?: Record<string, string>;
}

const cases: Case[] = [
  // Addresses, everywhere one is taken.
  ...['address', 'sponsorship.address', 'adminList.0'].map((f) => ({ what: `create collection: ${f}`, method: 'POST', path: '/collections?use=Build', body: () => withField(createBody, f, big(B58)), unit: B58 })),
  ...['address', 'owner'].map((f) => ({ what: `mint: ${f}`, method: 'POST', path: '/tokens?use=Build', body: () => withField(mintBody, f, big(B58)), unit: B58 })),
  { what: 'create-multiple: tokens.0.owner', method: 'POST', path: '/tokens/create-multiple?use=Build', body: () => withField(multipleBody, 'tokens.0.owner', big(B58)), unit: B58 },
  ...['to', 'from'].map((f) => ({ what: `transfer token: ${f}`, method: 'PATCH', path: '/tokens/transfer?use=Build', body: () => withField(transferBody, f, big(B58)), unit: B58 })),
  ...['address', 'destination'].map((f) => ({ what: `balance transfer: ${f}`, method: 'POST', path: '/balance/transfer?use=Build', body: () => withField(balanceBody, f, big(B58)), unit: B58 })),
  { what: 'add admin: newAdmin', method: 'POST', path: '/collections/admins?use=Build', body: () => ({ address: ALICE, collectionId: 1, newAdmin: big(B58) }), unit: B58 },
  { what: 'generic build: address', method: 'POST', path: '/extrinsic/build', body: () => withField(buildBody, 'address', big(B58)), unit: B58 },
  { what: 'generic build: args.dest', method: 'POST', path: '/extrinsic/build', body: () => withField(buildBody, 'args.dest', big(B58)), unit: B58 },
  { what: 'calculate-fee: address', method: 'POST', path: '/extrinsic/calculate-fee', body: () => withField(buildBody, 'address', big(B58)), unit: B58 },
  // Names, free text, property keys and values.
  ...['name', 'description', 'tokenPrefix', 'properties.0.key', 'properties.0.value', 'tokenPropertyPermissions.0.key'].map((f) => ({
    what: `create collection: ${f}`,
    method: 'POST',
    path: '/collections?use=Build',
    body: () => withField(createBody, f, big(B58)),
    unit: B58
  })),
  { what: 'mint: data.name', method: 'POST', path: '/tokens?use=Build', body: () => withField(mintBody, 'data.name', big(B58)), unit: B58 },
  { what: 'mint: properties.0.value', method: 'POST', path: '/tokens?use=Build', body: () => withField(mintBody, 'properties.0.value', big(B58)), unit: B58 },
  { what: 'mint: a property key', method: 'POST', path: '/tokens?use=Build', body: () => withField(mintBody, 'properties.0.key', big(B58)), unit: B58 },
  { what: 'generic build: section', method: 'POST', path: '/extrinsic/build', body: () => withField(buildBody, 'section', big(B58)), unit: B58 },
  { what: 'generic build: method', method: 'POST', path: '/extrinsic/build', body: () => withField(buildBody, 'method', big(B58)), unit: B58 },
  { what: 'dev reset: rules', method: 'POST', path: '/dev/reset', body: () => ({ rules: big(B58) }), unit: B58 },
  // Numbers: as digit strings and as 1M-digit number literals.
  { what: 'balance transfer: amount as 1M digits', method: 'POST', path: '/balance/transfer?use=Build', body: () => withField(balanceBody, 'amount', big(DIGITS)), unit: DIGITS },
  { what: 'balance transfer: amount as a number literal', method: 'POST', path: '/balance/transfer?use=Build', body: () => withHugeNumberLiteral(balanceBody, 'amount'), unit: DIGITS },
  { what: 'mint: collectionId as 1M digits', method: 'POST', path: '/tokens?use=Build', body: () => withField(mintBody, 'collectionId', big(DIGITS)), unit: DIGITS },
  { what: 'create collection: limits.tokenLimit as a number literal', method: 'POST', path: '/collections?use=Build', body: () => withHugeNumberLiteral(createBody, 'limits.tokenLimit'), unit: DIGITS },
  { what: 'generic build: args.value as 1M digits', method: 'POST', path: '/extrinsic/build', body: () => withField(buildBody, 'args.value', big(DIGITS)), unit: DIGITS },
  // The signed payload: signature and every signerPayloadJSON field.
  { what: 'submit: signature', method: 'POST', path: '/extrinsic/submit', body: () => ({ ...signed, signature: `0x${big(HEX)}` }), unit: HEX },
  { what: 'submit: signerPayloadJSON.address', method: 'POST', path: '/extrinsic/submit', body: () => withField(signed, 'signerPayloadJSON.address', big(B58)), unit: B58 },
  ...['method', 'nonce', 'era', 'blockHash', 'blockNumber', 'genesisHash', 'specVersion', 'transactionVersion', 'tip'].map((f) => ({
    what: `submit: signerPayloadJSON.${f}`,
    method: 'POST',
    path: '/extrinsic/submit',
    body: () => withField(signed, `signerPayloadJSON.${f}`, `0x${big(HEX)}`),
    unit: HEX
  })),
  { what: 'submit: signerPayloadJSON.signedExtensions.0', method: 'POST', path: '/extrinsic/submit', body: () => withField(signed, 'signerPayloadJSON.signedExtensions', [big(B58)]), unit: B58 },
  { what: 'submit: signerPayloadJSON.version as a number literal', method: 'POST', path: '/extrinsic/submit', body: () => withHugeNumberLiteral(signed, 'signerPayloadJSON.version'), unit: DIGITS },
  { what: 'mutation use=Submit: signerPayloadJSON.address', method: 'POST', path: '/collections/properties?use=Submit', body: () => withField(signed, 'signerPayloadJSON.address', big(B58)), unit: B58 },
  { what: 'verify-sign: signerPayloadJSON.address', method: 'POST', path: '/extrinsic/verify-sign', body: () => withField(signed, 'signerPayloadJSON.address', big(B58)), unit: B58 },
  { what: 'decode: signerPayloadJSON.method', method: 'POST', path: '/extrinsic/decode', body: () => withField({ signerPayloadJSON: signed.signerPayloadJSON }, 'signerPayloadJSON.method', `0x${big(HEX)}`), unit: HEX },
  {
    what: 'sign (custodial): signerPayloadJSON.address',
    method: 'POST',
    path: '/extrinsic/sign',
    body: () => withField({ signerPayloadJSON: signed.signerPayloadJSON }, 'signerPayloadJSON.address', big(B58)),
    unit: B58,
    headers: { authorization: 'Seed //Alice' }
  }
];

/**
 * POST `body` to `path` over a raw socket with `Expect: 100-continue`: after the host's interim
 * 100 (its headers read), `between()` runs, then the body is sent. The final answer, or null if
 * the connection closed without one.
 */
function rawExchange(path: string, body: string, between: () => void): Promise<{ interim: string; final: Answer | null }> {
  const origin = new URL(host.origin);
  const socket = connect(Number(origin.port), origin.hostname);
  let received = Buffer.alloc(0);
  let continued = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within 20 s: ${received.toString('latin1').slice(0, 300)}`));
    }, 20_000);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (!continued && received.includes('\r\n\r\n')) {
        continued = true;
        between();
        socket.end(body);
      }
    });
    socket.on('error', () => {}); // the close below says what arrived
    socket.on('close', () => {
      clearTimeout(timer);
      const text = received.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      resolve({ interim: text.slice(0, end), final: parseResponse(text.slice(end + 4)) });
    });
    socket.write(
      [`POST ${path} HTTP/1.1`, `host: ${origin.host}`, 'content-type: application/json', 'accept: application/json', `content-length: ${Buffer.byteLength(body)}`, 'expect: 100-continue', 'connection: close', '', ''].join('\r\n')
    );
  });
}

/** One HTTP/1.1 response with a Content-Length body, or null when there is none. */
function parseResponse(text: string): Answer | null {
  const match = /^HTTP\/1\.1 (\d{3}) [^\r]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(text);
  if (!match) return null;
  const headers = Object.fromEntries(match[2].split('\r\n').map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const bodyText = match[3];
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    json = undefined;
  }
  return { status: Number(match[1]), headers, text: bodyText, json };
}

/** Send `request` and a plain read at the same time; both must be answered. */
async function withConcurrentRead(request: Promise<Answer>): Promise<Answer> {
  const read = api(host, 'GET', '/common/chain-properties');
  const [answer, other] = await Promise.all([request, read]);
  expect(other.status, 'a read sent at the same time').toBe(200);
  return answer;
}

describe('one request freezes the service: a 1 MB value in any field is refused at once', () => {
  it.each(cases)('$what', async ({ method, path, body, unit, headers }) => {
    const value = body();
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const answer = await withConcurrentRead(api(host, method, path, text, headers));
    expectClientError(answer);
    expectNoEcho(answer, unit);
    expect(answer.text.length).toBeLessThan(16 * 1024);
  });

  it('SIGTERM sent while a 1 MB address is being refused stops the host cleanly, answering the request first', async () => {
    const body = JSON.stringify(withField(createBody, 'address', big(B58)));
    // `Expect: 100-continue`: the host's 100 says it has taken the request (it is in flight, not
    // idle) before the body is sent; the stop comes between the two, so it is sent while the host
    // is busy with the request.
    const exchange = await rawExchange(`${host.basePath}/collections?use=Build`, body, () => host.child.kill('SIGTERM'));
    const code = await Promise.race([host.exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 15_000))]);
    expect(code, `the host after SIGTERM: ${host.output().slice(-500)}`).toBe(0);
    // A request in flight is finished before the host stops (server/host.ts closeServer): a 4xx, never cut off, never a 5xx.
    expect(exchange.interim).toMatch(/^HTTP\/1\.1 100 /);
    const answer = exchange.final;
    expect(answer, 'an answer before the host stopped').not.toBeNull();
    expectClientError(answer!, 400, 'ValidationError');
    expectNoEcho(answer!, B58);
  });

  // A 1 MB URL is over any HTTP server's header limit: refused (431 or 414) before the handler.
  it.each([
    ['balance address', '/balance?address=', B58],
    ['nonce address', '/common/nonce?address=', B58],
    ['extrinsic status hash', '/extrinsic/status?hash=0x', HEX],
    ['extrinsic list address', '/extrinsic/list?address=', B58],
    ['collection id', '/collections?collectionId=', DIGITS],
    ['property keys', '/tokens/properties?collectionId=1&tokenId=1&propertyKeys=', B58],
    ['account tokens address', '/tokens/account-tokens?address=', B58],
    ['allowance from', `/tokens/allowance?collectionId=1&tokenId=1&to=${BOB}&from=`, B58]
  ])('a 1 MB query string: %s', async (_what, prefix, unit) => {
    const answer = await withConcurrentRead(send(host.origin, { method: 'GET', path: host.basePath + prefix + big(unit), headers: { accept: 'application/json' } }));
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expectNoEcho(answer, unit);
    expect(answer.text.length).toBeLessThan(16 * 1024);
  });

  // Just under the URL limit the value reaches the handler: the field check refuses it, quoting little.
  it.each([
    ['balance address', '/balance?address=', B58],
    ['nonce address', '/common/nonce?address=', B58],
    ['extrinsic list address', '/extrinsic/list?address=', B58],
    ['account tokens address', '/tokens/account-tokens?address=', B58],
    ['collections owner', '/collections/list?owner=', B58],
    ['token balance address', '/tokens/balance?collectionId=1&tokenId=1&address=', B58],
    ['extrinsic status hash', '/extrinsic/status?hash=0x', HEX],
    ['collection id', '/collections?collectionId=', DIGITS],
    ['mutation nonce', '/collections?use=Build&nonce=', DIGITS]
  ])('a 12,000-character query value: %s', async (_what, prefix, unit) => {
    const isWrite = prefix.includes('use=Build');
    const answer = await withConcurrentRead(
      send(host.origin, {
        method: isWrite ? 'POST' : 'GET',
        path: host.basePath + prefix + big(unit, 12_000),
        headers: jsonHeaders(),
        body: isWrite ? JSON.stringify(createBody) : undefined
      })
    );
    expectClientError(answer, 400);
    expectNoEcho(answer, unit);
  });
});

describe('500 for client mistakes: deep JSON and malformed URLs are 400s', () => {
  const deepArray = '['.repeat(100_000) + ']'.repeat(100_000);
  const deepObject = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);

  const unsigned = () => JSON.stringify(signed.signerPayloadJSON);
  it.each<[string, string, string, () => string]>([
    ['a 100k-deep array, use=Build', 'POST', '/collections?use=Build', () => deepArray],
    ['a 100k-deep array, use=BuildBatch', 'POST', '/collections?use=BuildBatch', () => deepArray],
    ['a 100k-deep object in a field', 'POST', '/collections?use=Build', () => `{"address":"${ALICE}","name":${deepObject}}`],
    // use=Build answers an unsigned payload as it came: echoing a deep value must not overflow the stack.
    ['a 100k-deep array as signerPayloadRaw of an unsigned payload, use=Build', 'POST', '/collections/properties?use=Build', () => `{"signerPayloadJSON":${unsigned()},"signerPayloadRaw":${deepArray}}`],
    ['a 100k-deep array beside an unsigned payload, use=Build', 'POST', '/collections/properties?use=Build', () => `{"signerPayloadJSON":${unsigned()},"extra":${deepArray}}`],
    ['a 100k-deep array inside signerPayloadJSON, use=Build', 'POST', '/collections/properties?use=Build', () => `{"signerPayloadJSON":${unsigned().slice(0, -1)},"extra":${deepArray}}}`],
    ['a 100k-deep array as the signed payload', 'POST', '/extrinsic/submit', () => `{"signature":"0x00","signerPayloadJSON":${deepArray}}`],
    ['a 100k-deep array as token data', 'POST', '/tokens?use=Build', () => `{"address":"${ALICE}","collectionId":1,"data":${deepArray}}`],
    ['a 100k-deep array to dev reset', 'POST', '/dev/reset', () => deepArray],
    ['a 100k-deep array to generic build args', 'POST', '/extrinsic/build', () => `{"address":"${ALICE}","section":"balances","method":"transfer","args":{"dest":${deepArray}}}`]
  ])('%s', async (_what, method, path, body) => {
    const answer = await api(host, method, path, body());
    expectClientError(answer, 400);
    expect(await answersRead(host)).toBe(true);
  });

  it.each([
    ['GET /ipfs/%E0%A4%A (a cut UTF-8 sequence)', '/ipfs/%E0%A4%A'],
    ['GET /ipfs/%zz', '/ipfs/%zz'],
    ['GET /ipfs/%', '/ipfs/%'],
    ['%zz in a query', 'BASE/collections?collectionId=%zz'],
    ['%E0%A4%A in a query', 'BASE/extrinsic/status?hash=%E0%A4%A'],
    ['%zz in an address query', 'BASE/balance?address=%zz'],
    ['%zz in a query key', 'BASE/collections?%zz=1&collectionId=1%'],
    ['%E0%A4%A in the use mode', 'BASE/collections?use=%E0%A4%A']
  ])('%s → 400', async (_what, path) => {
    const full = path.replace('BASE', host.basePath);
    const isWrite = full.includes('use=');
    const answer = await send(host.origin, {
      method: isWrite ? 'POST' : 'GET',
      path: full,
      headers: jsonHeaders(),
      body: isWrite ? JSON.stringify(createBody) : undefined
    });
    expectClientError(answer, 400);
  });

  it.each([
    ['%zz in a route path', 'BASE/collections/%zz'],
    ['%E0%A4%A in a route path', 'BASE/%E0%A4%A/collections'],
    ['%zz as the network segment', '/%zz/v1/collections?collectionId=1']
  ])('%s → a 4xx envelope, not 500', async (_what, path) => {
    const answer = await send(host.origin, { method: 'GET', path: path.replace('BASE', host.basePath), headers: { accept: 'application/json' } });
    expectClientError(answer, [400, 404]);
  });
});

describe('no body limit: bodies are capped while streaming', () => {
  const bigJson = (bytes: number) => JSON.stringify({ address: ALICE, name: 'n', description: 'x'.repeat(bytes), tokenPrefix: 'p' });

  it('a 2 MiB JSON body with its length declared → 413', async () => {
    const answer = await api(host, 'POST', '/collections?use=Build', bigJson(2 * MiB + 1));
    expectClientError(answer, 413, 'PayloadTooLargeError');
    expect(answer.json.error.code).toBe('UN01021');
    expect(await answersRead(host)).toBe(true);
  });

  it('a 2 MiB chunked JSON body with no content-length → 413', async () => {
    const answer = await send(host.origin, { method: 'POST', path: `${host.basePath}/collections?use=Build`, headers: jsonHeaders(), body: () => chunks(2 * MiB + 1) });
    expectClientError(answer, 413, 'PayloadTooLargeError');
    expect(await answersRead(host)).toBe(true);
  });

  it('a 64 MiB chunked JSON body → 413, and the host does not hold it (resident memory grows < 64 MiB)', async () => {
    const { result, growth } = await residentGrowth(host.pid, () =>
      send(host.origin, { method: 'POST', path: `${host.basePath}/collections`, headers: jsonHeaders({ authorization: 'Seed //Alice' }), body: () => chunks(64 * MiB), timeoutMs: 60_000, sendAll: true })
    );
    expectClientError(result, 413, 'PayloadTooLargeError');
    expect(growth, `resident memory grew by ${(growth / MiB).toFixed(1)} MiB`).toBeLessThan(64 * MiB);
    expect(await answersRead(host)).toBe(true);
  }, 90_000);

  it('a 64 MiB chunked multipart upload → 413 (over the 20 MiB default), resident memory grows < 64 MiB', async () => {
    const boundary = '----opalite-hostile';
    async function* multipart(): AsyncIterable<Buffer | string> {
      yield `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
      yield* chunks(64 * MiB, 64 * 1024, 'b');
      yield `\r\n--${boundary}--\r\n`;
    }
    const { result, growth } = await residentGrowth(host.pid, () =>
      send(host.origin, { method: 'POST', path: `${host.basePath}/ipfs/upload-file`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: multipart, timeoutMs: 60_000, sendAll: true })
    );
    expectClientError(result, 413);
    expect(growth, `resident memory grew by ${(growth / MiB).toFixed(1)} MiB`).toBeLessThan(64 * MiB);
    expect(await answersRead(host)).toBe(true);
  }, 90_000);

  it('a 2 MiB upload declared by content-length over the cap is refused before it is read', async () => {
    // The host answers 413 from the header alone; the body is never sent in full.
    const answer = await send(host.origin, {
      method: 'POST',
      path: `${host.basePath}/ipfs/upload-file`,
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(64 * MiB) },
      body: () => chunks(256 * 1024)
    });
    expectClientError(answer, 413);
  });
});
