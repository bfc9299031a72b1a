// GET /v1/tokens/gallery over HTTP against the Node host (SQLite): a page of a few hundred tokens
// filtered, searched and sorted over the whole collection, the index following a block, bad input
// in the envelope, and the route in the OpenAPI document as an Opalite extension.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../server/host';
import { ALICE, BOB, custodial, http, startTestHost } from './support';

const TOKENS = 240;
const SCHEMA = {
  schemaName: 'unique',
  schemaVersion: '1.0.0',
  coverPicture: { url: 'https://img.example/cover.png' },
  image: { urlTemplate: 'https://img.example/{infix}.png' },
  attributesSchemaVersion: '1.0.0',
  attributesSchema: {
    '0': { name: { _: 'Background' }, type: 'string' },
    '1': { name: { _: 'Power' }, type: 'string' }
  }
};
const BACKGROUNDS = ['red', 'blue', 'green', 'gold'];

let host: RunningHost;
let collectionId: number;

const gallery = (query: string) => http(host, 'GET', `/tokens/gallery?collectionId=${collectionId}&${query}`);

beforeAll(async () => {
  host = await startTestHost();
  const created = await custodial(host, 'POST', '/collections', { address: ALICE, name: 'Drop', description: 'A drop', tokenPrefix: 'DRP', schema: SCHEMA });
  expect(created.status).toBe(201);
  collectionId = created.body.parsed.collectionId;
  for (let first = 1; first <= TOKENS; first += 120) {
    const tokens = Array.from({ length: 120 }, (_, i) => {
      const n = first + i;
      // Gold is rare (one in 40); Power counts down so text order and number order differ.
      const background = n % 40 === 0 ? 'gold' : BACKGROUNDS[n % 3];
      return { data: { name: `Drop #${n}`, image: { urlInfix: `d${n}` }, attributes: { Background: background, Power: String(TOKENS - n + 1) } } };
    });
    const minted = await custodial(host, 'POST', '/tokens/create-multiple', { address: ALICE, collectionId, tokens });
    expect(minted.body.isError, JSON.stringify(minted.body.error)).toBe(false);
  }
}, 60_000);
afterAll(() => host?.stop());

describe('the gallery route over HTTP', () => {
  it('answers a page with whole-collection counts, filters and a numeric sort', async () => {
    const first = await gallery('limit=50');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ collectionId, total: TOKENS, matching: TOKENS, offset: 0 });
    expect(first.body.tokens).toHaveLength(50);
    expect(first.body.tokens[0]).toMatchObject({ tokenId: 1, name: 'Drop #1', image: 'https://img.example/d1.png', owner: ALICE });
    const background = first.body.attributes.find((a: { name: string }) => a.name === 'Background');
    expect(background.values.find((v: { value: string }) => v.value === 'gold')).toEqual({ value: 'gold', count: TOKENS / 40 });
    expect(background.values.reduce((sum: number, v: { count: number }) => sum + v.count, 0)).toBe(TOKENS);

    const gold = await gallery('attr=Background:gold&sort=attr:Power');
    expect(gold.body.matching).toBe(TOKENS / 40);
    // Power = 241 - id: ascending by number is descending by id (text order would put 121 before 41).
    expect(gold.body.tokens.map((t: { tokenId: number }) => t.tokenId)).toEqual([240, 200, 160, 120, 80, 40]);

    const found = await gallery('search=drop%20%23239');
    expect(found.body.tokens.map((t: { tokenId: number }) => t.tokenId)).toEqual([239]);

    const rarest = await gallery('sort=rarity&limit=6');
    expect(rarest.body.tokens.every((t: { tokenId: number }) => t.tokenId % 40 === 0)).toBe(true);

    const last = await gallery('offset=200&limit=200');
    expect(last.body.tokens.map((t: { tokenId: number }) => t.tokenId)).toEqual(Array.from({ length: 40 }, (_, i) => 201 + i));
  });

  it('follows a transfer in the next block', async () => {
    const moved = await custodial(host, 'PATCH', '/tokens/transfer', { address: ALICE, collectionId, tokenId: 7, to: BOB });
    expect(moved.body.isError).toBe(false);
    const bobs = await gallery(`owner=${BOB}`);
    expect(bobs.body.tokens.map((t: { tokenId: number; owner: string }) => [t.tokenId, t.owner])).toEqual([[7, BOB]]);
  });

  it('answers bad input in the envelope', async () => {
    for (const query of ['limit=1000', 'sort=power', 'attr=Background', 'order=sideways', `search=${'y'.repeat(500)}`]) {
      const res = await gallery(query);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatchObject({ name: 'ValidationError', code: expect.stringMatching(/^UN\d{5}$/) });
    }
    const missing = await http(host, 'GET', '/tokens/gallery?collectionId=4000');
    expect(missing.status).toBe(404);
  });

  it('is in the OpenAPI document, marked as an Opalite extension', async () => {
    const doc = await http(host, 'GET', '/openapi.json');
    const path = Object.keys(doc.body.paths).find((p) => p.endsWith('/v1/tokens/gallery'))!;
    const operation = doc.body.paths[path].get;
    expect(operation.summary).toMatch(/^Opalite extension/);
    expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['collectionId', 'search', 'attr', 'owner', 'sort', 'order', 'offset', 'limit']));
  });
});
