// The state-query routes through the handler: paths with their three segments, both spellings
// (`/v1` and without), hostile segments and bodies, and the OpenAPI path template.
import { describe, expect, it } from 'vitest';
import { ALICE, openApi } from './route-test-kit';

describe('state query routes', () => {
  it('answers at /v1 and without it, for GET and POST', async () => {
    const api = await openApi();
    const price = await api.get('/v1/query/consts/common/collectionCreationPrice');
    expect(price.status).toBe(200);
    expect(price.json.rawType).toBe('u128');
    expect((await api.get('/query/consts/common/collectionCreationPrice')).json).toEqual(price.json);
    const account = await api.request('POST', '/query/query/system/account', { args: [ALICE] });
    expect(account.status).toBe(201);
    expect(account.json.json.nonce).toBe(0);
    // No body at all reads as no arguments.
    expect((await api.request('POST', '/v1/query/query/system/number', {})).json.rawType).toBe('u32');
  });

  it('bounds path segments and arguments before any work, in the error envelope', async () => {
    const api = await openApi();
    const long = await api.get(`/v1/query/consts/common/${'m'.repeat(300)}`);
    expect(long.status).toBe(400);
    expect(long.json.error.message).toContain('at most 256 characters');
    const bigArg = await api.request('POST', '/v1/query/query/system/account', { args: ['a'.repeat(10_000)] });
    expect(bigArg.status).toBe(400);
    expect(bigArg.json.error.name).toBe('ValidationError');
    const objectArg = await api.request('POST', '/v1/query/query/nonfungible/owned', { args: [1, { Substrate: ALICE, Ethereum: ALICE, x: '1' }, 1] });
    expect(objectArg.json.error.message).toContain('at most 2 keys');
    const encoded = await api.get('/v1/query/consts/common/%E0%A4%A');
    expect(encoded.status).toBe(400);
  });

  it('describes the route as an OpenAPI path template with its parameters', async () => {
    const api = await openApi();
    const doc = (await api.get('/v1/openapi.json')).json;
    const post = doc.paths['/sandbox/v1/query/{endpoint}/{module}/{method}'].post;
    expect(post.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(['path:endpoint', 'path:module', 'path:method', 'query:at', 'query:blockHashAt']);
    expect(post.requestBody.content['application/json'].schema.properties.args.maxItems).toBe(8);
  });
});
