// Collection routes, driven through the real handler over an in-memory ledger.
import { beforeEach, describe, expect, it } from 'vitest';
import { ALICE, BOB, CHARLIE, openApi, type Api } from './route-test-kit';

let api: Api;

beforeEach(async () => {
  api = await openApi();
});

function expectError(answer: { status: number; json: any }, status: number, name: string, message?: string | RegExp) {
  expect(answer.status, JSON.stringify(answer.json)).toBe(status);
  expect(answer.json.error.name).toBe(name);
  expect(typeof answer.json.error.code).toBe('string');
  expect(answer.json.error.message).not.toBe('');
  if (message instanceof RegExp) expect(answer.json.error.message).toMatch(message);
  else if (message !== undefined) expect(answer.json.error.message).toBe(message);
}

describe('create and get collection', () => {
  it('creates a collection and reads it at every path spelling', async () => {
    const id = await api.createCollection({ name: 'Opals', description: 'Shiny', tokenPrefix: 'OPL' });
    expect(id).toBe(1);
    for (const path of ['/v1/collections', '/collections', '/v1/collection', '/collection']) {
      const { status, json } = await api.get(`${path}?collectionId=1`);
      expect(status).toBe(200);
      expect(json).toMatchObject({ id: 1, owner: ALICE, mode: 'NFT', name: 'Opals', description: 'Shiny', tokenPrefix: 'OPL', readOnly: false, sponsorship: null });
      expect(json.permissions.access).toBe('Normal');
      expect(json.schema).toMatchObject({ schemaName: 'unique', schemaVersion: '1.0.0' });
      expect(Object.keys(json.limits)).toHaveLength(9);
      expect(json.properties.some((p: { key: string }) => p.key === 'schemaName')).toBe(true);
    }
  });

  it('answers null with 200 for an unknown collection', async () => {
    const { status, json } = await api.get('/v1/collections?collectionId=42');
    expect(status).toBe(200);
    expect(json).toBeNull();
  });

  it('rejects bad ids with a ValidationError', async () => {
    for (const bad of ['foo', '0', '-1', '1.5', '', '4294967296']) {
      expectError(await api.get(`/v1/collections?collectionId=${bad}`), 400, 'ValidationError', /collectionId/);
    }
    expectError(await api.get('/v1/collections'), 400, 'ValidationError', /collectionId/);
  });

  it('reads at the block that at / blockHashAt names, and refuses a hash that is not a block hash', async () => {
    const before = (await api.ledger.head()).hash;
    await api.createCollection();
    expect((await api.get(`/v1/collections?collectionId=1&at=${before}`)).json).toBeNull();
    expect((await api.get(`/v1/collections?collectionId=1&blockHashAt=${before}`)).json).toBeNull();
    expect((await api.get('/v1/collections?collectionId=1')).json.id).toBe(1);
    const { status, json } = await api.get('/v1/collections?collectionId=1&at=0x1234&blockHashAt=0xabcd');
    expect(status).toBe(400);
    expect(json.error.message).toMatch(/block hash/);
  });

  it('builds a payload by default (no use)', async () => {
    const { status, json } = await api.request('POST', '/v1/collections', { address: ALICE, name: 'A', description: 'B', tokenPrefix: 'C' });
    expect(status).toBe(201);
    expect(json.signerPayloadJSON.address).toBe(ALICE);
    expect(json.signerPayloadHex).toMatch(/^0x[0-9a-f]+$/);
  });

  it('submits with SubmitWatch and reports the status', async () => {
    const { status, json } = await api.request('POST', '/v1/collections?use=SubmitWatch', { address: ALICE, name: 'A', description: 'B', tokenPrefix: 'C' }, '//Alice');
    expect(status).toBe(201);
    const record = await api.get(`/v1/extrinsic/status?hash=${json.hash}`);
    expect(record.json).toMatchObject({ isCompleted: true, isError: false, parsed: { collectionId: 1 } });
  });

  it('accepts mode Nft and WhiteList, answers NFT and AllowList', async () => {
    await api.createCollection({ mode: 'Nft', permissions: { access: 'WhiteList', mintMode: true } });
    const { json } = await api.get('/v1/collections?collectionId=1');
    expect(json.mode).toBe('NFT');
    expect(json.permissions).toMatchObject({ access: 'AllowList', mintMode: true });
  });

  it('creates Fungible collections with decimals, ignores decimals for NFT', async () => {
    await api.createCollection({ mode: 'Fungible', decimals: 6 });
    await api.createCollection({ decimals: 6 });
    expect((await api.get('/v1/collections?collectionId=1')).json).toMatchObject({ mode: 'Fungible', decimals: 6 });
    expect((await api.get('/v1/collections?collectionId=2')).json).toMatchObject({ mode: 'NFT', decimals: 0 });
  });

  it('takes sponsorship, limits, explicit properties, permissions and admins at creation', async () => {
    await api.createCollection({
      sponsorship: { address: BOB },
      limits: { tokenLimit: 10, ownerCanDestroy: true },
      metaUpdatePermission: 'ItemOwner',
      properties: [{ key: 'extra', value: 'yes' }],
      tokenPropertyPermissions: [{ key: 'color', permission: { mutable: true, tokenOwner: true, collectionAdmin: false } }],
      adminList: [CHARLIE]
    });
    const { json } = await api.get('/v1/collections?collectionId=1');
    expect(json.sponsorship).toEqual({ address: BOB, isConfirmed: false });
    expect(json.limits.tokenLimit).toBe(10);
    expect(json.properties).toContainEqual({ key: 'extra', value: 'yes', valueHex: '0x796573' });
    expect(json.tokenPropertyPermissions).toContainEqual({ key: 'color', permission: { mutable: true, tokenOwner: true, collectionAdmin: false } });
    expect(json.admins).toEqual([CHARLIE]);
  });

  it('validates the create body', async () => {
    const base = { address: ALICE, name: 'A', description: 'B', tokenPrefix: 'C' };
    const post = (body: unknown) => api.request('POST', '/v1/collections', body);
    expectError(await post({ ...base, name: 'x'.repeat(65) }), 400, 'ValidationError', /name/);
    expectError(await post({ ...base, name: '😀'.repeat(33) }), 400, 'ValidationError', /name/);
    expect((await post({ ...base, name: '😀'.repeat(32) })).status).toBe(201);
    expectError(await post({ ...base, description: 'x'.repeat(257) }), 400, 'ValidationError', /description/);
    expectError(await post({ ...base, tokenPrefix: 'ABCDE' }), 400, 'ValidationError', /prefix/i);
    expectError(await post({ ...base, mode: 'Bogus' }), 400, 'ValidationError', /mode/);
    expectError(await post({ ...base, address: 'nobody' }), 400, 'ValidationError', /Invalid address: nobody/);
    expectError(await post({ name: 'A', description: 'B', tokenPrefix: 'C' }), 400, 'ValidationError', /address/);
    expectError(await post({ ...base, schema: { schemaName: 'other' } }), 400, 'ValidationError');
    expectError(await post({ ...base, limits: { tokenLimit: -1 } }), 400, 'ValidationError', /limits/);
    expectError(await post({ ...base, limits: { tokenLimit: 2 ** 32 } }), 400, 'ValidationError', /encoded/);
    expectError(await post({ ...base, properties: 'no' }), 400, 'ValidationError', /properties/);
    expectError(await api.request('POST', '/v1/collections', undefined), 400, 'ValidationError');
  });

  it('follows the unique rule set for the token prefix', async () => {
    const unique = await openApi({ rules: 'unique' });
    const { status } = await unique.request('POST', '/v1/collections', { address: ALICE, name: 'A', description: 'B', tokenPrefix: 'ABCDEFGHIJKLMNOP' });
    expect(status).toBe(201);
    const tooLong = await unique.request('POST', '/v1/collections', { address: ALICE, name: 'A', description: 'B', tokenPrefix: 'ABCDEFGHIJKLMNOPQ' });
    expect(tooLong.status).toBe(400);
  });
});

describe('collection properties and property permissions', () => {
  it('sets, filters and deletes collection properties', async () => {
    await api.createCollection({ schema: undefined });
    const set = await api.ok('POST', '/v1/collections/properties', { address: ALICE, collectionId: 1, properties: [{ key: 'a', value: '1' }, { key: 'b', value: '2' }, { key: 'c', value: '3' }] });
    expect(set.properties).toEqual([
      { collectionId: 1, propertyKey: 'a' },
      { collectionId: 1, propertyKey: 'b' },
      { collectionId: 1, propertyKey: 'c' }
    ]);
    const keys = (json: any) => json.properties.map((p: { key: string }) => p.key);
    expect(keys((await api.get('/v1/collections/properties?collectionId=1&propertyKeys[]=a&propertyKeys[]=b')).json)).toEqual(['a', 'b']);
    expect(keys((await api.get('/collections/properties?collectionId=1&propertyKeys=a&propertyKeys=c')).json)).toEqual(['a', 'c']);
    expect((await api.get('/collection/properties?collectionId=1&propertyKeys=b')).json).toEqual({ properties: [{ key: 'b', value: '2', valueHex: '0x32' }] });
    expect(keys((await api.get('/v1/collections/properties?collectionId=1')).json)).toContain('schemaName');

    const deleted = await api.ok('DELETE', '/v1/collections/properties', { address: ALICE, collectionId: 1, propertyKeys: ['a', 'b'] });
    expect(deleted.properties).toEqual([
      { collectionId: 1, propertyKey: 'a' },
      { collectionId: 1, propertyKey: 'b' }
    ]);
    expect((await api.get('/v1/collections/properties?collectionId=1&propertyKeys=a')).json).toEqual({ properties: [] });
  });

  it('answers an empty list for an unknown collection', async () => {
    expect((await api.get('/v1/collections/properties?collectionId=9')).json).toEqual({ properties: [] });
    expect((await api.get('/v1/collections/property-permissions?collectionId=9')).json).toEqual({ propertyPermissions: [] });
    expect((await api.get('/v1/collections/admins?collectionId=9')).json).toEqual({ admins: [] });
  });

  it('sets and reads token property permissions', async () => {
    await api.createCollection();
    const parsed = await api.ok('POST', '/v1/collections/property-permissions', {
      address: ALICE,
      collectionId: 1,
      propertyPermissions: [{ key: 'color', permission: { mutable: true, tokenOwner: true } }]
    });
    expect(parsed.propertyPermissions).toEqual([{ collectionId: 1, propertyKey: 'color' }]);
    const { json } = await api.get('/collection/property-permissions?collectionId=1&propertyKeys[]=color&propertyKeys[]=n');
    expect(json.propertyPermissions).toEqual([
      { key: 'color', permission: { mutable: true, tokenOwner: true, collectionAdmin: false } },
      { key: 'n', permission: { mutable: false, tokenOwner: false, collectionAdmin: true } }
    ]);
    const one = await api.get('/v1/collections/property-permissions?collectionId=1&propertyKeys=color');
    expect(one.json.propertyPermissions).toHaveLength(1);
  });
});

describe('limits, permissions, transfers-enabled, owner', () => {
  it('reads effective limits and sets them', async () => {
    await api.createCollection();
    const before = await api.get('/v1/collections/limits?collectionId=1');
    expect(before.status).toBe(200);
    expect(before.json.collectionId).toBe(1);
    expect(before.json.limits).toMatchObject({ tokenLimit: 4294967295, ownerCanTransfer: true, ownerCanDestroy: true, transfersEnabled: true, sponsoredDataRateLimit: null });
    const parsed = await api.ok('POST', '/v1/collections/set-limits', { address: ALICE, collectionId: 1, limits: { tokenLimit: 3 } });
    expect(parsed).toMatchObject({ collectionId: 1, limits: { tokenLimit: 3 } });
    expect((await api.get('/collection/limits?collectionId=1')).json.limits.tokenLimit).toBe(3);
  });

  it('answers 404 CollectionNotFoundError for the limits of an unknown collection', async () => {
    expectError(await api.get('/v1/collections/limits?collectionId=5'), 404, 'CollectionNotFoundError', 'Collection not found');
  });

  it('reports a dispatch error for a non-owner setting limits', async () => {
    await api.createCollection();
    const result = await api.submit('POST', '/v1/collections/set-limits', { address: BOB, collectionId: 1, limits: { tokenLimit: 3 } }, '//Bob');
    expect(result.isError).toBe(true);
    expect(result.error?.message).toBeTruthy();
  });

  it('sets permissions (WhiteList answered as AllowList) and nesting', async () => {
    await api.createCollection();
    const parsed = await api.ok('POST', '/v1/collections/permissions', {
      address: ALICE,
      collectionId: 1,
      permissions: { access: 'WhiteList', mintMode: true, nesting: { tokenOwner: true, collectionAdmin: false } }
    });
    expect(parsed).toEqual({ collectionId: 1 });
    const { json } = await api.get('/v1/collections?collectionId=1');
    expect(json.permissions).toMatchObject({ access: 'AllowList', mintMode: true, nesting: { tokenOwner: true, collectionAdmin: false } });
  });

  it('rejects bad permissions', async () => {
    await api.createCollection();
    const answer = await api.request('POST', '/v1/collections/permissions', { address: ALICE, collectionId: 1, permissions: { access: 'Private' } });
    expectError(answer, 400, 'ValidationError', /access/);
  });

  it('sets transfers enabled', async () => {
    await api.createCollection();
    expect(await api.ok('POST', '/v1/collections/transfers-enabled', { address: ALICE, collectionId: 1, isEnabled: false })).toMatchObject({ success: true });
    expect((await api.get('/v1/collections/limits?collectionId=1')).json.limits.transfersEnabled).toBe(false);
    expectError(await api.request('POST', '/v1/collections/transfers-enabled', { address: ALICE, collectionId: 1, isEnabled: 'no' }), 400, 'ValidationError', /isEnabled/);
  });

  it('changes the owner with `address` or the older `from`', async () => {
    await api.createCollection();
    expect(await api.ok('PATCH', '/v1/collections/transfer', { collectionId: 1, address: ALICE, to: BOB })).toEqual({ collectionId: 1, owner: BOB });
    expect(await api.ok('PATCH', '/collection/transfer', { collectionId: 1, from: BOB, to: CHARLIE }, '//Bob')).toEqual({ collectionId: 1, owner: CHARLIE });
    expect((await api.get('/v1/collections?collectionId=1')).json.owner).toBe(CHARLIE);
    expectError(await api.request('PATCH', '/v1/collections/transfer', { collectionId: 1, to: BOB }), 400, 'ValidationError', /address/);
  });

  it('refuses an Ethereum address as the new owner or the sponsor: the chain takes an AccountId there', async () => {
    await api.createCollection();
    const eth = '0x1234567890123456789012345678901234567890';
    expectError(await api.request('PATCH', '/v1/collections/transfer?use=Build', { collectionId: 1, address: ALICE, to: eth }), 400, 'ValidationError', /to must be a Substrate account/);
    expectError(await api.request('POST', '/v1/collections/sponsorship?use=Build', { collectionId: 1, address: ALICE, newSponsor: eth }), 400, 'ValidationError', /newSponsor must be a Substrate account/);
    expect((await api.get('/v1/collections?collectionId=1')).json).toMatchObject({ owner: ALICE, sponsorship: null });
  });
});

describe('admins, sponsorship, allow list', () => {
  it('adds, lists and removes admins', async () => {
    await api.createCollection();
    expect(await api.ok('POST', '/v1/collections/admins', { address: ALICE, collectionId: 1, newAdmin: BOB })).toEqual({ collectionId: 1, newAdmin: BOB });
    expect((await api.get('/collection/admins?collectionId=1')).json).toEqual({ admins: [BOB] });
    expect(await api.ok('DELETE', '/v1/collections/admins', { address: ALICE, collectionId: 1, admin: BOB })).toEqual({ collectionId: 1, admin: BOB });
    expect((await api.get('/v1/collections/admins?collectionId=1')).json).toEqual({ admins: [] });
  });

  it('sets, confirms and removes a sponsor', async () => {
    await api.createCollection();
    expect(await api.ok('POST', '/v1/collections/sponsorship', { address: ALICE, collectionId: 1, newSponsor: BOB })).toEqual({ collectionId: 1, sponsor: BOB });
    expect((await api.get('/v1/collections?collectionId=1')).json.sponsorship).toEqual({ address: BOB, isConfirmed: false });
    expect(await api.ok('POST', '/collection/sponsorship/confirm', { address: BOB, collectionId: 1 }, '//Bob')).toEqual({ collectionId: 1, sponsor: BOB });
    expect((await api.get('/v1/collections?collectionId=1')).json.sponsorship).toEqual({ address: BOB, isConfirmed: true });
    expect(await api.ok('DELETE', '/v1/collections/sponsorship', { address: ALICE, collectionId: 1 })).toEqual({ collectionId: 1 });
    expect((await api.get('/v1/collections?collectionId=1')).json.sponsorship).toBeNull();
  });

  it('adds to and removes from the allow list under every spelling', async () => {
    await api.createCollection();
    expect(await api.ok('POST', '/v1/collections/add-to-allow-list', { address: ALICE, collectionId: 1, newAdminId: BOB })).toEqual({ collectionId: 1, address: BOB });
    await api.ok('POST', '/collections/add-allow-list', { address: ALICE, collectionId: 1, member: CHARLIE });
    expect((await api.get('/v1/collections/allow-list?collectionId=1')).json.addresses.sort()).toEqual([BOB, CHARLIE].sort());
    expect((await api.get(`/collection/allowed?collectionId=1&address=${BOB}`)).json).toEqual({ isAllowed: true });
    expect((await api.get(`/v1/collections/allowed?collectionId=1&address=${ALICE}`)).json).toEqual({ isAllowed: false });
    await api.ok('POST', '/collection/remove-from-allow-list', { address: ALICE, collectionId: 1, addressToDelete: BOB });
    expect((await api.get('/v1/collections/allow-list?collectionId=1')).json).toEqual({ addresses: [CHARLIE] });
    expectError(await api.request('POST', '/v1/collections/add-to-allow-list', { address: ALICE, collectionId: 1 }), 400, 'ValidationError', /newAdminId/);
    expectError(await api.request('POST', '/v1/collections/remove-from-allow-list', { address: ALICE, collectionId: 1 }), 400, 'ValidationError', /addressToDelete/);
  });

  it('answers 404 for allow-list reads of an unknown collection', async () => {
    expectError(await api.get('/v1/collections/allow-list?collectionId=3'), 404, 'CollectionNotFoundError');
    expectError(await api.get(`/v1/collections/allowed?collectionId=3&address=${BOB}`), 404, 'CollectionNotFoundError');
    expectError(await api.get('/v1/collections/allowed?collectionId=1&address=bob'), 400, 'ValidationError', /Invalid address/);
  });
});

describe('token counts, stats, list, destroy', () => {
  it('counts tokens', async () => {
    await api.createCollection();
    await api.mint(1);
    await api.mint(1);
    await api.mint(1);
    await api.ok('DELETE', '/v1/tokens', { address: ALICE, collectionId: 1, tokenId: 2 });
    expect((await api.get('/v1/collections/tokens?collectionId=1')).json).toEqual({ ids: [1, 3] });
    expect((await api.get('/collection/last-token-id?collectionId=1')).json).toEqual({ tokenId: 3 });
    expect((await api.get('/v1/collections/total-supply?collectionId=1')).json).toEqual({ totalSupply: 2 });
    for (const path of ['tokens', 'last-token-id', 'total-supply']) {
      expectError(await api.get(`/v1/collections/${path}?collectionId=7`), 404, 'CollectionNotFoundError');
    }
  });

  it('destroys a collection and counts it in stats', async () => {
    await api.createCollection();
    await api.createCollection();
    expect((await api.get('/v1/collections/stats')).json).toEqual({ created: 2, destroyed: 0, alive: 2 });
    expect(await api.ok('DELETE', '/v1/collections', { address: ALICE, collectionId: 1 })).toMatchObject({ success: true, collectionId: 1 });
    expect((await api.get('/v1/collections?collectionId=1')).json).toBeNull();
    expect((await api.get('/collection/stats')).json).toEqual({ created: 2, destroyed: 1, alive: 1 });
  });

  it('lists collections newest first, by owner, with limit and before (Opalite extension)', async () => {
    await api.createCollection();
    await api.createCollection({}, '//Bob', BOB);
    await api.createCollection();
    await api.createCollection();
    await api.ok('DELETE', '/v1/collections', { address: ALICE, collectionId: 3 });
    const ids = (json: any) => json.collections.map((c: { id: number }) => c.id);
    expect(ids((await api.get('/v1/collections/list')).json)).toEqual([4, 2, 1]);
    expect(ids((await api.get(`/v1/collections/list?owner=${ALICE}`)).json)).toEqual([4, 1]);
    expect(ids((await api.get('/collection/list?limit=2')).json)).toEqual([4, 2]);
    expect(ids((await api.get('/v1/collections/list?limit=2&before=2')).json)).toEqual([1]);
    expectError(await api.get('/v1/collections/list?limit=0'), 400, 'ValidationError', /limit/);
    expectError(await api.get('/v1/collections/list?owner=x'), 400, 'ValidationError', /Invalid address/);
  });

  it('checks at build that the collection of a mutation exists', async () => {
    const missing = [
      ['DELETE', '/v1/collections', { address: ALICE, collectionId: 9 }],
      ['POST', '/v1/collections/properties', { address: ALICE, collectionId: 9, properties: [] }],
      ['DELETE', '/v1/collections/properties', { address: ALICE, collectionId: 9, propertyKeys: ['a'] }],
      ['POST', '/v1/collections/set-limits', { address: ALICE, collectionId: 9, limits: {} }],
      ['POST', '/v1/collections/permissions', { address: ALICE, collectionId: 9, permissions: {} }],
      ['POST', '/v1/collections/property-permissions', { address: ALICE, collectionId: 9, propertyPermissions: [] }],
      ['POST', '/v1/collections/transfers-enabled', { address: ALICE, collectionId: 9, isEnabled: true }],
      ['PATCH', '/v1/collections/transfer', { address: ALICE, collectionId: 9, to: BOB }],
      ['POST', '/v1/collections/admins', { address: ALICE, collectionId: 9, newAdmin: BOB }],
      ['DELETE', '/v1/collections/admins', { address: ALICE, collectionId: 9, admin: BOB }],
      ['POST', '/v1/collections/sponsorship', { address: ALICE, collectionId: 9, newSponsor: BOB }],
      ['POST', '/v1/collections/sponsorship/confirm', { address: ALICE, collectionId: 9 }],
      ['DELETE', '/v1/collections/sponsorship', { address: ALICE, collectionId: 9 }],
      ['POST', '/v1/collections/add-to-allow-list', { address: ALICE, collectionId: 9, newAdminId: BOB }],
      ['POST', '/v1/collections/remove-from-allow-list', { address: ALICE, collectionId: 9, addressToDelete: BOB }]
    ] as const;
    for (const [method, path, body] of missing) {
      const answer = await api.request(method, path, body);
      expectError(answer, 400, 'CollectionNotFoundError', 'Collection not found');
      expect(answer.json.error.code).toBe('UN01013');
    }
  });

  it('rejects bad ids in mutation bodies', async () => {
    for (const collectionId of ['foo', 0, -1, 1.5]) {
      expectError(await api.request('DELETE', '/v1/collections', { address: ALICE, collectionId }), 400, 'ValidationError', /collectionId/);
    }
  });
});

describe('OpenAPI', () => {
  it('documents every collection and token route', async () => {
    const { status, json } = await api.get('/v1/openapi.json');
    expect(status).toBe(200);
    for (const path of ['/collections', '/collections/list', '/collections/add-to-allow-list', '/tokens', '/tokens/get-bundle', '/tokens/nest']) {
      expect(json.paths[`/sandbox/v1${path}`], path).toBeDefined();
    }
    expect(json.paths['/sandbox/v1/collections'].post.summary).toMatch(/Create a collection/);
  });
});
