// Regressions of issue 7 that a friendly client never meets, over HTTP against the Node host:
// PATCH and DELETE answer 201 (DECISIONS: POST 201, GET/PATCH/DELETE 200); names from
// Object.prototype pass the attribute check; `javascript:` image URLs are accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../../server/host';
import { startTestHost } from '../support';
import { ALICE, BOB, api, createCollection, custodial, expectClientError } from './kit';

let running: RunningHost;
let host: { origin: string; basePath: string };
let collectionId: number;

beforeAll(async () => {
  running = await startTestHost();
  const url = new URL(running.url);
  host = { origin: url.origin, basePath: url.pathname };
  collectionId = await createCollection(host, {
    schema: {
      schemaName: 'unique',
      schemaVersion: '1.0.0',
      coverPicture: { ipfsCid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy' },
      image: { urlTemplate: 'https://example.com/{infix}' },
      attributesSchemaVersion: '1.0.0',
      attributesSchema: { '0': { name: { _: 'colour' }, type: 'string', optional: true, enumValues: { '0': { _: 'red' }, '1': { _: 'blue' } } } }
    }
  });
});
afterAll(() => running?.stop());

const mintWith = async (data: Record<string, unknown>) => custodial(host, 'POST', '/tokens', { address: ALICE, collectionId, data });
const seed = { authorization: 'Seed //Alice' };

describe('PATCH and DELETE answer 201: they answer 200, POST 201', () => {
  it.each(['Build', 'GetFee', 'Sign', 'Submit', 'Result'])('use=%s', async (use) => {
    const tokenId = (await mintWith({})).parsed.tokenId as number;
    const post = await api(host, 'POST', `/tokens?use=${use}`, { address: ALICE, collectionId, data: {} }, seed);
    expect(post.status, post.text.slice(0, 300)).toBe(201);
    const patch = await api(host, 'PATCH', `/tokens/transfer?use=${use}`, { address: ALICE, collectionId, tokenId, to: BOB }, seed);
    expect(patch.status, `PATCH /tokens/transfer: ${patch.text.slice(0, 300)}`).toBe(200);
    const other = (await mintWith({})).parsed.tokenId as number;
    const del = await api(host, 'DELETE', `/tokens?use=${use}`, { address: ALICE, collectionId, tokenId: other }, seed);
    expect(del.status, `DELETE /tokens: ${del.text.slice(0, 300)}`).toBe(200);
  });

  it('DELETE of collection properties and PATCH of a collection owner answer 200', async () => {
    const id = await createCollection(host, { properties: [{ key: 'gone', value: '1' }] });
    const del = await api(host, 'DELETE', '/collections/properties?use=Result', { address: ALICE, collectionId: id, propertyKeys: ['gone'] }, seed);
    expect(del.status, del.text.slice(0, 300)).toBe(200);
    const patch = await api(host, 'PATCH', '/collections/transfer?use=Result', { address: ALICE, collectionId: id, to: BOB }, seed);
    expect(patch.status, patch.text.slice(0, 300)).toBe(200);
  });

  it('a PATCH or DELETE refused by validation is still a 4xx, not 200', async () => {
    expectClientError(await api(host, 'PATCH', '/tokens/transfer?use=Build', { address: ALICE, collectionId, to: 'nobody' }), 400);
    expectClientError(await api(host, 'DELETE', '/tokens?use=Build', { address: ALICE, collectionId }), 400);
  });
});

describe('names from Object.prototype pass the attribute check', () => {
  it.each(['toString', 'constructor', 'hasOwnProperty', 'valueOf', '__proto__', 'isPrototypeOf'])('encodedAttributes.%s is refused', async (name) => {
    // Built as text: an object literal would take `__proto__` as its prototype, not as a key.
    const body = `{"address":"${ALICE}","collectionId":${collectionId},"data":{"encodedAttributes":{"${name}":0}}}`;
    const res = await api(host, 'POST', '/tokens?use=Build', body);
    expectClientError(res, 400);
  });

  it.each(['toString', 'constructor', 'hasOwnProperty', 'valueOf', '__proto__'])('attributes.%s (by name) is refused', async (name) => {
    const body = `{"address":"${ALICE}","collectionId":${collectionId},"data":{"attributes":{"${name}":"red"}}}`;
    const res = await api(host, 'POST', '/tokens?use=Build', body);
    expectClientError(res, 400);
  });

  it('a real attribute still works, by index and by name', async () => {
    expect((await api(host, 'POST', '/tokens?use=Build', { address: ALICE, collectionId, data: { encodedAttributes: { '0': 1 } } })).status).toBe(201);
    expect((await api(host, 'POST', '/tokens?use=Build', { address: ALICE, collectionId, data: { attributes: { colour: 'blue' } } })).status).toBe(201);
  });
});

describe('javascript: image URLs are accepted', () => {
  const BAD = ['javascript:alert(1)', 'JaVaScRiPt:alert(document.domain)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'vbscript:msgbox(1)', 'data:text/html,<script>alert(1)</script>'];

  it.each(BAD)('a token image url %j is refused', async (url) => {
    expectClientError(await api(host, 'POST', '/tokens?use=Build', { address: ALICE, collectionId, data: { image: { url } } }), 400);
  });

  it.each(BAD)('a token imagePreview / file url %j is refused', async (url) => {
    expectClientError(await api(host, 'POST', '/tokens?use=Build', { address: ALICE, collectionId, data: { imagePreview: { url } } }), 400);
    expectClientError(await api(host, 'POST', '/tokens?use=Build', { address: ALICE, collectionId, data: { file: { url } } }), 400);
  });

  it.each(BAD)('a collection cover picture url %j is refused', async (url) => {
    const res = await api(host, 'POST', '/collections?use=Build', {
      address: ALICE,
      name: 'x',
      description: 'y',
      tokenPrefix: 'z',
      schema: { schemaName: 'unique', schemaVersion: '1.0.0', coverPicture: { url }, image: { urlTemplate: 'https://example.com/{infix}' } }
    });
    expectClientError(res, 400);
  });

  it('an https image url is still taken', async () => {
    const token = await mintWith({ image: { url: 'https://example.com/opal.png' } });
    const read = await api(host, 'GET', `/tokens?collectionId=${collectionId}&tokenId=${token.parsed.tokenId}`);
    expect(JSON.stringify(read.json)).toContain('https://example.com/opal.png');
  });
});
