// A fast-check fuzz of every route and method of the route table against the Node host (in a
// child process, over real HTTP): at least 10,000 requests a run, 16 in flight, small bodies. Every
// answer is below 500, every 4xx is the error envelope with a short message that quotes at most
// ~120 characters of any input, and the host still answers a read afterwards.
//
//   OPALITE_FUZZ_SEED=<n>       replay a run (the seed is printed)
//   OPALITE_FUZZ_REQUESTS=<n>   more (or fewer) requests
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathSpellings } from '../../../src/lib/api/handler';
import { allRoutes } from '../../../src/lib/api/routes/index';
import { ALICE, BOB, MAX_ECHO_CHARS, MAX_MESSAGE_CHARS, answersRead, buildAndSign, createCollection, custodial, send, startChildHost, type Answer, type ChildHost, type Signed } from './kit';

const SEED = process.env.OPALITE_FUZZ_SEED ? Number(process.env.OPALITE_FUZZ_SEED) : Date.now() % 2 ** 31;
const REQUESTS = Number(process.env.OPALITE_FUZZ_REQUESTS ?? 10_000);
const BATCH = 100;
const IN_FLIGHT = 16;
/** No answer to these small requests (bodies of at most a few KB) needs more. */
const MAX_ANSWER_CHARS = 256 * 1024;
/** Inputs at least this long are watched for echoes. */
const LONG = 150;

let host: ChildHost;
let signed: Signed;
/** Method and path (below the origin) of every route the host serves. */
let endpoints: { method: string; path: string }[] = [];

beforeAll(async () => {
  host = await startChildHost();
  const collectionId = await createCollection(host);
  await custodial(host, 'POST', '/tokens', { address: ALICE, collectionId, data: {} });
  signed = await buildAndSign(host, 'POST', '/collections/properties', { address: ALICE, collectionId, properties: [{ key: 'k', value: 'v' }] });
  const network = host.basePath.split('/')[1];
  const fromTable = allRoutes().flatMap((route) => pathSpellings(route).map((p) => ({ method: route.method, path: `/${network}${p}` })));
  // Routes a host adds to the table (dev tools, uploads) are in its OpenAPI document.
  const doc = (await send(host.origin, { method: 'GET', path: `${host.basePath}/openapi.json` })).json;
  const fromDocument = Object.entries<Record<string, unknown>>(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path })));
  const seen = new Set<string>();
  endpoints = [...fromTable, ...fromDocument, { method: 'GET', path: '/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy' }].filter((e) => {
    const key = `${e.method} ${e.path}`;
    return !seen.has(key) && seen.add(key);
  });
}, 60_000);
afterAll(() => host?.stop());

// ---- what a hostile client sends --------------------------------------------------------------

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Inputs long enough that an echo of them would be noticed. */
  long: string[];
}

const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz123456789';
/** A long alphanumeric string (so JSON escaping cannot hide an echo of it). */
const longText = fc.string({ unit: fc.constantFrom(...ALNUM), minLength: LONG, maxLength: 2_000 });
const hexKey = '0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d';

const scalar: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(ALICE, BOB, hexKey, hexKey.toUpperCase().replace('0X', '0x'), '0x' + 'ab'.repeat(20), '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQ') },
  { weight: 3, arbitrary: fc.constantFrom('0', '1', '-1', '1.5', '1e309', 'NaN', 'Infinity', '4294967296', '340282366920938463463374607431768211456', '0x', '0x0') },
  { weight: 2, arbitrary: fc.integer({ min: 20, max: 400 }).map((n) => '9'.repeat(n)) },
  { weight: 2, arbitrary: fc.constantFrom('Build', 'BuildBatch', 'BuildSequence', 'Sign', 'Submit', 'SubmitWatch', 'Result', 'GetFee', 'true', 'false', 'spec', 'unique', 'NFT') },
  { weight: 2, arbitrary: fc.constantFrom('toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf', 'javascript:alert(1)', 'ipfs://x', 'https://evil.example/x.png') },
  { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 2, arbitrary: longText }
);

const FIELD_NAMES = [
  'address', 'collectionId', 'tokenId', 'name', 'description', 'tokenPrefix', 'mode', 'decimals', 'owner', 'to', 'from', 'destination', 'amount',
  'newAdmin', 'admin', 'newSponsor', 'properties', 'propertyKeys', 'tokenPropertyPermissions', 'propertyPermissions', 'limits', 'permissions',
  'sponsorship', 'schema', 'data', 'tokens', 'isEnabled', 'section', 'method', 'args', 'nonce', 'isImmortal', 'signature', 'signerPayloadJSON',
  'signerPayloadHex', 'rules', 'parent', 'nested', 'value', 'spender', 'adminList', '__proto__', 'constructor', 'toString'
];

/** A JSON value made of the scalars above, small and at most four levels deep. */
const jsonish: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'jsonish' },
    { weight: 5, arbitrary: scalar },
    { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null)) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4, depthIdentifier: 'jsonish' }) },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...FIELD_NAMES, 'key', 'value', 'permission', 'mutable'), tie('value'), { maxKeys: 4, depthIdentifier: 'jsonish' }) }
  )
})).value;

/** A body shaped like the routes' own: known field names, hostile values. */
const fieldBody = fc.dictionary(fc.constantFrom(...FIELD_NAMES), jsonish, { maxKeys: 6 });

/** The real signed payload of this chain with some of its fields replaced. */
const tamperedSigned = fc
  .tuple(fc.dictionary(fc.constantFrom('address', 'blockHash', 'blockNumber', 'era', 'genesisHash', 'method', 'nonce', 'signedExtensions', 'specVersion', 'tip', 'transactionVersion', 'version'), jsonish, { maxKeys: 3 }), fc.option(jsonish))
  .map(([fields, signature]) => ({ signerPayloadJSON: { ...signed.signerPayloadJSON, ...fields }, signature: signature ?? signed.signature }));

const bodyText: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 4, arbitrary: fieldBody.map((b) => JSON.stringify(b)) },
  { weight: 2, arbitrary: tamperedSigned.map((b) => JSON.stringify(b)) },
  { weight: 1, arbitrary: fc.array(fieldBody, { maxLength: 4 }).map((b) => JSON.stringify(b)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 1, arbitrary: fc.constantFrom('{', '{"address":', '[1,2', 'nul', '', ' ', '{"a":1}{"b":2}', '\u0000', '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc\r\n--x--\r\n') },
  { weight: 1, arbitrary: fc.string({ maxLength: 64 }) },
  { weight: 1, arbitrary: longText }
);

const BAD_PERCENT = ['%', '%zz', '%E0%A4%A', '%FF', '%00', '%C0%AF', '%%', '%u0041'];

/** A query value, percent-encoded, or raw bad percent-encoding. */
const queryValue = fc.oneof({ weight: 6, arbitrary: scalar.map(encode) }, { weight: 1, arbitrary: fc.constantFrom(...BAD_PERCENT) });

function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80'; // a lone surrogate cannot be encoded: send its malformed UTF-8 instead
  }
}

const QUERY_KEYS = ['collectionId', 'tokenId', 'address', 'hash', 'use', 'withFee', 'verify', 'nonce', 'propertyKeys', 'propertyKeys[]', 'owner', 'limit', 'before', 'at', 'blockHashAt', 'from', 'to', 'account'];
const query = fc.array(fc.tuple(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...QUERY_KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }).map(encode) }), queryValue), { maxLength: 4 }).map((pairs) =>
  pairs.length === 0 ? '' : '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&')
);

const METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS'];

/** A path: a real route's, one with a junk tail, or an /ipfs path. */
const path = () =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...endpoints) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...endpoints), fc.oneof(fc.constantFrom(...BAD_PERCENT), fc.string({ maxLength: 10 }).map(encode))).map(([e, tail]) => ({ method: e.method, path: `${e.path}/${tail}` })) },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...BAD_PERCENT), scalar.map(encode)).map((tail) => ({ method: 'GET', path: `/ipfs/${tail}` })) }
  );

const headers = fc.record(
  {
    'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'text/plain;charset=UTF-8', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/jsonx', ''),
    authorization: fc.constantFrom('Seed //Alice', 'Seed //Bob', 'Seed not a seed', 'Bearer x', 'Seed '),
    accept: fc.constantFrom('application/json', '*/*')
  },
  { requiredKeys: ['accept'] }
);

const request = (): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      route: path(),
      method: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      query,
      headers,
      body: bodyText
    })
    .map(({ route, method, query, headers, body }) => {
      const m = method ?? route.method;
      const sent = m === 'GET' || m === 'HEAD' ? undefined : body;
      const long = [...(sent?.match(new RegExp(`[${ALNUM}]{${LONG},}`, 'g')) ?? []), ...(query.match(new RegExp(`[${ALNUM}]{${LONG},}`, 'g')) ?? [])];
      const r: FuzzRequest = { method: m, path: route.path + query, headers: Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== '')), body: sent, long };
      // fast-check prints a failing batch with this: the request, not its megabytes.
      return Object.assign(r, { [fc.toStringMethod]: () => describeRequest(r) });
    });

function describeRequest(r: FuzzRequest): string {
  const body = r.body === undefined ? '' : ` body(${r.body.length}) ${JSON.stringify(r.body.slice(0, 160))}`;
  return `${r.method} ${r.path.slice(0, 200)} ${JSON.stringify(r.headers)}${body}`;
}

// ---- what every answer must be --------------------------------------------------------------

/** Why this answer breaks the contract, or null. */
function violation(r: FuzzRequest, res: Answer): string | null {
  if (!Number.isInteger(res.status) || res.status < 100 || res.status > 599) return `not an HTTP status: ${res.status}`;
  if (res.status >= 500) return `${res.status} ${res.text.slice(0, 300)}`;
  if (res.text.length > MAX_ANSWER_CHARS) return `${res.status} with a ${res.text.length}-character answer to a small request`;
  if (res.status < 400 || r.method === 'HEAD') return null;
  const error = res.json?.error;
  if (!error || typeof error.code !== 'string' || !/^UN\d{5}$/.test(error.code) || typeof error.name !== 'string' || typeof error.message !== 'string') {
    return `${res.status} without the error envelope: ${res.text.slice(0, 300)}`;
  }
  if (error.message.length > MAX_MESSAGE_CHARS) return `${res.status} with a ${error.message.length}-character message`;
  for (const input of r.long) {
    for (let at = 0; at + MAX_ECHO_CHARS <= input.length; at += 10) {
      if (res.text.includes(input.slice(at, at + MAX_ECHO_CHARS))) return `${res.status} quotes more than ${MAX_ECHO_CHARS} characters of a ${input.length}-character input`;
    }
  }
  return null;
}

/** BATCH requests; printed by fast-check as a count (the failures are listed in the error). */
const batchOf = (item: fc.Arbitrary<FuzzRequest>) =>
  fc.array(item, { minLength: BATCH, maxLength: BATCH }).map((batch) => Object.assign(batch, { [fc.toStringMethod]: () => `[${batch.length} requests]` }));

async function inFlight<T>(items: T[], width: number, job: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await job(items[next++]);
  }));
}

describe('500 for client mistakes: fuzz of every route and method', () => {
  it(`answers ${REQUESTS} hostile requests below 500, 4xx in the envelope, and keeps answering`, async () => {
    console.log(`[fuzz] seed ${SEED}: ${REQUESTS} requests over ${endpoints.length} routes (replay with OPALITE_FUZZ_SEED=${SEED})`);
    let sent = 0;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(batchOf(request()), async (batch) => {
        const failures: string[] = [];
        await inFlight(batch, IN_FLIGHT, async (r) => {
          let res: Answer;
          try {
            res = await send(host.origin, { method: r.method, path: r.path, headers: r.headers, body: r.body, timeoutMs: 15_000 });
          } catch (error) {
            failures.push(`${describeRequest(r)}\n    → no answer: ${(error as Error).message}`);
            return;
          }
          sent++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const why = violation(r, res);
          if (why) failures.push(`${describeRequest(r)}\n    → ${why}`);
        });
        if (failures.length > 0) {
          throw new Error(`${failures.length} of ${batch.length} answers break the contract (seed ${SEED}):\n  ${failures.slice(0, 8).join('\n  ')}\nhost output (tail): ${host.output().slice(-1500)}`);
        }
      }),
      { seed: SEED, numRuns: Math.ceil(REQUESTS / BATCH), endOnFailure: true }
    );
    console.log(`[fuzz] ${sent} answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
    expect(sent).toBeGreaterThanOrEqual(REQUESTS);
    expect(await answersRead(host)).toBe(true);
  }, 180_000);
});
