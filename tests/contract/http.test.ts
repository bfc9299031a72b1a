// Raw HTTP against the Node host: the specification's literal paths, the error envelope, bad
// signatures, replays and malformed input.
import { hexToU8a } from '@polkadot/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../server/host';
import { ALICE, BOB, account, custodial, http, startTestHost } from './support';

let host: RunningHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.stop());

function expectEnvelope(res: { status: number; body: any }, status: number, name: string, message?: RegExp) {
  expect(res.status).toBe(status);
  expect(res.body.error).toMatchObject({ name, code: expect.stringMatching(/^UN\d{5}$/) });
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
    expectEnvelope(await http(host, 'GET', '/token?collectionId=9999&tokenId=1'), 404, 'NotFoundError');
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
    expectEnvelope(replay, 400, 'SubmitExtrinsicError', /outdated|nonce/);
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

describe('CORS', () => {
  it('answers preflight and marks responses for pages of other origins', async () => {
    const preflight = await fetch(`${host.url}/collections`, {
      method: 'OPTIONS',
      headers: { origin: 'http://example.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' }
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type');
    const read = await fetch(`${host.url}/common/chain-properties`, { headers: { origin: 'http://example.test' } });
    expect(read.headers.get('access-control-allow-origin')).toBe('*');
  });
});
