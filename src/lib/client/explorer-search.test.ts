// The explorer's search: what a typed text can be, bounded before it is parsed, and what each
// kind finds on a ledger (a number can be a block and a collection; a hash a block or an
// extrinsic, or else an account's public key).
import { describe, expect, it } from 'vitest';
import { devRoutes } from '../api/routes/dev';
import { LedgerHost } from '../host/ledger-host';
import { MemoryStore } from '../ledger/testing/memory-store';
import { RestClient } from './client';
import { MAX_SEARCH_LENGTH, readSearch, searchTargets } from './explorer-search';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const ALICE_KEY = '0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d';
const BASE = 'http://127.0.0.1/sandbox/v1';

describe('reading a search', () => {
  it('tells numbers, tokens, hashes and addresses apart', () => {
    expect(readSearch(' 12 ')).toEqual({ kind: 'number', value: 12 });
    expect(readSearch('#12')).toEqual({ kind: 'number', value: 12 });
    expect(readSearch('12/3')).toEqual({ kind: 'token', collectionId: 12, tokenId: 3 });
    expect(readSearch('12 / 3')).toEqual({ kind: 'token', collectionId: 12, tokenId: 3 });
    expect(readSearch(`0x${'AB'.repeat(32)}`)).toEqual({ kind: 'hash', hash: `0x${'ab'.repeat(32)}` });
    expect(readSearch(ALICE)).toEqual({ kind: 'address', address: ALICE });
    expect(readSearch('0x8eaf04151687736326c9fea17e25fc5287613693')).toEqual({ kind: 'address', address: '0x8eaf04151687736326c9fea17e25fc5287613693' });
  });

  it('refuses what is none of them, out of range, or too long, in words', () => {
    expect(readSearch('')).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('Type a block number') });
    expect(readSearch('4294967296')).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('up to 4294967295') });
    expect(readSearch('1/99999999999')).toMatchObject({ kind: 'invalid' });
    expect(readSearch('hello')).toEqual({ kind: 'invalid', reason: '“hello” is not a block number or hash, an extrinsic hash, an address, or a collection or token (12 or 12/3)' });
    expect(readSearch('0x12')).toMatchObject({ kind: 'invalid' });
    const long = readSearch('5'.repeat(MAX_SEARCH_LENGTH + 1));
    expect(long).toMatchObject({ kind: 'invalid', reason: expect.stringContaining(`at most ${MAX_SEARCH_LENGTH} characters`) });
    // The reason quotes a bounded piece of the text.
    expect((readSearch(`x${'y'.repeat(MAX_SEARCH_LENGTH - 1)}`) as { reason: string }).reason.length).toBeLessThan(MAX_SEARCH_LENGTH + 140);
  });
});

describe('finding what a search means', () => {
  async function openLedger() {
    const host = await LedgerHost.open({ kind: 'node', store: new MemoryStore(), routes: (h) => devRoutes(h) });
    const client = new RestClient({ baseUrl: BASE, fetch: (input, init) => host.handle(new Request(input, init)) });
    const response = await host.handle(
      new Request(`${BASE}/collections?use=Result`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Seed //Alice' },
        body: JSON.stringify({ address: ALICE, name: 'Found', description: 'x', tokenPrefix: 'FND' })
      })
    );
    const created = await response.json();
    return { host, client, created: created as { hash: string; parsed: { collectionId: number } } };
  }

  it('offers a block and a collection of one number, an extrinsic or a block of one hash, and an account for a key', async () => {
    const { client, created } = await openLedger();
    expect(await searchTargets(client, readSearch('1'))).toEqual([
      { kind: 'block', number: 1, hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
      { kind: 'collection', collectionId: 1, name: 'Found' }
    ]);
    expect(await searchTargets(client, readSearch('0'))).toEqual([{ kind: 'block', number: 0, hash: expect.any(String) }]);
    expect(await searchTargets(client, readSearch('55'))).toEqual([]);

    expect(await searchTargets(client, readSearch(created.hash))).toEqual([{ kind: 'extrinsic', hash: created.hash, section: 'unique', method: 'createCollectionEx' }]);
    const [block] = await searchTargets(client, readSearch('1'));
    const blockHash = (block as { hash: string }).hash;
    expect(await searchTargets(client, readSearch(blockHash))).toEqual([{ kind: 'block', number: 1, hash: blockHash }]);
    expect(await searchTargets(client, readSearch(ALICE_KEY))).toEqual([{ kind: 'account', address: ALICE }]);

    expect(await searchTargets(client, readSearch('1/2'))).toEqual([{ kind: 'token', collectionId: 1, tokenId: 2 }]);
    expect(await searchTargets(client, readSearch(ALICE))).toEqual([{ kind: 'account', address: ALICE }]);
    expect(await searchTargets(client, readSearch('nonsense'))).toEqual([]);
  });

  it('still finds collections and extrinsics on a service without the explorer', async () => {
    const { host, created } = await openLedger();
    // The same service with the explorer's routes taken away.
    const client = new RestClient({
      baseUrl: BASE,
      fetch: async (input, init) => (String(input).includes('/explorer/') ? new Response('{"message":"Cannot GET"}', { status: 404 }) : host.handle(new Request(input, init)))
    });
    expect(await searchTargets(client, readSearch('1'))).toEqual([{ kind: 'collection', collectionId: 1, name: 'Found' }]);
    expect(await searchTargets(client, readSearch(created.hash))).toEqual([{ kind: 'extrinsic', hash: created.hash, section: 'unique', method: 'createCollectionEx' }]);
  });
});
