import { describe, expect, it } from 'vitest';
import { devRoutes } from '../api/routes/dev';
import { ALICE, BOB } from '../api/routes/route-test-kit';
import { restForkOpener } from '../fork/open';
import { MemoryStore } from '../ledger/testing/memory-store';
import { LedgerHost } from './ledger-host';

const SOURCE = 'http://127.0.0.1:9944/sandbox/v1';
const APP = 'https://app.test/sandbox/v1';
const OWN = { hosts: ['app.test'], port: 443, path: '/sandbox' };

async function call(host: LedgerHost, method: string, path: string, body?: unknown, seed?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (seed) headers.authorization = `Seed ${seed}`;
  const response = await host.handle(new Request(`${APP}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  return { status: response.status, json: await response.json() };
}

/** A source host in this process answering `fetch`, with a collection and a token of Alice's. */
async function filledSource() {
  const host = await LedgerHost.open({ kind: 'node', store: new MemoryStore(), rules: 'unique', routes: (h) => devRoutes(h) });
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => host.handle(new Request(input, init))) as typeof globalThis.fetch;
  const created = await call(host, 'POST', '/collections?use=Result', { address: ALICE, name: 'Real', description: 'd', tokenPrefix: 'R' }, '//Alice');
  const collectionId = created.json.parsed.collectionId as number;
  const minted = await call(host, 'POST', '/tokens?use=Result', { address: ALICE, collectionId }, '//Alice');
  return { host, fetch, collectionId, tokenId: minted.json.parsed.tokenId as number };
}

function browserLike(store: MemoryStore, fetch: typeof globalThis.fetch) {
  return LedgerHost.open({ kind: 'service-worker', store, shared: true, routes: (h) => devRoutes(h), forks: restForkOpener(OWN, { fetch }) });
}

describe('LedgerHost.startFork (POST /dev/fork)', () => {
  it('replaces the ledger with a fork of the source at its head, reopens it from the store, and writes only locally', async () => {
    const source = await filledSource();
    const store = new MemoryStore();
    const host = await browserLike(store, source.fetch);
    const before = host.ledger.config.genesisHash;

    const started = await call(host, 'POST', '/dev/fork', { source: SOURCE });
    expect(started.status).toBe(201);
    expect(started.json.genesisHash).not.toBe(before);
    const head = await source.host.ledger.head();
    const status = (await call(host, 'GET', '/dev/status')).json;
    expect(status.fork).toMatchObject({ source: SOURCE, blockHash: head.hash, blockNumber: head.number });
    expect(status.rules).toBe('unique');
    expect(status.impersonate).toBe(true);

    const path = `/tokens?collectionId=${source.collectionId}&tokenId=${source.tokenId}`;
    expect((await call(host, 'GET', path)).json).toEqual((await call(source.host, 'GET', path)).json);
    const sent = await call(host, 'PATCH', '/tokens/transfer?use=Result', { address: ALICE, to: BOB, collectionId: source.collectionId, tokenId: source.tokenId }, '//Alice');
    expect(sent.json, JSON.stringify(sent.json)).toMatchObject({ isError: false });
    expect((await call(host, 'GET', path)).json.owner).toBe(BOB);
    expect((await call(source.host, 'GET', path)).json.owner).toBe(ALICE);

    // A reset starts the same fork again: the source's state is read anew.
    expect((await call(host, 'POST', '/dev/reset', {})).status).toBe(201);
    expect((await call(host, 'GET', path)).json.owner).toBe(ALICE);
    expect((await call(host, 'GET', '/dev/status')).json.fork.source).toBe(SOURCE);
    await call(host, 'PATCH', '/tokens/transfer?use=Result', { address: ALICE, to: BOB, collectionId: source.collectionId, tokenId: source.tokenId }, '//Alice');

    // A restarted worker opens the stored fork over its source, with what it wrote.
    const again = await browserLike(store, source.fetch);
    expect((await call(again, 'GET', '/dev/status')).json.fork.source).toBe(SOURCE);
    expect((await call(again, 'GET', path)).json.owner).toBe(BOB);
    // A plain export imported makes it a chain of its own again.
    const forked = again.store;
    const plain = await (await LedgerHost.open({ kind: 'page', store: new MemoryStore() })).exportSnapshot();
    expect((await again.importSnapshot(plain.text)).genesisHash).toBeTruthy();
    expect((await call(again, 'GET', '/dev/status')).json.fork).toBeUndefined();
    // A read of the old fork still running copies nothing into the new chain.
    await expect(forked.read((tx) => tx.get('collections', source.collectionId))).rejects.toThrow(/was replaced/);
    expect(await again.store.read((tx) => tx.get('collections', source.collectionId))).toBeUndefined();
  });

  it('leaves the fork for a plain sandbox on reset with leaveFork (a host forked at start refuses)', async () => {
    const source = await filledSource();
    const host = await browserLike(new MemoryStore(), source.fetch);
    await call(host, 'POST', '/dev/fork', { source: SOURCE });
    const left = await call(host, 'POST', '/dev/reset', { leaveFork: true });
    expect(left.status).toBe(201);
    const status = (await call(host, 'GET', '/dev/status')).json;
    expect(status.fork).toBeUndefined();
    expect(status.rules).toBe('spec');
    expect(status.impersonate).toBe(false);
    // Nothing of the source answers any more: the collection is not read from it.
    expect((await call(host, 'GET', `/collections?collectionId=${source.collectionId}`)).json).toBeNull();
    expect((await call(host, 'POST', '/dev/reset', { leaveFork: 'yes' })).status).toBe(400);

    const fork = await restForkOpener(OWN, { fetch: source.fetch }).open({ url: SOURCE });
    const forkedAtStart = await LedgerHost.open({ kind: 'node', store: new MemoryStore(), routes: (h) => devRoutes(h), fork });
    const refused = await call(forkedAtStart, 'POST', '/dev/reset', { leaveFork: true });
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toContain('--fork');
    expect((await call(forkedAtStart, 'GET', '/dev/status')).json.fork.source).toBe(SOURCE);
  });

  it('changes nothing when the source cannot be reached, and refuses its own API or a host that forks only at start', async () => {
    const store = new MemoryStore();
    const down = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof globalThis.fetch;
    const host = await LedgerHost.open({ kind: 'service-worker', store, routes: (h) => devRoutes(h), forks: restForkOpener(OWN, { fetch: down, retries: 0 }) });
    const genesis = host.ledger.config.genesisHash;
    const failed = await call(host, 'POST', '/dev/fork', { source: SOURCE });
    expect(failed.status).toBe(502);
    expect(failed.json.error.name).toBe('ForkSourceError');
    expect(failed.json.error.message).toContain('127.0.0.1:9944');
    expect(host.ledger.config.genesisHash).toBe(genesis);

    expect((await call(host, 'POST', '/dev/fork', { source: 'https://app.test/sandbox/v1' })).status).toBe(400);
    expect((await call(host, 'POST', '/dev/fork', { source: 'ftp://x' })).status).toBe(400);
    expect((await call(host, 'POST', '/dev/fork', { source: SOURCE, blockHash: '0x12' })).status).toBe(400);
    const node = await LedgerHost.open({ kind: 'node', store: new MemoryStore(), routes: (h) => devRoutes(h) });
    const refused = await call(node, 'POST', '/dev/fork', { source: SOURCE });
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toContain('--fork');
  });
});
