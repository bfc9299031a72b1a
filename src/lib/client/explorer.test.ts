// The explorer's client against the real handler of a host with history (blocks, a block, an
// account's history, an extrinsic's changes, snapshots and revert), and against services that
// answer something else: no explorer at all, or answers of another shape.
import { describe, expect, it } from 'vitest';
import { devRoutes } from '../api/routes/dev';
import { LedgerHost } from '../host/ledger-host';
import { MemoryStore } from '../ledger/testing/memory-store';
import { RestClient, type FetchLike } from './client';
import { ApiError } from './errors';
import {
  ExplorerUnsupportedError,
  OpaliteOnlyError,
  balanceHistory,
  blockDetail,
  blocksPage,
  collectionsAt,
  explorerSupported,
  extrinsicChanges,
  headBlock,
  parseBalanceHistory,
  parseBlockDetail,
  parseBlocks,
  parseExtrinsicChanges,
  tokenAt
} from './explorer';
import { accountHistory, holdings } from './wallet';
import { parseSnapshots, historyRetention, listSnapshots, revertTo, setHistoryRetention, takeSnapshot } from './snapshots';
import { UnexpectedAnswerError } from './wire';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const BASE = 'http://127.0.0.1/sandbox/v1';
const UNIT = 10n ** 18n;

/** A host with the dev routes, its client, and custodial writes as //Alice. */
async function openLedger() {
  const host = await LedgerHost.open({ kind: 'node', store: new MemoryStore(), routes: (h) => devRoutes(h) });
  const client = new RestClient({ baseUrl: BASE, fetch: (input, init) => host.handle(new Request(input, init)) });
  const write = async (method: string, path: string, body: unknown): Promise<{ hash: string; parsed: any }> => {
    const response = await host.handle(
      new Request(`${BASE}${path}?use=Result`, { method, headers: { 'content-type': 'application/json', authorization: 'Seed //Alice' }, body: JSON.stringify(body) })
    );
    const json = await response.json();
    if (response.status >= 300 || json.isError) throw new Error(`${path}: ${JSON.stringify(json)}`);
    return json;
  };
  return { host, client, write };
}

/** A client of a service that answers every request with `answer`. */
function fakeService(answer: (url: URL) => { status: number; json: unknown }): RestClient {
  const fetch: FetchLike = async (input) => {
    const { status, json } = answer(new URL(String(input)));
    return new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });
  };
  return new RestClient({ baseUrl: BASE, fetch });
}

describe('explorer reads against an Opalite ledger', () => {
  it('pages blocks newest first, from any block down, and reads one block with its extrinsics', async () => {
    const { client, write } = await openLedger();
    const sent = await write('POST', '/balance/transfer', { address: ALICE, destination: BOB, amount: 5 });
    await write('POST', '/balance/transfer', { address: ALICE, destination: BOB, amount: 1 });
    const head = await headBlock(client);
    expect(head?.number).toBe(2);
    const all = await blocksPage(client, { limit: 10 });
    expect(all.map((b) => b.number)).toEqual([2, 1, 0]);
    expect(all[0].parentHash).toBe(all[1].hash);
    const older = await blocksPage(client, { from: 1, limit: 1 });
    expect(older.map((b) => b.number)).toEqual([1]);
    expect(older[0].extrinsics).toEqual([sent.hash]);

    const byNumber = await blockDetail(client, { number: 1 });
    expect(byNumber?.block.hash).toBe(older[0].hash);
    expect(byNumber?.extrinsics.map((x) => x.hash)).toEqual([sent.hash]);
    expect(byNumber?.extrinsics[0].events?.some((e) => e.method === 'Transfer')).toBe(true);
    expect((await blockDetail(client, { hash: older[0].hash }))?.block.number).toBe(1);
    expect(await blockDetail(client, { number: 99 })).toBeNull();
    expect(await blockDetail(client, { hash: `0x${'ab'.repeat(32)}` })).toBeNull();
  });

  it('reads an account’s balance changes newest first, page by page, and what an extrinsic changed', async () => {
    const { client, write } = await openLedger();
    const first = await write('POST', '/balance/transfer', { address: ALICE, destination: BOB, amount: 5 });
    const second = await write('POST', '/balance/transfer', { address: ALICE, destination: BOB, amount: 2 });
    const page1 = await balanceHistory(client, BOB, { limit: 1 });
    expect(page1.entries).toHaveLength(1);
    expect(page1.entries[0].extrinsic).toMatchObject({ hash: second.hash, section: 'balances', signer: ALICE });
    expect(BigInt(page1.entries[0].after) - BigInt(page1.entries[0].before)).toBe(2n * UNIT);
    expect(page1.next).toMatch(/^\d+:\d+$/);
    const page2 = await balanceHistory(client, BOB, { before: page1.next!, limit: 1 });
    expect(page2.entries[0].extrinsic?.hash).toBe(first.hash);
    expect(page2.entries[0].after).toBe(page1.entries[0].before);

    const changes = await extrinsicChanges(client, first.hash);
    expect(changes.blockNumber).toBe(1);
    const bob = changes.changes.find((c) => c.kind === 'balance' && c.address === BOB)!;
    expect(BigInt(bob.after as string) - BigInt(bob.before as string)).toBe(5n * UNIT);
    await expect(extrinsicChanges(client, `0x${'cd'.repeat(32)}`)).rejects.toMatchObject({ status: 404 });
  });

  it('reads a token and a collection as of an earlier block', async () => {
    const { client, write } = await openLedger();
    const { parsed } = await write('POST', '/collections', { address: ALICE, name: 'Then', description: 'x', tokenPrefix: 'TH' });
    const collectionId = parsed.collectionId as number;
    const beforeMint = (await headBlock(client))!;
    await write('POST', '/tokens', { address: ALICE, collectionId, owner: ALICE });
    const minted = (await headBlock(client))!;
    await write('PATCH', '/tokens/transfer', { address: ALICE, collectionId, tokenId: 1, to: BOB });
    expect(await tokenAt(client, collectionId, 1, beforeMint.hash)).toBeNull();
    expect((await tokenAt(client, collectionId, 1, minted.hash))?.owner).toBe(ALICE);
    await expect(tokenAt(client, collectionId, 1, `0x${'ee'.repeat(32)}`)).rejects.toMatchObject({ errorName: 'BlockNotFoundError' });
    const named = await collectionsAt(client, [collectionId, 77], minted);
    expect(named.get(collectionId)?.name).toBe('Then');
    expect(named.has(77)).toBe(false);
  });
});

describe('snapshots and history retention', () => {
  it('takes a snapshot, lists it, reverts to it, and sets the retention', async () => {
    const { client, write } = await openLedger();
    const snapshot = await takeSnapshot(client);
    expect(snapshot).toMatchObject({ snapshotId: expect.any(String), blockNumber: 0 });
    await write('POST', '/balance/transfer', { address: ALICE, destination: BOB, amount: 5 });
    const listed = await listSnapshots(client);
    expect(listed).toEqual([expect.objectContaining({ snapshotId: snapshot.snapshotId, blockHash: snapshot.blockHash, createdAt: expect.any(Number) })]);
    expect(await revertTo(client, { snapshotId: snapshot.snapshotId })).toEqual({ blockNumber: 0, blockHash: snapshot.blockHash });
    expect((await headBlock(client))?.number).toBe(0);
    await expect(revertTo(client, { snapshotId: '999' })).rejects.toMatchObject({ errorName: 'SnapshotNotFoundError' });

    expect(await historyRetention(client)).toEqual({ keepBlocks: null, start: 0 });
    expect(await setHistoryRetention(client, 3)).toMatchObject({ keepBlocks: 3 });
    expect((await historyRetention(client))?.keepBlocks).toBe(3);
    await expect(setHistoryRetention(client, -1)).rejects.toBeInstanceOf(ApiError);
  });
});

describe('a service without the explorer, or with answers of another shape', () => {
  it('says plainly that the explorer needs an Opalite ledger when its routes are missing', async () => {
    const client = fakeService((url) => (url.pathname.endsWith('/chain-properties') ? { status: 200, json: {} } : { status: 404, json: { statusCode: 404, message: `Cannot GET ${url.pathname}` } }));
    expect(await explorerSupported(client)).toBe(false);
    await expect(blocksPage(client)).rejects.toBeInstanceOf(ExplorerUnsupportedError);
    await expect(blockDetail(client, { number: 1 })).rejects.toThrow(/needs an Opalite ledger/);
    await expect(balanceHistory(client, BOB)).rejects.toBeInstanceOf(ExplorerUnsupportedError);
    await expect(extrinsicChanges(client, `0x${'ab'.repeat(32)}`)).rejects.toBeInstanceOf(ExplorerUnsupportedError);
  });

  it("says the same of the wallet's reads, naming the route and what needs it", async () => {
    const client = fakeService((url) => ({ status: 404, json: { statusCode: 404, message: `Cannot GET ${url.pathname}` } }));
    await expect(holdings(client, BOB, 'nft')).rejects.toBeInstanceOf(OpaliteOnlyError);
    await expect(holdings(client, BOB, 'nft')).rejects.toThrow(`${BASE} does not answer GET /tokens/holdings: a view of tokens across collections needs an Opalite ledger`);
    await expect(accountHistory(client, BOB)).rejects.toThrow(/GET \/explorer\/account-history: an account's history needs an Opalite ledger/);
    // On an Opalite ledger a 404 stays what it says (here: an unknown account's route refusal).
    const opalite = fakeService((url) => (url.pathname.endsWith('/explorer/blocks') ? { status: 200, json: { blocks: [] } } : { status: 404, json: { error: { code: 'UN01024', name: 'NotFoundError', message: 'gone' } } }));
    await expect(holdings(opalite, BOB, 'nft')).rejects.toMatchObject({ errorName: 'NotFoundError' });
  });

  it('keeps "not found" apart from "no explorer" on a service that has one', async () => {
    const client = fakeService((url) =>
      url.pathname.endsWith('/explorer/blocks')
        ? { status: 200, json: { blocks: [] } }
        : { status: 404, json: { error: { code: 'UN01024', name: 'BlockNotFoundError', message: 'No block 5 in this ledger' } } }
    );
    expect(await blockDetail(client, { number: 5 })).toBeNull();
    await expect(extrinsicChanges(client, `0x${'ab'.repeat(32)}`)).rejects.toMatchObject({ errorName: 'BlockNotFoundError' });
    expect(await headBlock(client)).toBeNull();
  });

  it('asks again whether the explorer is there after the service could not be reached', async () => {
    let reachable = false;
    const fetch: FetchLike = async () => {
      if (!reachable) throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify({ blocks: [] }), { status: 200 });
    };
    const client = new RestClient({ baseUrl: BASE, fetch });
    await expect(explorerSupported(client)).rejects.toThrow(/Could not reach/);
    reachable = true;
    expect(await explorerSupported(client)).toBe(true);
  });

  const block = { number: 3, hash: `0x${'11'.repeat(32)}`, parentHash: `0x${'22'.repeat(32)}`, stateRoot: '0x00', extrinsicsRoot: '0x00', timestamp: 1_700_000_000_000, extrinsics: [] };

  it('refuses answers of another shape, naming the field', () => {
    expect(parseBlocks({ blocks: [block] })[0]).toEqual(block);
    expect(() => parseBlocks({ blocks: [{ ...block, number: '3' }] })).toThrow(new UnexpectedAnswerError('/explorer/blocks', 'blocks[0].number', 'a whole number'));
    expect(() => parseBlocks({ blocks: [{ ...block, hash: '0x12' }] })).toThrow(/blocks\[0\]\.hash should be 0x and 64 hex digits/);
    expect(() => parseBlocks([block])).toThrow(/the answer should be an object/);
    expect(() => parseBlockDetail({ block, extrinsics: [{ hash: 'x', status: 'InBlock', isError: false }] })).toThrow(/extrinsics\[0\]\.hash/);
    expect(parseBlockDetail({ block, extrinsics: [] }).more).toBe(0);

    const entry = { blockNumber: 1, blockHash: block.hash, timestamp: 1, extrinsic: null, before: '0', after: '5' };
    expect(parseBalanceHistory({ entries: [entry], next: '1:0' })).toEqual({ entries: [entry], next: '1:0' });
    expect(() => parseBalanceHistory({ entries: [{ ...entry, after: 5 }], next: null })).toThrow(/entries\[0\]\.after should be a decimal string/);
    expect(() => parseBalanceHistory({ entries: [{ ...entry, after: '-5' }], next: null })).toThrow(/entries\[0\]\.after/);
    expect(() => parseBalanceHistory({ entries: [], next: 'later' })).toThrow(/next should be <block>:<seq>/);

    const changes = { hash: block.hash, blockNumber: 3, blockHash: block.hash, changes: [{ kind: 'balance', address: BOB, before: '1', after: '2' }, { kind: 'someNewKind', before: null }] };
    expect(parseExtrinsicChanges(changes).changes).toEqual([
      { kind: 'balance', address: BOB, before: '1', after: '2', collectionId: undefined, tokenId: undefined, key: undefined },
      { kind: 'someNewKind', before: null, after: null, collectionId: undefined, tokenId: undefined, address: undefined, key: undefined }
    ]);
    expect(() => parseExtrinsicChanges({ ...changes, changes: [{ kind: 'token', collectionId: -1, before: null, after: null }] })).toThrow(/changes\[0\]\.collectionId/);

    expect(parseSnapshots({ snapshots: [{ snapshotId: 4, blockNumber: 3, blockHash: block.hash, createdAt: 9 }] })).toEqual([{ snapshotId: '4', blockNumber: 3, blockHash: block.hash, createdAt: 9 }]);
    expect(() => parseSnapshots({ snapshots: [{ snapshotId: '4', blockNumber: 3 }] })).toThrow(/snapshots\[0\]\.blockHash/);
  });
});
