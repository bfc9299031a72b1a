import { describe, expect, it } from 'vitest';
import type { MutationRequest, Property } from '../types';
import { buildPlan } from './plan';
import { finishedRecords, newRecord, readRecords, saveRecord, unfinishedRecord, MAX_RECORDS, type RunRecord } from './record';
import { PublishStepError, runPlan, type PublishTarget, type RunDeps } from './run';
import { CID_A, CID_B, ME, sourceOf } from './testing/source';

interface FakeToken {
  owner: string;
  properties: Property[];
  parent: number | null;
}

/** A target network in memory: collections, tokens, admins and a file store; calls applied as the REST routes would. */
function fakeTarget() {
  const collections = new Map<number, { id: number; name: string; tokenPrefix: string; owner: string; admins: string[]; tokens: Map<number, FakeToken>; limits: Record<string, unknown> }>();
  const files = new Set<string>();
  const executed: string[] = [];
  let failAt: ((call: MutationRequest) => boolean) | null = null;
  const target: PublishTarget = {
    collection: async (id) => (collections.has(id) ? ({ ...collections.get(id)!, collectionId: id } as never) : null),
    collections: async ({ owner } = {}) => [...collections.values()].filter((c) => !owner || c.owner === owner).reverse() as never,
    collectionAdmins: async (id) => collections.get(id)?.admins ?? [],
    tokenIds: async (id) => [...(collections.get(id)?.tokens.keys() ?? [])],
    token: async (collectionId, tokenId) => {
      const t = collections.get(collectionId)!.tokens.get(tokenId)!;
      return { collectionId, tokenId, owner: t.owner, properties: t.properties, nestingParentToken: t.parent === null ? null : { collectionId, tokenId: t.parent } };
    },
    upload: async (blob) => {
      const cid = await blob.text();
      files.add(cid);
      return { cid, fileUrl: `http://target.test/ipfs/${cid}` };
    }
  };
  const execute = async (call: MutationRequest): Promise<{ parsed: unknown; fee?: string }> => {
    if (failAt?.(call)) throw new Error('The service answered 503');
    executed.push(call.path);
    const b = call.body as Record<string, any>;
    const c = collections.get(b.collectionId ?? b.nested?.collectionId);
    switch (call.path) {
      case '/collections': {
        const id = collections.size + 1;
        collections.set(id, { id, name: b.name, tokenPrefix: b.tokenPrefix, owner: b.address, admins: [], tokens: new Map(), limits: b.limits ?? {} });
        return { parsed: { collectionId: id }, fee: '1 OPL' };
      }
      case '/tokens/create-multiple':
        return {
          parsed: b.tokens.map((t: { owner: string; properties: Property[] }) => {
            const tokenId = c!.tokens.size + 1;
            c!.tokens.set(tokenId, { owner: t.owner, properties: t.properties, parent: null });
            return { collectionId: b.collectionId, tokenId };
          }),
          fee: '0.5 OPL'
        };
      case '/tokens/nest': {
        const child = c!.tokens.get(b.nested.tokenId)!;
        child.parent = b.parent.tokenId;
        child.owner = `nest:${b.parent.tokenId}`;
        return { parsed: b.nested };
      }
      case '/tokens/transfer':
        c!.tokens.get(b.tokenId)!.owner = b.to;
        return { parsed: {} };
      case '/collections/admins':
        c!.admins.push(b.newAdmin);
        return { parsed: {} };
      default:
        throw new Error(`unexpected ${call.path}`);
    }
  };
  return { target, files, executed, collections, execute, failWhen: (f: typeof failAt) => (failAt = f) };
}

function depsOf(fake: ReturnType<typeof fakeTarget>, saved: RunRecord[] = []): RunDeps {
  return {
    target: fake.target,
    sourceFile: async (cid) => new Blob([cid]),
    targetHasFile: async (url) => fake.files.has(url.split('/').pop()!),
    execute: (call) => fake.execute(call),
    save: (record) => saved.push(structuredClone(record)),
    sourceGateway: 'http://sandbox.test/ipfs'
  };
}

const plan = () =>
  buildPlan(sourceOf({ admins: ['5DAAnrj7VHTznn2AWBemMuyBwZWs6FNFjdyVXUeYum3PTXFy'] }), ME, [
    { cid: CID_A, bytes: 10 },
    { cid: CID_B, bytes: 20 }
  ]);
/** Source tokens 1, 2, 4, 5 become target tokens 1–4. */
const TOKEN_MAP = [
  [1, 1],
  [2, 2],
  [4, 3],
  [5, 4]
];
const record = () => newRecord({ sourceBaseUrl: 'http://sandbox.test/sandbox/v1', sourceCollectionId: 7, targetBaseUrl: 'http://target.test/v1', signer: ME }, 1);

describe('publish run', () => {
  it('recreates the collection: files, collection, admin, tokens with rewritten files, bundles, owners', async () => {
    const fake = fakeTarget();
    const done = await runPlan(plan(), record(), depsOf(fake));
    expect(fake.executed).toEqual(['/collections', '/collections/admins', '/tokens/create-multiple', '/tokens/nest', '/tokens/nest', '/tokens/transfer']);
    const tokens = fake.collections.get(1)!.tokens;
    expect(tokens.size).toBe(4);
    expect(tokens.get(1)).toEqual({ owner: '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty', properties: [{ key: 'i.c', value: `http://target.test/ipfs/${CID_B}` }], parent: null });
    expect([tokens.get(2)!.parent, tokens.get(4)!.parent]).toEqual([1, 2]);
    expect(done.finishedAt).not.toBeNull();
    expect(done.fees).toEqual({ create: '1 OPL', 'mint:1-5': '0.5 OPL' });
    // Source ids with a gap are minted one after another on the target: the record keeps the map.
    expect(done.tokenMap).toEqual(TOKEN_MAP);
  });

  it('resumes after a refused call: reads the target and skips what is there, no duplicates', async () => {
    const fake = fakeTarget();
    const p = plan();
    const r = record();
    fake.failWhen((call) => call.path === '/tokens/nest');
    const failure = await runPlan(p, r, depsOf(fake)).catch((e) => e);
    expect(failure).toBeInstanceOf(PublishStepError);
    expect(failure.message).toBe('Nest token 4 into token 2: The service answered 503');
    expect(r.failure?.step).toBe('nest:5');
    expect(r.targetCollectionId).toBe(1);

    fake.failWhen(null);
    fake.executed.length = 0;
    await runPlan(p, r, depsOf(fake));
    expect(fake.executed).toEqual(['/tokens/nest', '/tokens/nest', '/tokens/transfer']);
    expect(fake.collections.size).toBe(1);
    expect(fake.collections.get(1)!.tokens.size).toBe(4);
    expect(r.failure).toBeNull();
  });

  it('after a create whose answer never came, adopts the collection the target has, not a second one', async () => {
    const fake = fakeTarget();
    const p = plan();
    const r = record();
    // The create goes through, but the answer is lost.
    const deps = depsOf(fake);
    deps.execute = async (call) => {
      await fake.execute(call);
      throw new Error('Could not reach http://target.test/v1: Failed to fetch');
    };
    await expect(runPlan(p, r, deps)).rejects.toThrow(/Create collection “Birds”: Could not reach/);
    expect(r.targetCollectionId).toBeNull();
    expect(r.inFlight).toBe('create');
    fake.executed.length = 0;
    await runPlan(p, r, depsOf(fake));
    expect(fake.collections.size).toBe(1);
    expect(fake.executed[0]).toBe('/collections/admins');
  });

  it('refuses to resume into a collection that changed outside the run', async () => {
    const fake = fakeTarget();
    const p = plan();
    const r = record();
    fake.failWhen((call) => call.path === '/tokens/nest');
    await runPlan(p, r, depsOf(fake)).catch(() => {});
    fake.failWhen(null);
    fake.collections.get(1)!.tokens.get(1)!.properties = [{ key: 'i.c', value: 'changed' }];
    await expect(runPlan(p, r, depsOf(fake))).rejects.toThrow(/Token 1 on the target has other properties than source token 1/);
  });

  it('keeps the newest records, finds the unfinished run of a source, target and signer', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    for (let i = 0; i < MAX_RECORDS + 5; i++) saveRecord(storage, newRecord({ sourceBaseUrl: 's', sourceCollectionId: i, targetBaseUrl: 't', signer: ME }, i));
    expect(readRecords(storage)).toHaveLength(MAX_RECORDS);
    expect(unfinishedRecord(storage, { sourceBaseUrl: 's', sourceCollectionId: 24, targetBaseUrl: 't', signer: ME })?.startedAt).toBe(24);
    expect(unfinishedRecord(storage, { sourceBaseUrl: 's', sourceCollectionId: 0, targetBaseUrl: 't', signer: ME })).toBeNull();
    // A finished run is found per source collection, the newest one on each target.
    const finished = (start: number, target: string, collectionId: number) => ({ ...newRecord({ sourceBaseUrl: 's', sourceCollectionId: 99, targetBaseUrl: target, signer: ME }, start), finishedAt: start + 1, targetCollectionId: collectionId });
    saveRecord(storage, finished(100, 't1', 3));
    saveRecord(storage, finished(101, 't1', 4));
    saveRecord(storage, finished(102, 't2', 1));
    saveRecord(storage, { ...newRecord({ sourceBaseUrl: 's', sourceCollectionId: 99, targetBaseUrl: 't3', signer: ME }, 103) });
    expect(finishedRecords(storage, { sourceBaseUrl: 's', sourceCollectionId: 99 }).map((r) => [r.targetBaseUrl, r.targetCollectionId])).toEqual([
      ['t2', 1],
      ['t1', 4]
    ]);
    expect(finishedRecords(storage, { sourceBaseUrl: 'other', sourceCollectionId: 99 })).toEqual([]);
    store.set('opalite.publish-runs', 'not json');
    expect(readRecords(storage)).toEqual([]);
  });
});
