import { describe, expect, it } from 'vitest';
import { devRoutes } from '../api/routes/dev';
import { LedgerHost } from '../host/ledger-host';
import { ForkSourceError } from '../ledger/fork/source';
import { StoreForkSource } from '../ledger/fork/store-source';
import { MemoryStore } from '../ledger/testing/memory-store';
import { ALICE, BOB, CHARLIE } from '../api/routes/route-test-kit';
import { PoliteFetch } from './polite-fetch';
import { openRestSource } from './rest-source';

const BASE = 'http://127.0.0.1/sandbox/v1';

/** An Opalite host in this process, answering `fetch`. */
async function sourceHost() {
  const store = new MemoryStore();
  const host = await LedgerHost.open({ kind: 'page', store, rules: 'unique', routes: (h) => devRoutes(h) });
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => host.handle(new Request(input, init))) as typeof globalThis.fetch;
  const send = async (method: string, path: string, body: unknown, seed = '//Alice') => {
    const response = await host.handle(
      new Request(`${BASE}${path}?use=Result`, { method, headers: { 'content-type': 'application/json', authorization: `Seed ${seed}` }, body: JSON.stringify(body) })
    );
    const json = await response.json();
    if (json.isError || response.status >= 400) throw new Error(`${path}: ${JSON.stringify(json)}`);
    return json.parsed;
  };
  return { host, store, fetch, send };
}

describe('RestForkSource', () => {
  it('reads an Opalite source at the fork block into the rows the source itself holds', async () => {
    const { host, store, fetch, send } = await sourceHost();
    const { collectionId } = await send('POST', '/collections', {
      address: ALICE,
      name: 'Fork me',
      description: 'd',
      tokenPrefix: 'F',
      permissions: { access: 'Normal', mintMode: true, nesting: { tokenOwner: true, collectionAdmin: false } },
      properties: [{ key: 'b', value: '2' }, { key: 'a', value: '1' }],
      tokenPropertyPermissions: [{ key: 'n', permission: { mutable: true, collectionAdmin: true, tokenOwner: false } }],
      limits: { tokenLimit: 10 }
    });
    await send('POST', '/collections/admins', { address: ALICE, collectionId, newAdmin: BOB });
    await send('POST', '/collections/add-to-allow-list', { address: ALICE, collectionId, newAdminId: CHARLIE });
    await send('POST', '/collections/add-to-allow-list', { address: ALICE, collectionId, newAdminId: BOB });
    await send('POST', '/collections/sponsorship', { address: ALICE, collectionId, newSponsor: BOB });
    const { tokenId: parent } = await send('POST', '/tokens', { address: ALICE, collectionId, properties: [{ key: 'n', value: 'p' }] });
    const { tokenId: child } = await send('POST', '/tokens', { address: ALICE, collectionId });
    await send('POST', '/tokens/nest', { address: ALICE, parent: { collectionId, tokenId: parent }, nested: { collectionId, tokenId: child } });

    const source = await openRestSource(BASE, { fetch });
    const reference = new StoreForkSource(store, source.origin);
    const head = await host.ledger.head();
    expect(source.origin).toMatchObject({ source: BASE, blockHash: head.hash, blockNumber: head.number, sourceGenesisHash: host.ledger.config.genesisHash, unpinned: [] });
    expect(source.origin.collections).toEqual({ created: 1, destroyed: 0 });

    expect(await source.collection(collectionId)).toEqual(await reference.collection(collectionId));
    expect(await source.token(collectionId, parent)).toEqual(await reference.token(collectionId, parent));
    expect(await source.token(collectionId, child)).toEqual(await reference.token(collectionId, child));
    expect(await source.account(BOB)).toEqual(await reference.account(BOB));
    expect(await source.allowList(collectionId)).toEqual(await reference.allowList(collectionId));
    expect(await source.allowList(collectionId)).toHaveLength(2);
    expect(await source.childrenOf(collectionId, parent)).toEqual([{ collectionId, tokenId: child }]);
    expect(await source.tokensOfOwner(ALICE, collectionId)).toEqual([{ collectionId, tokenId: parent }]);
    expect(await source.tokenIdsOfCollection(collectionId)).toEqual([parent, child]);
    expect(await source.collection(99)).toBeNull();
    expect(await source.token(collectionId, 99)).toBeNull();

    // Pinned: a later change on the source is not seen.
    await send('PATCH', '/tokens/transfer', { address: ALICE, collectionId, tokenId: parent, to: CHARLIE });
    expect((await source.token(collectionId, parent))?.owner).toBe(ALICE);
  });

  it('refuses a hostile answer with a clear error, never a row', async () => {
    const answers: Record<string, unknown> = {
      '/common/chain-properties': { genesisHash: '0x' + 'ab'.repeat(32) },
      '/dev/status': { head: { number: 3, hash: '0x' + 'cd'.repeat(32) } },
      '/collections/stats': { created: 2, destroyed: 0 },
      '/tokens': { collectionId: 1, tokenId: 1, owner: 'not an address', properties: [] },
      '/collections': { id: 1, owner: ALICE, mode: 'NFT', name: 'x'.repeat(10_000) }
    };
    const fetch = (async (input: RequestInfo | URL) => {
      const path = new URL(String(input)).pathname.replace('/sandbox/v1', '');
      return new Response(JSON.stringify(answers[path] ?? null), { status: path in answers ? 200 : 404 });
    }) as typeof globalThis.fetch;
    const source = await openRestSource(BASE, { fetch });
    await expect(source.token(1, 1)).rejects.toThrow(/answered \/tokens with an unexpected owner/);
    await expect(source.collection(1)).rejects.toThrow(/answered \/collections with an unexpected/);
    await expect(source.token(1, 1)).rejects.toBeInstanceOf(ForkSourceError);
  });

  it('refuses what is not a REST base url', async () => {
    await expect(openRestSource('file:///etc/passwd')).rejects.toThrow(/http or https/);
    await expect(openRestSource('not a url')).rejects.toThrow(/base url/);
  });
});

describe('PoliteFetch', () => {
  const ok = () => new Response('{"ok":true}', { status: 200 });

  it('sends at most `concurrency` requests at once, and one per url however many wait', async () => {
    let open = 0;
    let most = 0;
    const urls: string[] = [];
    const fetch = (async (input: RequestInfo | URL) => {
      urls.push(String(input));
      most = Math.max(most, ++open);
      await new Promise((r) => setTimeout(r, 5));
      open--;
      return ok();
    }) as typeof globalThis.fetch;
    const http = new PoliteFetch('http://s', { fetch, concurrency: 3 });
    await Promise.all([...Array.from({ length: 20 }, (_, i) => http.get(`http://s/${i}`)), ...Array.from({ length: 10 }, () => http.get('http://s/0'))]);
    expect(most).toBe(3);
    expect(urls).toHaveLength(20);
  });

  it('retries 429 and 5xx with backoff (Retry-After honoured), then gives a 502-kind error naming the source', async () => {
    const waits: number[] = [];
    let calls = 0;
    const fetch = (async () => (++calls < 3 ? new Response('', { status: calls === 1 ? 429 : 503, headers: calls === 1 ? { 'retry-after': '2' } : {} }) : ok())) as typeof globalThis.fetch;
    const http = new PoliteFetch('http://s', { fetch, sleep: async (ms) => void waits.push(ms) });
    expect((await http.get('http://s/x')).body).toEqual({ ok: true });
    expect(waits).toEqual([2000, 400]);
    const down = new PoliteFetch('http://s', { fetch: (async () => new Response('', { status: 500 })) as typeof globalThis.fetch, sleep: async () => {} });
    const error = await down.get('http://s/y').catch((e) => e);
    expect(error).toBeInstanceOf(ForkSourceError);
    expect(error).toMatchObject({ kind: 'unreachable', source: 'http://s' });
    expect(down.requests).toBe(4);
  });

  it('gives up on a silent source after its timeout, and on an answer too large or not JSON', async () => {
    const silent = (async (_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))))) as typeof globalThis.fetch;
    await expect(new PoliteFetch('http://s', { fetch: silent, timeoutMs: 20 }).get('http://s/x')).rejects.toMatchObject({ kind: 'timeout' });
    const big = (async () => new Response('x'.repeat(2048))) as typeof globalThis.fetch;
    await expect(new PoliteFetch('http://s', { fetch: big, maxBytes: 1024 }).get('http://s/x')).rejects.toThrow(/more than 1024 bytes/);
    const html = (async () => new Response('<html>')) as typeof globalThis.fetch;
    await expect(new PoliteFetch('http://s', { fetch: html }).get('http://s/x')).rejects.toThrow(/not JSON/);
  });

  it('sends nothing but GET', async () => {
    const methods: string[] = [];
    const fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      methods.push(init?.method ?? 'GET');
      return ok();
    }) as typeof globalThis.fetch;
    await new PoliteFetch('http://s', { fetch }).get('http://s/x');
    expect(methods).toEqual(['GET']);
  });
});
