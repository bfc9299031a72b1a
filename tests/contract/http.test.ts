// Raw HTTP against the Node host: the specification's literal paths, the error envelope, bad
// signatures, replays and malformed input; and what the host checks before the handler (CORS,
// cross-site writes, the Host header, declared body length) and its options.
import { hexToU8a } from '@polkadot/util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../server/host';
import { ALICE, BOB, account, custodial, http, rawRequest, startTestHost } from './support';

let host: RunningHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.stop());

function expectEnvelope(res: { status: number; body: any }, status: number, name: string, message?: RegExp) {
  expect(res.status).toBe(status);
  expect(res.body.error).toMatchObject({ name, code: expect.stringMatching(/^UN\d{5}$/) });
  // DECISIONS 2: every envelope carries all four fields.
  expect(Object.keys(res.body.error).sort()).toEqual(['code', 'details', 'message', 'name']);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.message.length).toBeGreaterThan(0);
  if (message) expect(res.body.error.message).toMatch(message);
}

async function createCollection(extra: Record<string, unknown> = {}): Promise<number> {
  const res = await custodial(host, 'POST', '/collection', { address: ALICE, name: 'Spec', description: 'Literal paths', tokenPrefix: 'SPEC', ...extra });
  expect(res.status).toBe(201);
  expect(res.body.isError).toBe(false);
  return res.body.parsed.collectionId;
}

/** Build with the client's own signature: sign the bytes of signerPayloadHex locally. */
async function buildAndSign(path: string, method: string, body: unknown, uri = '//Alice') {
  const built = await http(host, method, `${path}?use=Build`, body);
  expect(built.status).toBe(201);
  const signer = account(uri);
  const { signature } = await signer.signer.sign(built.body);
  return { signerPayloadJSON: built.body.signerPayloadJSON, signerPayloadHex: built.body.signerPayloadHex as string, signature };
}

describe('paths', () => {
  it('answers at singular and plural roots, with and without v1', async () => {
    const id = await createCollection();
    const base = host.url.replace(/\/v1$/, '');
    for (const path of [`${host.url}/collection`, `${host.url}/collections`, `${base}/collection`, `${base}/collections`]) {
      const res = await http(host, 'GET', `${path}?collectionId=${id}`);
      expect(res.status, path).toBe(200);
      expect(res.body.id).toBe(id);
    }
  });

  it('Get collection of an unknown id answers 200 null; other reads 404 or empty lists', async () => {
    const missing = await http(host, 'GET', '/collection?collectionId=9999');
    expect(missing.status).toBe(200);
    expect(missing.body).toBeNull();
    expectEnvelope(await http(host, 'GET', '/collections/limits?collectionId=9999'), 404, 'CollectionNotFoundError', /Collection not found/);
    expect((await http(host, 'GET', '/collections/properties?collectionId=9999')).body).toEqual({ properties: [] });
    expect((await http(host, 'GET', '/collection/property-permissions?collectionId=9999')).body).toEqual({ propertyPermissions: [] });
    expect((await http(host, 'GET', '/collections/admins?collectionId=9999')).body).toEqual({ admins: [] });
    expectEnvelope(await http(host, 'GET', '/token?collectionId=9999&tokenId=1'), 404, 'CollectionNotFoundError', /Collection not found/);
  });

  it('accepts the three array forms for propertyKeys', async () => {
    const id = await createCollection({ properties: [{ key: 'a', value: '1' }, { key: 'b', value: '2' }] });
    const keys = (res: { body: any }) => res.body.properties.map((p: { key: string }) => p.key);
    expect(keys(await http(host, 'GET', `/collections/properties?collectionId=${id}&propertyKeys[]=a&propertyKeys[]=b`))).toEqual(['a', 'b']);
    expect(keys(await http(host, 'GET', `/collections/properties?collectionId=${id}&propertyKeys=b&propertyKeys=a`))).toEqual(['b', 'a']);
    expect(keys(await http(host, 'GET', `/collections/properties?collectionId=${id}&propertyKeys=a`))).toEqual(['a']);
  });

  it('serves an OpenAPI 3 document generated from the routes', async () => {
    const doc = await http(host, 'GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/sandbox/v1/collections', '/sandbox/v1/tokens/nest', '/sandbox/v1/extrinsic/submit']));
    const params = doc.body.paths['/sandbox/v1/collections/limits'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toContain('collectionId');
  });

  it('answers an unknown route with 404 in the envelope', async () => {
    expectEnvelope(await http(host, 'GET', '/no/such/route'), 404, 'NotFoundError');
  });
});

describe('malformed input', () => {
  it('rejects bad ids with a ValidationError', async () => {
    for (const bad of ['foo', '0', '-1', '1.5']) {
      expectEnvelope(await http(host, 'GET', `/collections/limits?collectionId=${bad}`), 400, 'ValidationError', /collectionId/);
    }
  });

  it('rejects bad JSON, wrong content type and unknown use', async () => {
    expectEnvelope(await http(host, 'POST', '/collections', '{"address":', {}), 400, 'ValidationError', /JSON/);
    expectEnvelope(await http(host, 'POST', '/collections', 'x', { 'content-type': 'text/html' }), 400, 'ValidationError', /Content-type/);
    expectEnvelope(await http(host, 'POST', '/collections?use=Explode', { address: ALICE }), 400, 'ValidationError', /use/);
  });

  it('rejects a bad address and missing fields', async () => {
    expectEnvelope(await http(host, 'POST', '/collections', { address: 'nobody', name: 'x', description: 'y', tokenPrefix: 'z' }), 400, 'ValidationError', /Invalid address/);
    expectEnvelope(await http(host, 'POST', '/token', { address: ALICE }), 400, 'ValidationError', /collectionId/);
  });

  it('checks at build that the collection and token exist', async () => {
    expectEnvelope(await http(host, 'POST', '/token?use=Build', { address: ALICE, collectionId: 9999, data: {} }), 400, 'CollectionNotFoundError');
    const id = await createCollection();
    expectEnvelope(await http(host, 'PATCH', '/token/transfer?use=Build', { address: ALICE, collectionId: id, tokenId: 77, to: BOB }), 400, 'NotFoundError', /Token not found/);
  });

  it('refuses an Authorization header that is not a seed, without echoing it', async () => {
    const res = await http(host, 'POST', '/collections?use=Sign', { address: ALICE, name: 'x', description: 'y', tokenPrefix: 'z' }, { authorization: 'Bearer secret-token' });
    expectEnvelope(res, 400, 'ValidationError', /authorization/i);
    const bad = await http(host, 'POST', '/collections?use=Sign', { address: ALICE, name: 'x', description: 'y', tokenPrefix: 'z' }, { authorization: 'Seed not a real phrase at all' });
    expectEnvelope(bad, 400, 'ValidationError');
    expect(JSON.stringify(bad.body)).not.toContain('not a real phrase');
  });
});

describe('signatures and replay', () => {
  it('submits a locally signed payload once, and refuses the replay', async () => {
    const id = await createCollection();
    const signed = await buildAndSign('/collections/properties', 'POST', { address: ALICE, collectionId: id, properties: [{ key: 'x', value: 'y' }] });
    const first = await http(host, 'POST', '/extrinsic/submit', { signerPayloadJSON: signed.signerPayloadJSON, signature: signed.signature });
    expect(first.status).toBe(201);
    expect(first.body.hash).toMatch(/^0x[0-9a-f]{64}$/);
    const status = await http(host, 'GET', `/extrinsic/status?hash=${first.body.hash}`);
    expect(status.body).toMatchObject({ status: 'InBlock', isCompleted: true, isError: false, parsed: { properties: [{ collectionId: id, propertyKey: 'x' }] } });
    expect(status.body.fee).toMatchObject({ unit: 'OPL', decimals: 18 });
    const replay = await http(host, 'POST', '/extrinsic/submit', { signerPayloadJSON: signed.signerPayloadJSON, signature: signed.signature });
    expectEnvelope(replay, 400, 'SubmitExtrinsicError', /outdated|nonce|already imported/i);
  });

  it('refuses a signature by another key and a tampered payload', async () => {
    const id = await createCollection();
    const body = { address: ALICE, collectionId: id, properties: [{ key: 'x', value: 'y' }] };
    const byBob = await buildAndSign('/collections/properties', 'POST', body, '//Bob');
    expectEnvelope(await http(host, 'POST', '/extrinsic/submit', { signerPayloadJSON: byBob.signerPayloadJSON, signature: byBob.signature }), 400, 'BadSignatureError');
    const good = await buildAndSign('/collections/properties', 'POST', body);
    const tampered = { ...good.signerPayloadJSON, nonce: '0x000000ff' };
    expectEnvelope(await http(host, 'POST', '/extrinsic/submit', { signerPayloadJSON: tampered, signature: good.signature }), 400, 'BadSignatureError');
    expectEnvelope(await http(host, 'POST', '/extrinsic/submit', { signerPayloadJSON: good.signerPayloadJSON, signature: '0x01' + '00'.repeat(10) }), 400, 'BadSignatureError');
    const badMethod = { ...good.signerPayloadJSON, method: '0xffff' };
    expectEnvelope(await http(host, 'POST', '/extrinsic/submit', { signerPayloadJSON: badMethod, signature: good.signature }), 400, 'BadPayloadError');
  });

  it('verifies a signature over the payload the service rebuilt', async () => {
    const id = await createCollection();
    const signed = await buildAndSign('/collections/properties', 'POST', { address: ALICE, collectionId: id, properties: [{ key: 'v', value: 'w' }] });
    expect(hexToU8a(signed.signerPayloadHex).length).toBeLessThanOrEqual(256);
    const ok = await http(host, 'POST', '/extrinsic/verify-sign', { signerPayloadJSON: signed.signerPayloadJSON, signature: signed.signature });
    expect(ok.body).toEqual({ isValid: true, errorMessage: null });
  });

  it('quotes the fee of a signed body only when its signature verifies (use=GetFee and /extrinsic/calculate-fee)', async () => {
    const id = await createCollection();
    const signed = await buildAndSign('/collections/properties', 'POST', { address: ALICE, collectionId: id, properties: [{ key: 'v', value: 'w' }] });
    const good = { signerPayloadJSON: signed.signerPayloadJSON, signature: signed.signature };
    const forged = { ...good, signature: `0x01${'00'.repeat(64)}` };
    expect((await http(host, 'POST', '/collections/properties?use=GetFee', good)).body.fee.raw).toMatch(/^\d+$/);
    expect((await http(host, 'POST', '/extrinsic/calculate-fee', good)).body.raw).toMatch(/^\d+$/);
    expectEnvelope(await http(host, 'POST', '/collections/properties?use=GetFee', forged), 400, 'BadSignatureError');
    expectEnvelope(await http(host, 'POST', '/extrinsic/calculate-fee', forged), 400, 'BadSignatureError');
    // A signature that is none is refused, not skipped.
    expectEnvelope(await http(host, 'POST', '/extrinsic/calculate-fee', { ...good, signature: 'not hex' }), 400, 'ValidationError', /signature/);
    // Without a signature it is a quote of the payload, as before.
    expect((await http(host, 'POST', '/extrinsic/calculate-fee', { signerPayloadJSON: signed.signerPayloadJSON })).body.raw).toMatch(/^\d+$/);
  });

  it('/extrinsic/build takes `era`, the mortal period in blocks (rounded up to a power of two), and isImmortal', async () => {
    const call = { address: ALICE, section: 'balances', method: 'transferKeepAlive', args: { dest: BOB, value: '1' } };
    const periodOf = (era: string) => 2 << (Number.parseInt(era.slice(4, 6) + era.slice(2, 4), 16) % 16);
    const build = (extra: object) => http(host, 'POST', '/extrinsic/build', { ...call, ...extra });
    expect(periodOf((await build({})).body.signerPayloadJSON.era)).toBe(1024);
    expect(periodOf((await build({ era: 64 })).body.signerPayloadJSON.era)).toBe(64);
    expect(periodOf((await build({ era: 100 })).body.signerPayloadJSON.era)).toBe(128);
    expect(periodOf((await build({ era: 0 })).body.signerPayloadJSON.era)).toBe(1024);
    expect((await build({ isImmortal: true })).body.signerPayloadJSON.era).toBe('0x00');
    expectEnvelope(await build({ era: 70_000 }), 400, 'ValidationError', /era/);
    expectEnvelope(await build({ era: -1 }), 400, 'ValidationError', /era/);
    for (const era of [null, true, '64', 1.5]) expectEnvelope(await build({ era }), 400, 'ValidationError', /era/);
  });

  it('a failed dispatch charges the fee, advances the nonce and changes nothing else', async () => {
    const id = await createCollection();
    const nonceBefore = (await http(host, 'GET', `/common/nonce?address=${BOB}`)).body.nonce;
    const balanceBefore = BigInt((await http(host, 'GET', `/balance?address=${BOB}`)).body.freeBalance.raw);
    const res = await custodial(host, 'POST', '/collections/properties', { address: BOB, collectionId: id, properties: [{ key: 'hack', value: '1' }] }, '//Bob');
    expect(res.status).toBe(201);
    expect(res.body.isError).toBe(true);
    expect(res.body.error).toMatchObject({ message: 'Signer is not Collection Owner or Collection Admin', details: { section: 'common', name: 'NoPermission' } });
    expect((await http(host, 'GET', `/common/nonce?address=${BOB}`)).body.nonce).toBe(nonceBefore + 1);
    expect(BigInt((await http(host, 'GET', `/balance?address=${BOB}`)).body.freeBalance.raw)).toBeLessThan(balanceBefore);
    expect((await http(host, 'GET', `/collections/properties?collectionId=${id}&propertyKeys=hack`)).body.properties).toEqual([]);
  });

  it('verify=true reports the chain error at build time', async () => {
    const id = await createCollection();
    const res = await http(host, 'POST', '/collections/set-limits?use=Build&verify=true', { address: BOB, collectionId: id, limits: { tokenLimit: 3 } });
    expectEnvelope(res, 400, 'VerificationFailedError', /Signer is not Collection Owner/);
  });

  it('withFee adds a fee object to Build', async () => {
    const id = await createCollection();
    const res = await http(host, 'PATCH', '/collections/transfer?use=Build&withFee=true', { address: ALICE, collectionId: id, to: BOB });
    expect(res.body.fee).toMatchObject({ unit: 'OPL', decimals: 18, raw: expect.stringMatching(/^\d+$/) });
  });

  it('unknown extrinsic hash is a 404', async () => {
    expectEnvelope(await http(host, 'GET', `/extrinsic/status?hash=0x${'ab'.repeat(32)}`), 404, 'NotFoundError');
  });
});

describe('CORS: loopback pages by default', () => {
  const preflight = (origin: string) =>
    fetch(`${host.url}/collections`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' }
    });

  it.each(['http://localhost:5173', 'http://127.0.0.1:4173', 'http://[::1]:8080', 'http://localhost'])('answers a preflight from %s, echoing the origin', async (origin) => {
    const res = await preflight(origin);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-headers')).toContain('content-type');
    expect(res.headers.get('vary')).toMatch(/origin/i);
    const read = await fetch(`${host.url}/common/chain-properties`, { headers: { origin } });
    expect(read.headers.get('access-control-allow-origin')).toBe(origin);
    expect(read.headers.get('vary')).toMatch(/origin/i);
  });

  it.each(['https://evil.example', 'http://localhost.evil.example:3000', 'null', 'https://localhost:5173'])('gives %s no allow headers', async (origin) => {
    const res = await preflight(origin);
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
    const read = await fetch(`${host.url}/common/chain-properties`, { headers: { origin } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a cross-site text/plain POST /dev/reset before the handler, and the ledger is intact', async () => {
    const id = await createCollection();
    const before = (await http(host, 'GET', '/dev/status')).body;
    const res = await http(host, 'POST', '/dev/reset', '{}', { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://evil.example' });
    expectEnvelope(res, 403, 'ValidationError', /https:\/\/evil\.example.*--cors/);
    const after = (await http(host, 'GET', '/dev/status')).body;
    expect(after.genesisHash).toBe(before.genesisHash);
    expect(after.head).toEqual(before.head);
    expect((await http(host, 'GET', `/collections?collectionId=${id}`)).body).toMatchObject({ id });
  });

  it('refuses a cross-site JSON write too (the origin decides, not the content type)', async () => {
    const res = await http(host, 'POST', '/dev/block-mode', { kind: 'manual' }, { origin: 'https://evil.example' });
    expectEnvelope(res, 403, 'ValidationError');
    expect((await http(host, 'GET', '/dev/status')).body.blockMode).toEqual({ kind: 'instant' });
  });

  it('refuses a write a browser marks as from another site even without an Origin (Sec-Fetch-Site); a same-origin or direct one passes', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const res = await http(host, 'POST', '/dev/block-mode', { kind: 'manual' }, { 'sec-fetch-site': site });
      expectEnvelope(res, 403, 'ValidationError', new RegExp(`Sec-Fetch-Site: ${site}`));
    }
    expect((await http(host, 'GET', '/dev/status')).body.blockMode).toEqual({ kind: 'instant' });
    for (const site of ['same-origin', 'none']) {
      expect((await http(host, 'POST', '/extrinsic/verify-sign', { signerPayloadJSON: {}, signature: '0x00' }, { 'sec-fetch-site': site })).status).not.toBe(403);
    }
  });

  it('takes a write from a loopback page', async () => {
    const res = await http(host, 'POST', '/extrinsic/verify-sign', { signerPayloadJSON: {}, signature: '0x00' }, { origin: 'http://localhost:5173' });
    expect(res.status).not.toBe(403);
  });
});

describe('Host header (DNS rebinding)', () => {
  const port = () => new URL(host.url).port;

  it.each(['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io'])('refuses Host %s with 421 in the envelope', async (name) => {
    const res = await rawRequest(host, { method: 'GET', path: '/common/chain-properties', headers: { host: `${name}:${port()}` } });
    expect(res.status).toBe(421);
    expect(res.json.error).toMatchObject({ name: 'ValidationError', code: 'UN01004' });
    expect(res.json.error.message).toContain(name);
    expect(res.json.genesisHash).toBeUndefined();
  });

  it('refuses the right name on another port', async () => {
    const res = await rawRequest(host, { method: 'GET', path: '/common/chain-properties', headers: { host: `localhost:${Number(port()) + 1}` } });
    expect(res.status).toBe(421);
  });

  it.each(['127.0.0.1', 'localhost', '[::1]'])('answers Host %s with its port', async (name) => {
    const res = await rawRequest(host, { method: 'GET', path: '/common/chain-properties', headers: { host: `${name}:${port()}` } });
    expect(res.status).toBe(200);
    expect(res.json.genesisHash).toMatch(/^0x/);
  });
});

describe('body limit', () => {
  it('refuses a declared Content-Length over the JSON cap with 413 before any of the body is sent', async () => {
    const res = await rawRequest(host, {
      method: 'POST',
      path: '/collections',
      headers: { 'content-type': 'application/json', 'content-length': String(300 * 1024 * 1024) },
      sendBody: false
    });
    expect(res.status).toBe(413);
    expect(res.json.error).toMatchObject({ name: 'PayloadTooLargeError', code: 'UN01021', details: { maxBytes: 1024 * 1024 } });
    expect(res.headers.connection).toBe('close');
  });

  it('refuses an upload over the upload cap the same way', async () => {
    const res = await rawRequest(host, {
      method: 'POST',
      path: '/ipfs/upload-file',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(21 * 1024 * 1024) },
      sendBody: false
    });
    expect(res.status).toBe(413);
    expect(res.json.error).toMatchObject({ name: 'PayloadTooLargeError', details: { maxBytes: 20 * 1024 * 1024 } });
  });

  it('answers a URL over 16 KiB with 431 in the envelope, not a reset connection', async () => {
    const res = await rawRequest(host, { method: 'GET', path: `/common/nonce?address=${'5'.repeat(20_000)}` });
    expect(res.status).toBe(431);
    expect(res.json.error).toMatchObject({ name: 'ValidationError', code: 'UN01004', details: { maxBytes: 16 * 1024 } });
    expect(res.text.length).toBeLessThan(1024);
  });

  it('takes a body under the cap', async () => {
    const res = await rawRequest(host, { method: 'POST', path: '/collections?use=Build', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address: ALICE, name: 'x', description: 'y', tokenPrefix: 'z' }) });
    expect(res.status).toBe(201);
  });
});

describe('host options', () => {
  let other: RunningHost | undefined;
  afterEach(async () => {
    await other?.stop();
    other = undefined;
  });

  it('--cors replaces the loopback default', async () => {
    other = await startTestHost({ cors: 'https://app.example, http://tools.test:*' });
    for (const origin of ['https://app.example', 'http://tools.test:9000']) {
      const res = await fetch(`${other.url}/collections`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      expect(res.status, origin).toBe(204);
      expect(res.headers.get('access-control-allow-origin'), origin).toBe(origin);
    }
    const loopback = await fetch(`${other.url}/collections`, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } });
    expect(loopback.headers.get('access-control-allow-origin')).toBeNull();
    expectEnvelope(await http(other, 'POST', '/dev/reset', {}, { origin: 'http://localhost:5173' }), 403, 'ValidationError');
  });

  it('--cors * allows every origin, explicitly', async () => {
    other = await startTestHost({ cors: '*' });
    const res = await fetch(`${other.url}/common/chain-properties`, { headers: { origin: 'https://anywhere.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses a malformed --cors list', async () => {
    await expect(startTestHost({ cors: 'localhost:5173' })).rejects.toThrow(/--cors: "localhost:5173" is not an origin/);
    await expect(startTestHost({ cors: 'https://a.example/path' })).rejects.toThrow(/no path/);
  });

  it('--allow-host adds a name', async () => {
    other = await startTestHost({ allowHosts: ['opalite.test'] });
    const port = new URL(other.url).port;
    expect((await rawRequest(other, { method: 'GET', path: '/common/chain-properties', headers: { host: `opalite.test:${port}` } })).status).toBe(200);
    expect((await rawRequest(other, { method: 'GET', path: '/common/chain-properties', headers: { host: `other.test:${port}` } })).status).toBe(421);
  });

  it('--max-upload sets the upload cap, for ledger imports too, and the OpenAPI document states it', async () => {
    other = await startTestHost({ maxUploadBytes: 1000 });
    const doc = await http(other, 'GET', '/openapi.json');
    expect(doc.body.info['x-opalite-limits']).toMatchObject({ maxUploadBytes: 1000 });
    const exported = await fetch(`${other.url}/dev/export`).then((r) => r.text());
    expect(exported.length).toBeGreaterThan(1000);
    expectEnvelope(await http(other, 'POST', '/dev/import', exported), 413, 'PayloadTooLargeError');
    const big = new FormData();
    big.set('file', new Blob([new Uint8Array(5000)]), 'big.bin');
    const refused = await fetch(`${other.url}/ipfs/upload-file`, { method: 'POST', body: big });
    expect(refused.status).toBe(413);
    expect((await refused.json()).error).toMatchObject({ name: 'PayloadTooLargeError', details: { maxBytes: 1000 } });
    const small = new FormData();
    small.set('file', new Blob([new Uint8Array(500)]), 'small.bin');
    expect((await fetch(`${other.url}/ipfs/upload-file`, { method: 'POST', body: small })).status).toBe(201);
  });
});
