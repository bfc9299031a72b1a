// Any web page can wipe the ledger: no more. Writes a browser would send cross-site without a
// preflight (text/plain, form encodings) are refused and change nothing; CORS answers foreign
// origins nothing by default (loopback origins are allowed); a Host header other than the bound
// address (DNS rebinding) is refused. Against the Node host over real HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../../server/host';
import { startTestHost } from '../support';
import { ALICE, api, buildAndSign, createCollection, send, type Answer, type Signed } from './kit';

const EVIL = 'https://evil.example';

let running: RunningHost;
let host: { origin: string; basePath: string };
/** What must survive every attempt. */
let known: { genesisHash: string; head: number; collectionId: number; nonce: number };
/** An export of the chain before the known collection existed: importing it would remove that collection. */
let olderExport: string;
/** Signed, never submitted: a cross-site page replaying it must not get it included. */
let unsentSubmit: Signed;
let unsentCreate: Signed;

async function chainNow() {
  const status = await api(host, 'GET', '/dev/status');
  const nonce = (await api(host, 'GET', `/common/nonce?address=${ALICE}`)).json.nonce as number;
  return { genesisHash: status.json.genesisHash as string, head: status.json.head.number as number, nonce };
}

beforeAll(async () => {
  running = await startTestHost();
  const url = new URL(running.url);
  host = { origin: url.origin, basePath: url.pathname };
  olderExport = (await api(host, 'GET', '/dev/export')).text;
  const collectionId = await createCollection(host);
  unsentSubmit = await buildAndSign(host, 'POST', '/collections/properties', { address: ALICE, collectionId, properties: [{ key: 'x', value: 'y' }] });
  unsentCreate = await buildAndSign(host, 'POST', '/collections', { address: ALICE, name: 'Evil', description: 'made by another site', tokenPrefix: 'EVL' });
  known = { ...(await chainNow()), collectionId };
});
afterAll(() => running?.stop());

async function expectLedgerIntact() {
  expect(await chainNow(), 'genesis, head and nonce after the attempt').toEqual({ genesisHash: known.genesisHash, head: known.head, nonce: known.nonce });
  const collection = await api(host, 'GET', `/collections?collectionId=${known.collectionId}`);
  expect(collection.status).toBe(200);
  expect(collection.json).toMatchObject({ id: known.collectionId, name: 'Hostile' });
}

function expectRefused(res: Answer) {
  const context = `${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBeGreaterThanOrEqual(400);
  expect(res.status, context).toBeLessThan(500);
  expect(res.json?.error?.code, context).toMatch(/^UN\d{5}$/);
}

/** A write as a page on another site makes it with a form or `fetch(..., {mode: 'no-cors'})`. */
function crossSite(path: string, body: string, contentType = 'text/plain;charset=UTF-8'): Promise<Answer> {
  return send(host.origin, {
    method: 'POST',
    path: host.basePath + path,
    headers: { 'content-type': contentType, origin: EVIL, referer: `${EVIL}/page.html`, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
    body
  });
}

function multipart(field: string, content: string): { body: string; type: string } {
  const boundary = '----evil';
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    body: `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="ledger.json"\r\nContent-Type: application/json\r\n\r\n${content}\r\n--${boundary}--\r\n`
  };
}

describe('any web page can wipe the ledger: cross-site writes are refused', () => {
  beforeEach(expectLedgerIntact);

  it.each([
    ['POST /dev/reset', '/dev/reset', () => '{}'],
    ['POST /dev/reset with other rules', '/dev/reset', () => '{"rules":"unique"}'],
    ['POST /dev/import of an older export', '/dev/import', () => olderExport],
    ['POST /extrinsic/submit of a signed payload', '/extrinsic/submit', () => JSON.stringify(unsentSubmit)],
    ['POST /collections?use=Submit of a signed payload', '/collections?use=Submit', () => JSON.stringify(unsentCreate)],
    ['POST /collections/properties?use=Submit of a signed payload', '/collections/properties?use=Submit', () => JSON.stringify(unsentSubmit)],
    ['POST /dev/block-mode', '/dev/block-mode', () => '{"kind":"manual"}']
  ])('text/plain %s from https://evil.example', async (_what, path, body) => {
    expectRefused(await crossSite(path, body()));
    await expectLedgerIntact();
  });

  it.each([
    ['application/x-www-form-urlencoded', '/dev/reset', () => ({ body: 'rules=spec', type: 'application/x-www-form-urlencoded' })],
    ['application/x-www-form-urlencoded', '/extrinsic/submit', () => ({ body: encodeURIComponent(JSON.stringify(unsentSubmit)), type: 'application/x-www-form-urlencoded' })],
    ['multipart/form-data (an HTML form)', '/dev/import', () => multipart('file', olderExport)],
    ['multipart/form-data (an HTML form)', '/dev/reset', () => multipart('rules', 'spec')]
  ])('%s POST %s from https://evil.example', async (_type, path, make) => {
    const { body, type } = make();
    expectRefused(await crossSite(path, body, type));
    await expectLedgerIntact();
  });

  it('the same write as JSON from the app itself still works (the refusal is not of everything)', async () => {
    const res = await api(host, 'POST', '/extrinsic/verify-sign', unsentSubmit);
    expect(res.status).toBe(201);
    expect(res.json.isValid).toBe(true);
  });
});

describe('any web page can wipe the ledger: CORS allows loopback origins only by default', () => {
  const preflight = (origin: string, method = 'POST') =>
    send(host.origin, {
      method: 'OPTIONS',
      path: `${host.basePath}/dev/reset`,
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type' }
    });

  it('answers no access-control-allow-origin to a foreign origin', async () => {
    const pre = await preflight(EVIL);
    expect(pre.headers['access-control-allow-origin'], 'preflight').toBeUndefined();
    const read = await send(host.origin, { method: 'GET', path: `${host.basePath}/common/chain-properties`, headers: { origin: EVIL } });
    expect(read.headers['access-control-allow-origin'], 'simple GET').toBeUndefined();
  });

  it.each(['http://localhost:5173', 'http://127.0.0.1:4173'])('allows the loopback origin %s', async (origin) => {
    const pre = await preflight(origin);
    expect(pre.status).toBeLessThan(300);
    expect(pre.headers['access-control-allow-origin']).toBe(origin);
    const read = await send(host.origin, { method: 'GET', path: `${host.basePath}/common/chain-properties`, headers: { origin } });
    expect(read.headers['access-control-allow-origin']).toBe(origin);
  });

  it('answers a foreign origin’s JSON POST without access-control-allow-origin (the browser keeps the answer from the page)', async () => {
    const res = await send(host.origin, { method: 'POST', path: `${host.basePath}/extrinsic/verify-sign`, headers: { 'content-type': 'application/json', origin: EVIL }, body: JSON.stringify(unsentSubmit) });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('any web page can wipe the ledger: DNS rebinding', () => {
  const port = () => new URL(host.origin).port;

  it('refuses a read whose Host is not the bound address', async () => {
    const res = await send(host.origin, { method: 'GET', path: `${host.basePath}/common/chain-properties`, headers: { host: `evil.example:${port()}` } });
    expectRefused(res);
    expect(res.json?.genesisHash).toBeUndefined();
  });

  it('refuses a write whose Host is not the bound address, and changes nothing', async () => {
    const res = await send(host.origin, { method: 'POST', path: `${host.basePath}/dev/reset`, headers: { host: `rebound.evil.example:${port()}`, 'content-type': 'application/json' }, body: '{}' });
    expectRefused(res);
    await expectLedgerIntact();
  });

  it('answers its own Host', async () => {
    const res = await send(host.origin, { method: 'GET', path: `${host.basePath}/common/chain-properties`, headers: { host: `127.0.0.1:${port()}` } });
    expect(res.status).toBe(200);
  });
});
