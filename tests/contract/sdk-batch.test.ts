// `common.batch` of the real @unique-nft/sdk 0.7.7 against the Node host: several calls signed
// once as utility.batch (stops at the first failing call), and BuildBatch payloads submitted.
import type Sdk from '@unique-nft/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../server/host';
import { API_BOUNDS, bodyBytes, planSignatures, tokenBody } from '../../src/lib/client/mint-run';
import type { MintItem } from '../../src/lib/client/mint-list';
import { MAX_CALLS_PER_BATCH, MAX_JSON_BODY_BYTES } from '../../src/lib/limits';
import { ALICE, BOB, custodial, http, isError, startSdkHost } from './support';

let host: RunningHost;
let alice: Sdk;
let bob: Sdk;

beforeAll(async () => ({ host, alice, bob } = await startSdkHost()));
afterAll(() => host?.stop());

async function newCollection(owner = ALICE): Promise<number> {
  const sdk = owner === ALICE ? alice : bob;
  const result = await sdk.collection.create.submitWaitResult({ address: owner, name: 'Batch', description: 'Batch test', tokenPrefix: 'BAT' } as never);
  expect(isError(result)).toBe(false);
  return result.parsed!.collectionId;
}

const mintCall = (collectionId: number, owner = ALICE) => alice.token.create.batchCall({ address: ALICE, collectionId, owner, properties: [] } as never);

describe('common.batch', () => {
  it('mints and transfers in one extrinsic and reports each call parsed', async () => {
    const collectionId = await newCollection();
    expect(isError(await alice.token.create.submitWaitResult({ address: ALICE, collectionId } as never))).toBe(false);
    const result = await alice.common.batch.submitWaitResult({
      address: ALICE,
      calls: [mintCall(collectionId), mintCall(collectionId), alice.token.transfer.batchCall({ address: ALICE, collectionId, tokenId: 1, to: BOB } as never)]
    });
    expect(isError(result)).toBe(false);
    expect(result.parsed!.callResults).toEqual([
      { method: { section: 'unique', method: 'createItem' }, parsed: { collectionId, tokenId: 2 } },
      { method: { section: 'unique', method: 'createItem' }, parsed: { collectionId, tokenId: 3 } },
      { method: { section: 'unique', method: 'transferFrom' }, parsed: expect.objectContaining({ collectionId, tokenId: 1, to: BOB }) }
    ]);
    expect((await alice.token.owner({ collectionId, tokenId: 1 })).owner).toBe(BOB);
    expect((await alice.token.owner({ collectionId, tokenId: 3 })).owner).toBe(ALICE);
  });

  it('builds each call after the ones before it: mint, set the new token’s properties and send it, in one batch', async () => {
    const created = await alice.collection.create.submitWaitResult({
      address: ALICE,
      name: 'Batch',
      description: 'Later calls name a token minted earlier in the batch',
      tokenPrefix: 'BAT',
      tokenPropertyPermissions: [{ key: 'mood', permission: { mutable: true, tokenOwner: true, collectionAdmin: true } }]
    } as never);
    const collectionId = created.parsed!.collectionId;
    // Token 1 does not exist before the batch: its properties and transfer are built after the mint.
    const calls = [
      mintCall(collectionId),
      alice.token.setProperties.batchCall({ address: ALICE, collectionId, tokenId: 1, properties: [{ key: 'mood', value: 'bright' }] } as never),
      alice.token.transfer.batchCall({ address: ALICE, collectionId, tokenId: 1, to: BOB } as never)
    ];
    const result = await alice.common.batch.submitWaitResult({ address: ALICE, calls });
    expect(isError(result)).toBe(false);
    expect(result.parsed!.callResults.map((r: { method: { method: string } }) => r.method.method)).toEqual(['createItem', 'setTokenProperties', 'transferFrom']);
    expect((await alice.token.owner({ collectionId, tokenId: 1 })).owner).toBe(BOB);
    expect((await alice.token.properties({ collectionId, tokenId: 1 })).properties).toContainEqual(expect.objectContaining({ key: 'mood', value: 'bright' }));
    // Building left nothing behind: only the submitted batch minted.
    expect((await alice.collection.lastTokenId({ collectionId })).tokenId).toBe(1);
  });

  it('refuses at Build a call that names what an earlier call of the batch would fail to make', async () => {
    const bobsCollection = await newCollection(BOB);
    // Alice may not mint in Bob's collection, so token 1 never exists for the second call to name.
    const answer = await http(host, 'POST', '/common/batching?use=Build', {
      address: ALICE,
      calls: [mintCall(bobsCollection), alice.token.transfer.batchCall({ address: ALICE, collectionId: bobsCollection, tokenId: 1, to: BOB } as never)]
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body.error)).toMatch(/not found|does not exist/i);
    // Building wrote nothing: the collection still has no token.
    expect((await alice.collection.lastTokenId({ collectionId: bobsCollection })).tokenId).toBe(0);
  });

  it('stops at the first failing call: earlier calls stay, later ones do not run, the extrinsic succeeds', async () => {
    const collectionId = await newCollection();
    // Bob's collection does not let Alice mint: the second call fails on the chain.
    const bobsCollection = await newCollection(BOB);
    const result = await alice.common.batch.submitWaitResult({
      address: ALICE,
      calls: [mintCall(collectionId), mintCall(bobsCollection), mintCall(collectionId)]
    });
    expect(isError(result)).toBe(false);
    expect(result.parsed!.callResults).toEqual([{ method: { section: 'unique', method: 'createItem' }, parsed: { collectionId, tokenId: 1 } }]);
    expect((await alice.collection.lastTokenId({ collectionId })).tokenId).toBe(1);
    expect((await alice.collection.lastTokenId({ collectionId: bobsCollection })).tokenId).toBe(0);
    const record = await http(host, 'GET', `/extrinsic/status?hash=${(result as unknown as { hash: string }).hash}`);
    const events: Array<{ section: string; method: string; data?: unknown }> = record.body?.events ?? [];
    const interrupted = events.find((e) => e.section === 'utility' && e.method === 'BatchInterrupted');
    expect(interrupted?.data).toMatchObject({ index: 1 });
    expect(events.some((e) => e.section === 'utility' && e.method === 'BatchCompleted')).toBe(false);
  });

  it('charges one fee over the whole encoded batch', async () => {
    const collectionId = await newCollection();
    const one = await alice.common.batch.getFee({ address: ALICE, calls: [mintCall(collectionId)] });
    const two = await alice.common.batch.getFee({ address: ALICE, calls: [mintCall(collectionId), mintCall(collectionId)] });
    expect(BigInt(one.fee.raw)).toBeGreaterThan(0n);
    expect(BigInt(two.fee.raw)).toBeGreaterThan(BigInt(one.fee.raw));
  });

  it('refuses bad batches with a ValidationError before signing', async () => {
    const collectionId = await newCollection();
    const refused = async (body: unknown) => {
      const answer = await http(host, 'POST', '/common/batching', body);
      expect(answer.status).toBe(400);
      expect(answer.body.error.name).toBe('ValidationError');
      return answer.body.error.message as string;
    };
    await refused({ address: ALICE, calls: [] });
    await refused({ address: ALICE, calls: 'x' });
    expect(await refused({ address: ALICE, calls: [{ method: { section: 'utility', method: 'batch' }, rawPayload: {} }] })).toMatch(/cannot be batched/);
    expect(await refused({ address: ALICE, calls: [{ method: { section: 'unique', method: 'createItem' }, rawPayload: { address: BOB, collectionId } }] })).toMatch(/signed by/);
    const many = Array.from({ length: MAX_CALLS_PER_BATCH + 1 }, () => mintCall(collectionId));
    expect(await refused({ address: ALICE, calls: many })).toMatch(/at most/);
  });
});

describe('a bulk mint’s signatures', () => {
  it('each fit the API’s body bound when the signed call comes back as hex to decode and submit', async () => {
    const attributesSchema = Object.fromEntries(['Background', 'Eyes', 'Level'].map((name, i) => [String(i), { name: { _: name }, type: 'string' }]));
    const schema = { schemaName: 'unique', schemaVersion: '1.0.0', image: { urlTemplate: '{infix}' }, coverPicture: { url: 'https://example.invalid/c.png' }, attributesSchemaVersion: '1.0.0', attributesSchema: { ...attributesSchema, '3': { name: { _: 'Power' }, type: 'integer' } } };
    const created = await custodial(host, 'POST', '/collections', { address: ALICE, name: 'Drop', description: 'A 10,000-token drop', tokenPrefix: 'DRP', schema });
    const collectionId = created.body.parsed.collectionId as number;
    // Rows as the bulk form plans them: a 10,000-token drop, each with an uploaded image and 4 attributes.
    const items = Array.from({ length: 10_000 }, (_, i) => ({
      data: { name: { _: `Drop #${i + 1}` }, image: { ipfsCid: 'QmR49M9jvrT6KEGHwt9Sqtkzhv1vN8TTpuWvaf1tbaw232' }, attributes: { Background: 'green', Eyes: 'narrow', Level: String(i % 100), Power: i % 1000 } }
    })) as unknown as MintItem[];
    const signatures = planSignatures(items.map((item) => bodyBytes(tokenBody(item))), API_BOUNDS);
    expect(signatures.length).toBeGreaterThan(1);
    const calls = signatures[0].map((call) => ({ method: { section: 'unique', method: 'createMultipleItemsEx' }, rawPayload: { collectionId, tokens: call.map((i) => tokenBody(items[i])) } }));
    const built = await http(host, 'POST', '/common/batching', { address: ALICE, calls });
    expect(built.status).toBe(201);
    const decodeBody = JSON.stringify({ signerPayloadJSON: built.body.signerPayloadJSON });
    expect(decodeBody.length).toBeLessThanOrEqual(MAX_JSON_BODY_BYTES - 1024);
  });
});

describe('BuildBatch', () => {
  it('builds consecutive payloads that can each be signed and submitted', async () => {
    const collectionId = await newCollection();
    const { payloads } = await alice.token.create.buildBatch([
      { address: ALICE, collectionId },
      { address: ALICE, collectionId }
    ] as never);
    expect(payloads).toHaveLength(2);
    const first = await alice.token.create.submitWaitResult(payloads[0] as never);
    const second = await alice.token.create.submitWaitResult(payloads[1] as never);
    expect([isError(first), isError(second)]).toEqual([false, false]);
    expect((await alice.collection.lastTokenId({ collectionId })).tokenId).toBe(2);
  });
});
