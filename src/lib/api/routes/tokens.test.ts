// Token routes, driven through the real handler over an in-memory ledger.
import { beforeEach, describe, expect, it } from 'vitest';
import { checksumAddress, tokenNestingAddress } from '../../codec/nesting';
import { ALICE, BOB, CHARLIE, openApi, type Api } from './route-test-kit';

let api: Api;

beforeEach(async () => {
  api = await openApi();
});

function expectError(answer: { status: number; json: any }, status: number, name: string, message?: string | RegExp) {
  expect(answer.status, JSON.stringify(answer.json)).toBe(status);
  expect(answer.json.error.name).toBe(name);
  expect(answer.json.error.message).not.toBe('');
  if (message instanceof RegExp) expect(answer.json.error.message).toMatch(message);
  else if (message !== undefined) expect(answer.json.error.message).toBe(message);
}

const COLOR = { key: 'color', permission: { mutable: true, tokenOwner: true, collectionAdmin: true } };
const NESTING = { nesting: { tokenOwner: true, collectionAdmin: true } };

describe('mint and get token', () => {
  it('mints from data and reads the token at every path spelling', async () => {
    await api.createCollection();
    const parsed = await api.ok('POST', '/v1/tokens', {
      address: ALICE,
      collectionId: 1,
      data: { name: { _: 'First' }, description: 'The first one', image: { url: 'https://example.com/1.png' } }
    });
    expect(parsed).toEqual({ collectionId: 1, tokenId: 1 });
    for (const path of ['/v1/tokens', '/tokens', '/v1/token', '/token']) {
      const { status, json } = await api.get(`${path}?collectionId=1&tokenId=1`);
      expect(status).toBe(200);
      expect(json).toMatchObject({ collectionId: 1, tokenId: 1, owner: ALICE, name: { _: 'First' }, description: { _: 'The first one' } });
      expect(json.image.fullUrl).toBe('https://example.com/1.png');
      expect(json.nestingChildTokens).toEqual([]);
      expect(json.nestingParentToken).toBeUndefined();
      expect(json.properties.map((p: { key: string }) => p.key)).toEqual(expect.arrayContaining(['n', 'd', 'i.u']));
    }
  });

  it('mints for another owner; explicit properties override the data keys', async () => {
    await api.createCollection({ tokenPropertyPermissions: [COLOR] });
    await api.mint(1, { owner: BOB, data: { name: 'Data name' }, properties: [{ key: 'n', value: '{"_":"Explicit"}' }, { key: 'color', value: 'red' }] });
    const { json } = await api.get('/v1/tokens?collectionId=1&tokenId=1');
    expect(json.owner).toBe(BOB);
    expect(json.name).toEqual({ _: 'Explicit' });
    expect(json.properties).toContainEqual({ key: 'color', value: 'red', valueHex: '0x726564' });
    // The later real service embeds the collection, as Get collection answers it (reference 9.2).
    expect(json.collection).toEqual((await api.get('/v1/collections?collectionId=1')).json);
  });

  it('mints several tokens', async () => {
    await api.createCollection();
    const parsed = await api.ok('POST', '/v1/tokens/create-multiple', {
      address: ALICE,
      collectionId: 1,
      tokens: [{ data: { name: 'a' } }, { owner: BOB }, { data: { name: 'c' } }]
    });
    expect(parsed).toEqual([
      { collectionId: 1, tokenId: 1 },
      { collectionId: 1, tokenId: 2 },
      { collectionId: 1, tokenId: 3 }
    ]);
    expect((await api.get('/v1/tokens/owner?collectionId=1&tokenId=2')).json).toEqual({ owner: BOB });
    expect((await api.get('/token?collectionId=1&tokenId=3')).json.name).toEqual({ _: 'c' });
    const post = (tokens: unknown) => api.request('POST', '/token/create-multiple', { address: ALICE, collectionId: 1, tokens });
    expectError(await post([]), 400, 'ValidationError', /empty/);
    expectError(await post(Array.from({ length: 121 }, () => ({}))), 400, 'ValidationError', /120/);
    expectError(await post([{}, { data: { name: 5 } }]), 400, 'ValidationError', /tokens\[1\]/);
  });

  it('rejects mints into unknown, Fungible and ReFungible collections and bad data', async () => {
    const mint = (body: Record<string, unknown>) => api.request('POST', '/v1/tokens', { address: ALICE, ...body });
    const missing = await mint({ collectionId: 1 });
    expectError(missing, 400, 'CollectionNotFoundError', 'Collection not found');
    expect(missing.json.error.code).toBe('UN01013');
    await api.createCollection();
    await api.createCollection({ mode: 'Fungible', decimals: 2 });
    await api.createCollection({ mode: 'ReFungible' });
    expectError(await mint({ collectionId: 2 }), 400, 'ValidationError', 'Collection 2 is Fungible: the collection mode is invalid for this route; its tokens have the /fungible routes');
    expectError(await mint({ collectionId: 3 }), 400, 'ValidationError', /Collection 3 is ReFungible/);
    expectError(await mint({ collectionId: 1, data: { name: 5 } }), 400, 'ValidationError', /name/);
    expectError(await mint({ collectionId: 1, data: 'text' }), 400, 'ValidationError', /data/);
    expectError(await mint({ collectionId: 1, owner: 'nobody' }), 400, 'ValidationError', /Invalid address/);
    expectError(await mint({ collectionId: 'foo' }), 400, 'ValidationError', /collectionId/);
  });

  it('mints raw properties into a collection without a Unique schema, and refuses data there', async () => {
    await api.createCollection({
      properties: [{ key: 'schemaName', value: '"custom"' }],
      tokenPropertyPermissions: [COLOR]
    });
    expect((await api.get('/v1/collections?collectionId=1')).json.schema).toBeUndefined();
    expectError(await api.request('POST', '/v1/tokens', { address: ALICE, collectionId: 1, data: { name: 'x' } }), 400, 'ValidationError', /schema/);
    await api.mint(1, { properties: [{ key: 'color', value: 'blue' }] });
    const { json } = await api.get('/v1/tokens?collectionId=1&tokenId=1');
    expect(json).toMatchObject({ tokenId: 1, owner: ALICE, attributes: {}, properties: [{ key: 'color', value: 'blue', valueHex: '0x626c7565' }] });
    expect(typeof json.decodingError).toBe('string');
  });

  it('answers 404 for an unknown token or collection, 400 for bad ids', async () => {
    await api.createCollection();
    expectError(await api.get('/v1/tokens?collectionId=1&tokenId=1'), 404, 'NotFoundError', 'Token not found');
    // DECISIONS 2: a read of an unknown collection says so.
    for (const path of ['/v1/tokens', '/v1/tokens/owner', '/v1/tokens/parent', '/v1/tokens/topmost-owner', '/token/is-bundle', '/v1/tokens/get-bundle']) {
      expectError(await api.get(`${path}?collectionId=5&tokenId=1`), 404, 'CollectionNotFoundError', 'Collection not found');
    }
    for (const bad of ['foo', '0', '-1']) {
      expectError(await api.get(`/v1/tokens?collectionId=1&tokenId=${bad}`), 400, 'ValidationError', /tokenId/);
    }
    expectError(await api.get('/token?collectionId=1'), 400, 'ValidationError', /tokenId/);
  });
});

describe('token properties, exists, owner, balance', () => {
  it('sets, filters and deletes token properties', async () => {
    await api.createCollection({ tokenPropertyPermissions: [COLOR, { ...COLOR, key: 'size' }] });
    await api.mint(1);
    const set = await api.ok('POST', '/v1/tokens/properties', { address: ALICE, collectionId: 1, tokenId: 1, properties: [{ key: 'color', value: 'red' }, { key: 'size', value: 'L' }] });
    expect(set.properties).toEqual([
      { collectionId: 1, tokenId: 1, propertyKey: 'color' },
      { collectionId: 1, tokenId: 1, propertyKey: 'size' }
    ]);
    const keys = (json: any) => json.properties.map((p: { key: string }) => p.key);
    expect(keys((await api.get('/v1/tokens/properties?collectionId=1&tokenId=1')).json)).toEqual(['color', 'size']);
    expect(keys((await api.get('/token/properties?collectionId=1&tokenId=1&propertyKeys[]=size&propertyKeys[]=x')).json)).toEqual(['size']);
    expect(keys((await api.get('/tokens/properties?collectionId=1&tokenId=1&propertyKeys=size&propertyKeys=color')).json)).toEqual(['size', 'color']);
    expect((await api.get('/v1/tokens/properties?collectionId=1&tokenId=1&propertyKeys=color')).json).toEqual({ properties: [{ key: 'color', value: 'red', valueHex: '0x726564' }] });

    const deleted = await api.ok('DELETE', '/v1/tokens/properties', { address: ALICE, collectionId: 1, tokenId: 1, propertyKeys: ['color'] });
    expect(deleted.properties).toEqual([{ collectionId: 1, tokenId: 1, propertyKey: 'color' }]);
    expect(keys((await api.get('/v1/tokens/properties?collectionId=1&tokenId=1')).json)).toEqual(['size']);
    expect((await api.get('/v1/tokens/properties?collectionId=1&tokenId=9')).json).toEqual({ properties: [] });
    expect((await api.get('/v1/tokens/properties?collectionId=9&tokenId=1')).json).toEqual({ properties: [] });
  });

  it('answers exists, owner and balance', async () => {
    await api.createCollection();
    await api.mint(1, { owner: BOB });
    expect((await api.get('/v1/tokens/exists?collectionId=1&tokenId=1')).json).toEqual({ isExists: true });
    expect((await api.get('/token/exists?collectionId=1&tokenId=2')).json).toEqual({ isExists: false });
    expectError(await api.get('/token/exists?collectionId=8&tokenId=2'), 404, 'CollectionNotFoundError');
    expect((await api.get('/v1/tokens/owner?collectionId=1&tokenId=1')).json).toEqual({ owner: BOB });
    expectError(await api.get('/v1/tokens/owner?collectionId=1&tokenId=2'), 404, 'NotFoundError');
    expect((await api.get(`/v1/tokens/balance?collectionId=1&tokenId=1&address=${BOB}`)).json).toEqual({ amount: 1 });
    expect((await api.get(`/v1/tokens/balance?collectionId=1&tokenId=1&address=${ALICE}`)).json).toEqual({ amount: 0 });
    expect((await api.get(`/v1/tokens/balance?collectionId=1&tokenId=5&address=${ALICE}`)).json).toEqual({ amount: 0 });
    expectError(await api.get(`/v1/tokens/balance?collectionId=4&tokenId=1&address=${ALICE}`), 404, 'CollectionNotFoundError');
  });

  it('lists the tokens of an account', async () => {
    await api.createCollection();
    await api.createCollection();
    await api.mint(1);
    await api.mint(2);
    await api.mint(2, { owner: BOB });
    expect((await api.get(`/v1/tokens/account-tokens?address=${ALICE}`)).json).toEqual({
      tokens: [
        { collectionId: 1, tokenId: 1 },
        { collectionId: 2, tokenId: 1 }
      ]
    });
    expect((await api.get(`/token/account-tokens?address=${ALICE}&collectionId=2`)).json).toEqual({ tokens: [{ collectionId: 2, tokenId: 1 }] });
    expect((await api.get(`/v1/tokens/account-tokens?address=${CHARLIE}`)).json).toEqual({ tokens: [] });
    expectError(await api.get(`/v1/tokens/account-tokens?address=${ALICE}&collectionId=3`), 404, 'CollectionNotFoundError', 'Collection not found');
    expectError(await api.get('/v1/tokens/account-tokens?address=alice'), 400, 'ValidationError', /Invalid address/);
  });
});

describe('transfer, approve, burn', () => {
  it('transfers as the owner', async () => {
    await api.createCollection();
    await api.mint(1);
    expect(await api.ok('PATCH', '/v1/tokens/transfer', { collectionId: 1, tokenId: 1, address: ALICE, to: BOB })).toMatchObject({ collectionId: 1, tokenId: 1, from: ALICE, to: BOB });
    expect((await api.get('/v1/tokens/owner?collectionId=1&tokenId=1')).json.owner).toBe(BOB);
    // The older form: `from` is the signer.
    await api.ok('PATCH', '/token/transfer', { collectionId: 1, tokenId: 1, from: BOB, to: CHARLIE }, '//Bob');
    expect((await api.get('/v1/tokens/owner?collectionId=1&tokenId=1')).json.owner).toBe(CHARLIE);
  });

  it('approves a spender, who then transfers from the owner', async () => {
    await api.createCollection();
    await api.mint(1, { owner: BOB });
    const denied = await api.submit('PATCH', '/v1/tokens/transfer', { collectionId: 1, tokenId: 1, address: CHARLIE, from: BOB, to: CHARLIE }, '//Charlie');
    expect(denied.isError).toBe(true);
    expect(await api.ok('POST', '/v1/tokens/approve', { address: BOB, spender: CHARLIE, collectionId: 1, tokenId: 1 }, '//Bob')).toMatchObject({ spender: CHARLIE, isApprove: true });
    expect((await api.get(`/v1/tokens/allowance?collectionId=1&tokenId=1&from=${BOB}&to=${CHARLIE}`)).json).toEqual({ isAllowed: true });
    expect((await api.get(`/token/allowance?collectionId=1&tokenId=1&from=${ALICE}&to=${CHARLIE}`)).json).toEqual({ isAllowed: false });
    await api.ok('PATCH', '/v1/tokens/transfer', { collectionId: 1, tokenId: 1, address: CHARLIE, from: BOB, to: CHARLIE }, '//Charlie');
    expect((await api.get('/v1/tokens/owner?collectionId=1&tokenId=1')).json.owner).toBe(CHARLIE);
    expect((await api.get(`/v1/tokens/allowance?collectionId=1&tokenId=1&from=${BOB}&to=${CHARLIE}`)).json).toEqual({ isAllowed: false });
  });

  it('revokes an approval', async () => {
    await api.createCollection();
    await api.mint(1);
    await api.ok('POST', '/v1/tokens/approve', { address: ALICE, spender: BOB, collectionId: 1, tokenId: 1 });
    await api.ok('POST', '/v1/tokens/approve', { address: ALICE, spender: BOB, collectionId: 1, tokenId: 1, isApprove: false });
    expect((await api.get(`/v1/tokens/allowance?collectionId=1&tokenId=1&from=${ALICE}&to=${BOB}`)).json).toEqual({ isAllowed: false });
  });

  it('burns as the owner, and as the collection owner on behalf of the token owner', async () => {
    await api.createCollection();
    await api.mint(1);
    await api.mint(1, { owner: BOB });
    expect(await api.ok('DELETE', '/v1/tokens', { address: ALICE, collectionId: 1, tokenId: 1 })).toEqual({ collectionId: 1, tokenId: 1, address: ALICE });
    expect(await api.ok('DELETE', '/token', { address: ALICE, collectionId: 1, tokenId: 2 })).toEqual({ collectionId: 1, tokenId: 2, address: BOB });
    expect((await api.get('/v1/collections/total-supply?collectionId=1')).json.totalSupply).toBe(0);
  });

  it('checks at build that the collection and token of a mutation exist', async () => {
    await api.createCollection();
    await api.createCollection({ mode: 'Fungible' });
    const notFound = 'Token not found: collection 1, token 9';
    const cases = [
      ['PATCH', '/v1/tokens/transfer', { collectionId: 1, tokenId: 9, address: ALICE, to: BOB }],
      ['DELETE', '/v1/tokens', { collectionId: 1, tokenId: 9, address: ALICE }],
      ['POST', '/v1/tokens/properties', { collectionId: 1, tokenId: 9, address: ALICE, properties: [] }],
      ['DELETE', '/v1/tokens/properties', { collectionId: 1, tokenId: 9, address: ALICE, propertyKeys: ['a'] }],
      ['POST', '/v1/tokens/approve', { collectionId: 1, tokenId: 9, address: ALICE, spender: BOB }],
      ['POST', '/v1/tokens/unnest', { address: ALICE, nested: { collectionId: 1, tokenId: 9 } }],
      ['POST', '/v1/tokens/nest', { address: ALICE, parent: { collectionId: 1, tokenId: 1 }, nested: { collectionId: 1, tokenId: 9 } }]
    ] as const;
    for (const [method, path, body] of cases) {
      const answer = await api.request(method, path, body);
      expectError(answer, 400, 'NotFoundError', notFound);
      expect(answer.json.error.code).toBe('UN01008');
      const noCollection = JSON.parse(JSON.stringify(body).replaceAll('"collectionId":1', '"collectionId":7'));
      expectError(await api.request(method, path, noCollection), 400, 'CollectionNotFoundError', 'Collection not found');
      const fungible = JSON.parse(JSON.stringify(body).replaceAll('"collectionId":1', '"collectionId":2'));
      expectError(await api.request(method, path, fungible), 400, 'ValidationError', /Collection 2 is Fungible/);
    }
  });

  it('validates transfer and approve bodies', async () => {
    await api.createCollection();
    await api.mint(1);
    expectError(await api.request('PATCH', '/v1/tokens/transfer', { collectionId: 1, tokenId: 1, to: BOB }), 400, 'ValidationError', /address/);
    expectError(await api.request('PATCH', '/v1/tokens/transfer', { collectionId: 1, tokenId: 1, address: ALICE }), 400, 'ValidationError', /to/);
    expectError(await api.request('PATCH', '/v1/tokens/transfer', { collectionId: 1, tokenId: -1, address: ALICE, to: BOB }), 400, 'ValidationError', /tokenId/);
    expectError(await api.request('POST', '/v1/tokens/approve', { collectionId: 1, tokenId: 1, address: ALICE, spender: BOB, isApprove: 'yes' }), 400, 'ValidationError', /isApprove/);
  });
});

describe('nesting', () => {
  async function bundle() {
    await api.createCollection({ permissions: NESTING });
    for (let i = 0; i < 4; i++) await api.mint(1, { data: { name: `t${i + 1}` } });
    await api.ok('POST', '/v1/tokens/nest', { address: ALICE, parent: { collectionId: 1, tokenId: 1 }, nested: { collectionId: 1, tokenId: 2 } });
    await api.ok('POST', '/token/nest', { address: ALICE, parent: { collectionId: 1, tokenId: 2 }, nested: { collectionId: 1, tokenId: 3 } });
  }

  it('nests and reads children, parent, owner, topmost owner, is-bundle', async () => {
    await bundle();
    expect((await api.get('/v1/tokens/children?collectionId=1&tokenId=1')).json).toEqual({ children: [{ collectionId: 1, tokenId: 2 }] });
    expect((await api.get('/token/children?collectionId=1&tokenId=3')).json).toEqual({ children: [] });
    expect((await api.get('/token/children?collectionId=9&tokenId=3')).json).toEqual({ children: [] });
    expect((await api.get('/v1/tokens/parent?collectionId=1&tokenId=3')).json).toEqual({
      collectionId: 1,
      tokenId: 2,
      address: checksumAddress(tokenNestingAddress(1, 2))
    });
    const notNested = await api.get('/token/parent?collectionId=1&tokenId=1');
    expect(notNested.status).toBe(200);
    expect(notNested.json).toBeNull();
    expectError(await api.get('/v1/tokens/parent?collectionId=1&tokenId=9'), 404, 'NotFoundError');
    expect((await api.get('/v1/tokens/owner?collectionId=1&tokenId=3')).json).toEqual({ owner: tokenNestingAddress(1, 2) });
    expect((await api.get(`/v1/tokens/topmost-owner?collectionId=1&tokenId=3&blockHashAt=${(await api.ledger.head()).hash}`)).json).toEqual({ topmostOwner: ALICE });
    expectError(await api.get('/v1/tokens/topmost-owner?collectionId=1&tokenId=9'), 404, 'NotFoundError');
    for (const [tokenId, isBundle] of [[1, true], [2, true], [3, true], [4, false]] as const) {
      expect((await api.get(`/v1/tokens/is-bundle?collectionId=1&tokenId=${tokenId}`)).json).toEqual({ isBundle });
    }
    expectError(await api.get('/token/is-bundle?collectionId=1&tokenId=9'), 404, 'NotFoundError');
  });

  it('shows direct children and the parent on Get token', async () => {
    await bundle();
    const top = (await api.get('/v1/tokens?collectionId=1&tokenId=1')).json;
    expect(top.nestingChildTokens).toHaveLength(1);
    expect(top.nestingChildTokens[0]).toMatchObject({ collectionId: 1, tokenId: 2, name: { _: 't2' } });
    expect(top.nestingChildTokens[0].nestingChildTokens).toBeUndefined();
    const middle = (await api.get('/v1/tokens?collectionId=1&tokenId=2')).json;
    expect(middle.nestingParentToken).toEqual({ collectionId: 1, tokenId: 1 });
    expect(middle.nestingChildTokens.map((t: { tokenId: number }) => t.tokenId)).toEqual([3]);
  });

  it('answers the whole bundle from any of its tokens', async () => {
    await bundle();
    for (const tokenId of [1, 2, 3]) {
      const { status, json } = await api.get(`/v1/tokens/get-bundle?collectionId=1&tokenId=${tokenId}`);
      expect(status).toBe(200);
      expect(json).toMatchObject({
        tokenId: 1,
        name: { _: 't1' },
        nestingChildTokens: [{ tokenId: 2, nestingChildTokens: [{ tokenId: 3, nestingChildTokens: [] }] }]
      });
    }
    const alone = (await api.get('/token/get-bundle?collectionId=1&tokenId=4')).json;
    expect(alone).toMatchObject({ tokenId: 4, nestingChildTokens: [] });
    expectError(await api.get('/v1/tokens/get-bundle?collectionId=1&tokenId=9'), 404, 'NotFoundError');
  });

  it('refuses bundles deeper than 5 levels with Recursion depth exceeded', async () => {
    await api.createCollection();
    await api.mint(1);
    // A chain of 7 tokens written straight into storage (the chain rules never allow it).
    await api.store.write(async (tx) => {
      for (let t = 2; t <= 7; t++) {
        tx.put('tokens', { collectionId: 1, tokenId: t, owner: tokenNestingAddress(1, t - 1), properties: [], parentCollectionId: 1, parentTokenId: t - 1 });
      }
    });
    expectError(await api.get('/v1/tokens/get-bundle?collectionId=1&tokenId=4'), 400, 'ValidationError', /Recursion depth exceeded/);
  });

  it('burns a nested token on behalf of its parent (from omitted)', async () => {
    await bundle();
    expect(await api.ok('DELETE', '/v1/tokens', { address: ALICE, collectionId: 1, tokenId: 3 })).toMatchObject({ collectionId: 1, tokenId: 3 });
    expect((await api.get('/v1/tokens/exists?collectionId=1&tokenId=3')).json).toEqual({ isExists: false });
    expect((await api.get('/v1/tokens/children?collectionId=1&tokenId=2')).json).toEqual({ children: [] });
  });

  it('unnests to the signer or to `to`', async () => {
    await bundle();
    expect(await api.ok('POST', '/v1/tokens/unnest', { address: ALICE, nested: { collectionId: 1, tokenId: 3 }, parent: { collectionId: 1, tokenId: 2 } })).toMatchObject({ collectionId: 1, tokenId: 3 });
    expect((await api.get('/v1/tokens/owner?collectionId=1&tokenId=3')).json.owner).toBe(ALICE);
    await api.ok('POST', '/token/unnest', { address: ALICE, nested: { collectionId: 1, tokenId: 2 }, to: BOB });
    expect((await api.get('/v1/tokens/owner?collectionId=1&tokenId=2')).json.owner).toBe(BOB);
    expectError(await api.request('POST', '/v1/tokens/unnest', { address: ALICE, nested: { collectionId: 1, tokenId: 4 } }), 400, 'ValidationError', 'Token is not nested');
  });

  it('moves a nested token under another parent', async () => {
    await bundle();
    await api.ok('POST', '/v1/tokens/nest', { address: ALICE, parent: { collectionId: 1, tokenId: 4 }, nested: { collectionId: 1, tokenId: 3 } });
    expect((await api.get('/v1/tokens/parent?collectionId=1&tokenId=3')).json).toMatchObject({ collectionId: 1, tokenId: 4 });
  });

  it('checks the parent at build and leaves nesting rules to the chain', async () => {
    await api.createCollection();
    await api.mint(1);
    await api.mint(1);
    const nest = (parent: unknown) => api.request('POST', '/v1/tokens/nest', { address: ALICE, parent, nested: { collectionId: 1, tokenId: 2 } });
    expectError(await nest({ collectionId: 1, tokenId: 5 }), 400, 'NotFoundError', 'Token not found: collection 1, token 5');
    expectError(await nest({ collectionId: 6, tokenId: 1 }), 400, 'CollectionNotFoundError');
    expectError(await nest({ collectionId: 1 }), 400, 'ValidationError', /tokenId/);
    expectError(await api.request('POST', '/v1/tokens/nest', { address: ALICE, parent: { collectionId: 1, tokenId: 1 }, nested: { collectionId: 1, tokenId: 2 }, value: -1 }), 400, 'ValidationError', /value/);
    // Nesting is off by default: a dispatch error.
    const result = await api.submit('POST', '/v1/tokens/nest', { address: ALICE, parent: { collectionId: 1, tokenId: 1 }, nested: { collectionId: 1, tokenId: 2 } });
    expect(result.isError).toBe(true);
    expect(result.error?.details.name).toBe('UserIsNotAllowedToNest');
  });
});
