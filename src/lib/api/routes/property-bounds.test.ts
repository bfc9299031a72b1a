// DECISIONS 5 through the REST routes: properties over the chain's bounds (64 per list, keys of
// 256 bytes, values of 32,768) reach the ledger, which applies them by its rule set. Under `spec`
// they are included and fail at dispatch, fee charged; under `unique` creation data, keys and
// values over them cannot be decoded (400 at submit, nothing charged), while set/delete lists of
// more than 64 entries are included and fail with PropertyLimitReached, as on the chain.
import { describe, expect, it } from 'vitest';
import { loadAccount } from '../../ledger/balances';
import { ALICE, openApi, type Api } from './route-test-kit';

const props = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: 'v' }));
const permissions = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `p${i}`, permission: { mutable: true, collectionAdmin: true, tokenOwner: false } }));

const account = (api: Api) => api.ledger.read((tx) => loadAccount(tx, ALICE));

/** Submits with use=Result; answers the HTTP status, the chain error's name and whether Alice paid and her nonce moved. */
async function outcome(api: Api, method: string, path: string, body: Record<string, unknown>) {
  const before = await account(api);
  const answer = await api.request(method, `${path}?use=Result`, { address: ALICE, ...body }, '//Alice');
  const after = await account(api);
  return {
    status: answer.status,
    error: answer.json?.error?.details?.name ?? answer.json?.error?.name,
    charged: after.free < before.free,
    nonceMoved: after.nonce !== before.nonce
  };
}

/** Included and failed: answered as a completed extrinsic (201 for a POST, 200 otherwise), fee charged, nonce used. */
const dispatchError = (name: string, method = 'POST') => ({ status: method === 'POST' ? 201 : 200, error: name, charged: true, nonceMoved: true });
const undecodable = { status: 400, error: 'BadPayloadError', charged: false, nonceMoved: false };

describe('properties over the chain bounds, by rule set (DECISIONS 5)', () => {
  it('spec: creation data, set lists, long keys and long values are included and fail at dispatch, fee charged', async () => {
    const api = await openApi({ rules: 'spec' });
    const collectionId = await api.createCollection();
    const tokenId = await api.mint(collectionId, { properties: [] });
    expect(await outcome(api, 'POST', '/v1/collections', { name: 'c', description: 'd', tokenPrefix: 'C', properties: props(65) })).toEqual(dispatchError('PropertyLimitReached'));
    expect(await outcome(api, 'POST', '/v1/collections/properties', { collectionId, properties: props(65) })).toEqual(dispatchError('PropertyLimitReached'));
    expect(await outcome(api, 'POST', '/v1/collections/properties', { collectionId, properties: [{ key: 'k'.repeat(257), value: 'v' }] })).toEqual(dispatchError('PropertyKeyIsTooLong'));
    expect(await outcome(api, 'POST', '/v1/collections/properties', { collectionId, properties: [{ key: 'k', value: 'v'.repeat(32_769) }] })).toEqual(dispatchError('NoSpaceForProperty'));
    expect(await outcome(api, 'POST', '/v1/tokens/properties', { collectionId, tokenId, properties: props(65) })).toEqual(dispatchError('PropertyLimitReached'));
    expect(await outcome(api, 'DELETE', '/v1/collections/properties', { collectionId, propertyKeys: props(65).map((p) => p.key) })).toEqual(dispatchError('PropertyLimitReached', 'DELETE'));
    // The chain's message repeats the key; the answer quotes at most a short piece of it, in the result and the status.
    const long = await api.request('POST', '/v1/collections/properties?use=Result', { address: ALICE, collectionId, properties: [{ key: 'k'.repeat(4_000), value: 'v'.repeat(32_769) }] }, '//Alice');
    expect(long.json.error.message).toMatch(/^Value of property "k{119}… \(4002 characters\) is longer than 32768 bytes$/);
    expect(long.json.error.message.length).toBeLessThan(300);
    expect((await api.get(`/v1/extrinsic/status?hash=${long.json.hash}`)).json.error.message).toBe(long.json.error.message);
  });

  it('unique: creation data, long keys and long values cannot be decoded; set/delete lists of 65 are included and fail', async () => {
    const api = await openApi({ rules: 'unique' });
    const collectionId = await api.createCollection({ tokenPrefix: 'TST' });
    await api.ok('POST', '/v1/collections/property-permissions', { address: ALICE, collectionId, propertyPermissions: permissions(3) });
    const tokenId = await api.mint(collectionId, { properties: [] });
    expect(await outcome(api, 'POST', '/v1/collections', { name: 'c', description: 'd', tokenPrefix: 'C', properties: props(65) })).toEqual(undecodable);
    expect(await outcome(api, 'POST', '/v1/tokens', { collectionId, properties: props(65) })).toEqual(undecodable);
    expect(await outcome(api, 'POST', '/v1/collections/properties', { collectionId, properties: [{ key: 'k'.repeat(257), value: 'v' }] })).toEqual(undecodable);
    expect(await outcome(api, 'POST', '/v1/collections/properties', { collectionId, properties: [{ key: 'k', value: 'v'.repeat(32_769) }] })).toEqual(undecodable);
    expect(await outcome(api, 'POST', '/v1/collections/properties', { collectionId, properties: props(65) })).toEqual(dispatchError('PropertyLimitReached'));
    expect(await outcome(api, 'POST', '/v1/collections/property-permissions', { collectionId, propertyPermissions: permissions(65) })).toEqual(dispatchError('PropertyLimitReached'));
    expect(await outcome(api, 'DELETE', '/v1/tokens/properties', { collectionId, tokenId, propertyKeys: props(65).map((p) => p.key) })).toEqual(dispatchError('PropertyLimitReached', 'DELETE'));
    expect(await outcome(api, 'DELETE', '/v1/collections/properties', { collectionId, propertyKeys: props(65).map((p) => p.key) })).toEqual(dispatchError('PropertyLimitReached', 'DELETE'));
  });

  it("counts the default schema's own properties and permissions toward the 64, and says so", async () => {
    // 60 typed properties, plus the default schema's own: more than 64 in the creation data.
    const body = { address: ALICE, name: 'c', description: 'd', tokenPrefix: 'C', properties: props(60) };
    const spec = await (await openApi({ rules: 'spec' })).request('POST', '/v1/collections?use=Result', body, '//Alice');
    expect(spec.json.error.details.name).toBe('PropertyLimitReached');
    expect(spec.json.error.message).toMatch(/^The new collection's creation data has 6\d properties .*at most 64, and a schema's own properties count too$/);
    const unique = await (await openApi({ rules: 'unique' })).request('POST', '/v1/collections?use=Result', body, '//Alice');
    expect(unique.status).toBe(400);
    expect(unique.json.error.message).toMatch(/6\d properties in the new collection's creation data, a schema's own included \(the chain's bound is 64\)/);
    const permissionsOver = await (await openApi({ rules: 'spec' })).request('POST', '/v1/collections?use=Result', { ...body, properties: [], tokenPropertyPermissions: permissions(60) }, '//Alice');
    expect(permissionsOver.json.error.message).toMatch(/creation data has \d+ token property permissions/);
  });

  it('still refuses a list, key or value past the request bounds with a 400 that names the field', async () => {
    const api = await openApi();
    const collectionId = await api.createCollection();
    const build = (properties: unknown) => api.request('POST', '/v1/collections/properties?use=Build', { address: ALICE, collectionId, properties });
    for (const [properties, message] of [
      [props(1_025), 'properties must have at most 1024 items'],
      [[{ key: 'k'.repeat(4_097), value: 'v' }], 'key must be at most 4096 characters long'],
      [[{ key: 'k', value: 'v'.repeat(262_145) }], 'value must be at most 262144 characters long']
    ] as const) {
      const refused = await build(properties);
      expect(refused.status).toBe(400);
      expect(refused.json.error.message).toContain(message);
    }
  });
});
