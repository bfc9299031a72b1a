// The history routes through the real handler: the dry run, an extrinsic's changes, reads at a
// block, snapshots and revert.
import { describe, expect, it } from 'vitest';
import { LedgerHost } from '../../host/ledger-host';
import { MemoryStore } from '../../ledger/testing/memory-store';
import { devRoutes } from './dev';
import { ALICE, BOB, openApi } from './route-test-kit';

/** The route kit's API, with the dev routes of a host (snapshot, revert) on the same ledger. */
async function openHostApi(shared = false) {
  const host = await LedgerHost.open({ kind: 'node', store: new MemoryStore(), shared, routes: (h) => devRoutes(h) });
  const api = await openApi();
  const request = async (method: string, path: string, body?: unknown, seed?: string) => {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (seed) headers.authorization = `Seed ${seed}`;
    const response = await host.handle(new Request(`http://127.0.0.1/sandbox${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    const text = await response.text();
    return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
  };
  const ok = async (method: string, path: string, body: unknown) => {
    const answer = await request(method, `${path}?use=Result`, body, '//Alice');
    if (answer.status >= 300 || answer.json.isError) throw new Error(`${method} ${path}: ${JSON.stringify(answer.json)}`);
    return answer.json.parsed;
  };
  const createCollection = async () => (await ok('POST', '/v1/collections', { address: ALICE, name: 'Test', description: 'A test', tokenPrefix: 'TST' })).collectionId as number;
  return { ...api, request, get: (path: string) => request('GET', path), ok, createCollection, submit: (m: string, p: string, b: unknown) => request(m, `${p}?use=Result`, b, '//Alice').then((a) => a.json) };
}

/** Build a transfer from Alice and answer its signerPayloadJSON. */
async function transferPayload(api: Awaited<ReturnType<typeof openApi>>, amount: number, to = BOB) {
  const built = await api.request('POST', '/v1/balance/transfer?use=Build', { address: ALICE, destination: to, amount });
  expect(built.status).toBe(201);
  return built.json.signerPayloadJSON;
}

describe('POST /extrinsic/dry-run', () => {
  it('says what a transfer would change (balances, nonce, fee), and writes nothing', async () => {
    const api = await openApi();
    const before = await api.get(`/v1/balance?address=${BOB}`);
    const payload = await transferPayload(api, 5);
    const answer = await api.request('POST', '/v1/extrinsic/dry-run', { signerPayloadJSON: payload });
    expect(answer.status).toBe(200);
    expect(answer.json.ok).toBe(true);
    expect(answer.json.error).toBeNull();
    expect(answer.json.feePayer).toBe(ALICE);
    const changes = answer.json.changes as { kind: string; address?: string; before: unknown; after: unknown }[];
    const bob = changes.find((c) => c.kind === 'balance' && c.address === BOB)!;
    expect(BigInt(bob.after as string) - BigInt(bob.before as string)).toBe(5n * 10n ** 18n);
    const aliceNonce = changes.find((c) => c.kind === 'nonce' && c.address === ALICE)!;
    expect(aliceNonce).toMatchObject({ before: 0, after: 1 });
    const alice = changes.find((c) => c.kind === 'balance' && c.address === ALICE)!;
    expect(BigInt(alice.before as string) - BigInt(alice.after as string)).toBe(5n * 10n ** 18n + BigInt(answer.json.fee.raw));
    expect(answer.json.events.map((e: { method: string }) => e.method)).toContain('Transfer');
    expect(await api.get(`/v1/balance?address=${BOB}`)).toEqual(before);
    expect((await api.get(`/v1/common/nonce?address=${ALICE}`)).json.nonce).toBe(0);
  });

  it('shows a call the chain would refuse as refused, with the chain error, and changes only fee and nonce', async () => {
    // Under the chain's rules the collection owner may not transfer a token it does not hold.
    const api = await openApi({ rules: 'unique' });
    const collectionId = await api.createCollection();
    await api.ok('POST', '/v1/tokens', { address: ALICE, collectionId, owner: BOB });
    const built = await api.request('PATCH', '/v1/tokens/transfer?use=Build', { address: ALICE, collectionId, tokenId: 1, to: ALICE });
    expect(built.status).toBe(200);
    const answer = await api.request('POST', '/v1/extrinsic/dry-run', { signerPayloadJSON: built.json.signerPayloadJSON });
    expect(answer.status).toBe(200);
    expect(answer.json.ok).toBe(false);
    expect(answer.json.error.details).toEqual({ section: 'common', name: 'NoPermission' });
    const kinds = new Set(answer.json.changes.map((c: { kind: string }) => c.kind));
    expect([...kinds].sort()).toEqual(['balance', 'nonce']);
    expect((await api.get(`/v1/tokens?collectionId=${collectionId}&tokenId=1`)).json.owner).toBe(BOB);
  });

  it('runs a payload signed ahead (a sequence), saying which nonces submit needs first; one that waiting extrinsics fill says they wait', async () => {
    const api = await openApi();
    const ahead = await api.request('POST', '/v1/balance/transfer?use=Build&nonce=5', { address: ALICE, destination: BOB, amount: 1 });
    const run = await api.request('POST', '/v1/extrinsic/dry-run', { signerPayloadJSON: ahead.json.signerPayloadJSON });
    expect(run.status).toBe(200);
    expect(run.json.ok).toBe(true);
    // No extrinsic of Alice waits: the note names the nonces missing, not extrinsics that do not exist.
    expect(run.json.notes).toEqual(["Nonce 5 is ahead of the account's next nonce 0: nonces 0–4 must be submitted first, or submit refuses it (what they change is not included here)"]);
    // With nonce 0 waiting for a (manual) block, nonce 1 is next: run, and said to follow what waits.
    api.ledger.setBlockMode({ kind: 'manual' });
    await api.request('POST', '/v1/balance/transfer?use=Submit', { address: ALICE, destination: BOB, amount: 1 }, '//Alice');
    const next = await api.request('POST', '/v1/balance/transfer?use=Build', { address: ALICE, destination: BOB, amount: 1 });
    expect(next.json.signerPayloadJSON.nonce).toBe('0x00000001');
    const filled = await api.request('POST', '/v1/extrinsic/dry-run', { signerPayloadJSON: next.json.signerPayloadJSON });
    expect(filled.json.ok).toBe(true);
    expect(filled.json.notes).toEqual(['1 earlier extrinsic(s) of this account wait for a block: what they change is not included here']);
  });

  it('refuses a payload the signing rule refuses (fewer extensions), before anything', async () => {
    const api = await openApi();
    const payload = await transferPayload(api, 1);
    const answer = await api.request('POST', '/v1/extrinsic/dry-run', { signerPayloadJSON: { ...payload, signedExtensions: payload.signedExtensions.slice(0, -1) } });
    expect(answer.status).toBe(400);
    expect(answer.json.error.name).toBe('BadPayloadError');
  });
});

describe('reads at a block, changes, snapshots and revert', () => {
  it('answers every read at an earlier block as the head answered it then', async () => {
    const api = await openHostApi();
    const collectionId = await api.createCollection();
    await api.ok('POST', '/v1/tokens', { address: ALICE, collectionId, owner: ALICE });
    const head1 = (await api.get('/dev/status')).json;
    const thenToken = await api.get(`/v1/tokens?collectionId=${collectionId}&tokenId=1`);
    const thenAccount = await api.get(`/v1/tokens/account-tokens?collectionId=${collectionId}&address=${ALICE}`);
    const thenBalance = await api.get(`/v1/balance?address=${ALICE}`);
    await api.ok('PATCH', '/v1/tokens/transfer', { address: ALICE, collectionId, tokenId: 1, to: BOB });
    await api.ok('POST', '/v1/tokens', { address: ALICE, collectionId, owner: ALICE });
    const at = head1.head?.hash ?? head1.head;
    expect(typeof at).toBe('string');
    expect(await api.get(`/v1/tokens?collectionId=${collectionId}&tokenId=1&at=${at}`)).toEqual(thenToken);
    expect(await api.get(`/v1/tokens/account-tokens?collectionId=${collectionId}&address=${ALICE}&at=${at}`)).toEqual(thenAccount);
    expect(await api.get(`/v1/balance?address=${ALICE}&blockHashAt=${at}`)).toEqual(thenBalance);
    expect((await api.get(`/v1/tokens?collectionId=${collectionId}&tokenId=2&at=${at}`)).status).toBe(404);
    expect((await api.get(`/v1/tokens?collectionId=${collectionId}&tokenId=1`)).json.owner).toBe(BOB);
  });

  it('refuses at on a route that does not read state at a block, rather than answering the head', async () => {
    const api = await openApi();
    const at = (await api.ledger.head()).hash;
    const answer = await api.get(`/v1/extrinsic/list?at=${at}`);
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toMatch(/takes no at/);
    expect((await api.get('/v1/extrinsic/list')).status).toBe(200);
  });

  it('refuses a malformed or unknown block hash with a 4xx, never the head', async () => {
    const api = await openApi();
    const collectionId = await api.createCollection();
    const malformed = await api.get(`/v1/collections?collectionId=${collectionId}&at=latest`);
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.message).toMatch(/block hash/);
    const unknown = await api.get(`/v1/collections?collectionId=${collectionId}&at=0x${'ab'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.name).toBe('BlockNotFoundError');
  });

  it('reverts to a snapshot: state, nonce and lists as they were; later extrinsics answer Invalid (Reverted)', async () => {
    const api = await openHostApi();
    const collectionId = await api.createCollection();
    const snap = await api.request('POST', '/dev/snapshot', {});
    expect(snap.status).toBe(201);
    const thenBalance = await api.get(`/v1/balance?address=${BOB}`);
    const thenNonce = (await api.get(`/v1/common/nonce?address=${ALICE}`)).json.nonce;
    const minted = await api.submit('POST', '/v1/tokens', { address: ALICE, collectionId, owner: BOB });
    const sent = await api.request('POST', '/v1/balance/transfer?use=Result', { address: ALICE, destination: BOB, amount: 3 }, '//Alice');
    const changes = await api.get(`/v1/extrinsic/changes?hash=${sent.json.hash}`);
    expect(changes.status).toBe(200);
    expect(changes.json.changes.some((c: { kind: string; address?: string }) => c.kind === 'balance' && c.address === BOB)).toBe(true);
    const reverted = await api.request('POST', '/dev/revert', { snapshotId: snap.json.snapshotId });
    expect(reverted.status).toBe(200);
    expect(reverted.json).toEqual({ blockNumber: snap.json.blockNumber, blockHash: snap.json.blockHash });
    expect(await api.get(`/v1/balance?address=${BOB}`)).toEqual(thenBalance);
    expect((await api.get(`/v1/common/nonce?address=${ALICE}`)).json.nonce).toBe(thenNonce);
    expect((await api.get(`/v1/tokens?collectionId=${collectionId}&tokenId=1`)).status).toBe(404);
    const status = await api.get(`/v1/extrinsic/status?hash=${sent.json.hash}`);
    expect(status.json).toMatchObject({ status: 'Invalid', isError: true, error: { details: { name: 'Reverted' } } });
    expect(minted.isCompleted).toBe(true);
    // The same snapshot again, after new blocks.
    await api.ok('POST', '/v1/tokens', { address: ALICE, collectionId, owner: BOB });
    expect((await api.request('POST', '/dev/revert', { snapshotId: snap.json.snapshotId })).status).toBe(200);
    expect((await api.get(`/v1/tokens?collectionId=${collectionId}&tokenId=1`)).status).toBe(404);
  });

  it.each([false, true])('takes a signed extrinsic again once a revert undid it (as after Anvil\'s revert), and only then (shared store: %s)', async (shared) => {
    const api = await openHostApi(shared);
    await api.createCollection();
    const snap = await api.request('POST', '/dev/snapshot', {});
    const built = await api.request('POST', '/v1/balance/transfer?use=Build', { address: ALICE, destination: BOB, amount: 2 });
    const { signature } = (await api.request('POST', '/v1/extrinsic/sign', { signerPayloadJSON: built.json.signerPayloadJSON }, '//Alice')).json;
    const signed = { signerPayloadJSON: built.json.signerPayloadJSON, signature };
    const first = await api.request('POST', '/v1/extrinsic/submit', signed);
    expect(first.status, JSON.stringify(first.json)).toBe(201);
    expect((await api.request('POST', '/v1/extrinsic/submit', signed)).json.error.message).toMatch(/Already Imported/);
    const balanceAfter = (await api.get(`/v1/balance?address=${BOB}`)).json.freeBalance.raw;
    expect((await api.request('POST', '/dev/revert', { snapshotId: snap.json.snapshotId })).status).toBe(200);
    expect((await api.get(`/v1/extrinsic/status?hash=${first.json.hash}`)).json).toMatchObject({ status: 'Invalid', error: { details: { name: 'Reverted' } } });
    const again = await api.request('POST', '/v1/extrinsic/submit', signed);
    expect(again.status, JSON.stringify(again.json)).toBe(201);
    expect(again.json.hash).toBe(first.json.hash);
    expect((await api.get(`/v1/extrinsic/status?hash=${first.json.hash}`)).json).toMatchObject({ status: 'InBlock', isError: false });
    expect((await api.get(`/v1/balance?address=${BOB}`)).json.freeBalance.raw).toBe(balanceAfter);
    // Included again: a second submit is refused, as for any included extrinsic.
    expect((await api.request('POST', '/v1/extrinsic/submit', signed)).json.error.message).toMatch(/Already Imported/);
  });

  it('says of a reverted extrinsic whether it was included or only waited, with no fee standing; the changes of a waiting one say it is in no block', async () => {
    const api = await openHostApi();
    const snap = await api.request('POST', '/dev/snapshot', {});
    const transfer = { address: ALICE, destination: BOB, amount: 1 };
    const included = await api.request('POST', '/v1/balance/transfer?use=Result', transfer, '//Alice');
    await api.request('POST', '/dev/block-mode', { kind: 'manual' });
    const waiting = await api.request('POST', '/v1/balance/transfer?use=Submit', transfer, '//Alice');
    const changes = await api.get(`/v1/extrinsic/changes?hash=${waiting.json.hash}`);
    expect(changes.status).toBe(404);
    expect(changes.json.error.message).toMatch(/is not in a block \(status Ready\): it changed nothing yet$/);
    expect((await api.request('POST', '/dev/revert', { snapshotId: snap.json.snapshotId })).status).toBe(200);
    const wasIncluded = (await api.get(`/v1/extrinsic/status?hash=${included.json.hash}`)).json;
    expect(wasIncluded.error.message).toMatch(/^Reverted: the ledger was reverted to a block before block \d+, which included this extrinsic/);
    expect(wasIncluded.fee.raw).toBe('0');
    const wasWaiting = (await api.get(`/v1/extrinsic/status?hash=${waiting.json.hash}`)).json;
    expect(wasWaiting.error.message).toBe('Reverted: the ledger was reverted while this extrinsic waited for a block; it was never included');
  });

  it('answers a block’s extrinsics a page at a time (extrinsicsFrom), saying how many more there are', async () => {
    const api = await openHostApi();
    await api.request('POST', '/dev/block-mode', { kind: 'manual' });
    for (let i = 0; i < 105; i++) await api.request('POST', '/v1/balance/transfer?use=Submit', { address: ALICE, destination: BOB, amount: 1 }, '//Alice');
    const sealed = (await api.request('POST', '/dev/seal', { count: 1 })).json.block;
    const first = (await api.get(`/v1/explorer/block?number=${sealed.number}`)).json;
    expect([first.extrinsics.length, first.more]).toEqual([100, 5]);
    const rest = (await api.get(`/v1/explorer/block?number=${sealed.number}&extrinsicsFrom=100`)).json;
    expect([rest.extrinsics.length, rest.more]).toEqual([5, 0]);
    expect(rest.extrinsics.map((x: { hash: string }) => x.hash)).toEqual(rest.block.extrinsics.slice(100));
    expect((await api.get(`/v1/explorer/block?number=${sealed.number}&extrinsicsFrom=-1`)).status).toBe(400);
  });

  it('pages blocks without counting down through numbers above the head, and a token’s history', async () => {
    const api = await openApi();
    const collectionId = await api.createCollection();
    await api.ok('POST', '/v1/tokens', { address: ALICE, collectionId, owner: ALICE });
    await api.ok('PATCH', '/v1/tokens/transfer', { address: ALICE, collectionId, tokenId: 1, to: BOB });
    const head = (await api.ledger.head()).number;
    const far = await api.get('/v1/explorer/blocks?from=4294967295&limit=2');
    expect(far.status).toBe(200);
    expect(far.json.blocks.map((b: { number: number }) => b.number)).toEqual([head, head - 1]);
    const history = await api.get(`/v1/explorer/token-history?collectionId=${collectionId}&tokenId=1`);
    expect(history.status).toBe(200);
    expect(history.json.entries.map((e: { extrinsic: { method: string } }) => e.extrinsic.method)).toEqual(['transferFrom', 'createItem']);
    expect(history.json.entries[0].changes).toEqual([{ kind: 'tokenOwner', collectionId, tokenId: 1, before: ALICE, after: BOB }]);
    const sent = history.json.entries[0].extrinsic.hash;
    const changes = await api.get(`/v1/extrinsic/changes?hash=${sent}`);
    expect(changes.json.call).toMatchObject({ section: 'unique', method: 'transferFrom', args: { to: BOB, collectionId, tokenId: 1 } });
  });

  it('refuses to revert to an unknown snapshot or block, and validates the body', async () => {
    const api = await openHostApi();
    expect((await api.request('POST', '/dev/revert', { snapshotId: '77' })).json.error.name).toBe('SnapshotNotFoundError');
    expect((await api.request('POST', '/dev/revert', { blockHash: `0x${'cd'.repeat(32)}` })).status).toBe(404);
    expect((await api.request('POST', '/dev/revert', {})).status).toBe(400);
    expect((await api.request('POST', '/dev/revert', { snapshotId: 'x'.repeat(5000) })).status).toBe(400);
    expect((await api.request('POST', '/dev/revert', { snapshotId: '1', blockHash: `0x${'cd'.repeat(32)}` })).status).toBe(400);
  });

  it('lists only snapshots that can still be reverted to: none whose block history pruned', async () => {
    const api = await openHostApi();
    const early = (await api.request('POST', '/dev/snapshot', {})).json;
    for (let i = 0; i < 4; i++) await api.request('POST', '/dev/seal', { count: 1 });
    const late = (await api.request('POST', '/dev/snapshot', {})).json;
    expect((await api.request('GET', '/dev/snapshots')).json.snapshots.map((s: { snapshotId: string }) => s.snapshotId)).toEqual([early.snapshotId, late.snapshotId]);
    await api.request('POST', '/dev/history', { keepBlocks: 2 });
    await api.request('POST', '/dev/seal', { count: 1 });
    expect((await api.request('GET', '/dev/snapshots')).json.snapshots.map((s: { snapshotId: string }) => s.snapshotId)).toEqual([late.snapshotId]);
    expect((await api.request('POST', '/dev/revert', { snapshotId: early.snapshotId })).status).toBe(410);
    expect((await api.request('POST', '/dev/revert', { snapshotId: late.snapshotId })).status).toBe(200);
  });
});
