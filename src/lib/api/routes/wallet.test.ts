// A wallet's reads through the real handler: what an account holds across collections
// (/tokens/holdings) and its history (/explorer/account-history), paged and bounded.
import { beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, CHARLIE, openApi, type Api } from './route-test-kit';

const UNIT = 10n ** 18n;

describe('a wallet of Bob: NFTs, pieces and a fungible balance from Alice', () => {
  let api: Api;
  let nft: number;
  let ft: number;
  let rft: number;
  let rftToken: number;

  beforeAll(async () => {
    api = await openApi();
    nft = await api.createCollection({ name: 'Art' });
    for (let i = 0; i < 3; i++) await api.mint(nft, { owner: BOB });
    await api.mint(nft, { owner: CHARLIE });
    ft = (await api.ok('POST', '/v1/fungible/collection', { address: ALICE, name: 'Coin', description: 'c', tokenPrefix: 'COIN', decimals: 2 })).collectionId;
    await api.ok('POST', '/v1/fungible/tokens', { address: ALICE, collectionId: ft, amount: 100, recipient: ALICE });
    await api.ok('POST', '/v1/fungible/tokens/transfer', { address: ALICE, collectionId: ft, recipient: BOB, amount: 12.5 });
    rft = (await api.ok('POST', '/v1/refungible/collection', { address: ALICE, name: 'Parts', description: 'p', tokenPrefix: 'PRT' })).collectionId;
    rftToken = (await api.ok('POST', '/v1/refungible/tokens', { address: ALICE, collectionId: rft, amount: 100 })).tokenId;
    await api.ok('POST', '/v1/refungible/tokens/transfer', { address: ALICE, collectionId: rft, tokenId: rftToken, to: BOB, amount: 30 });
    await api.ok('POST', '/v1/balance/transfer', { address: ALICE, destination: BOB, amount: 7 });
    await api.ok('PATCH', '/v1/tokens/transfer', { address: BOB, collectionId: nft, tokenId: 1, to: CHARLIE }, '//Bob');
    await api.ok('POST', '/v1/tokens/approve', { address: BOB, collectionId: nft, tokenId: 2, spender: CHARLIE }, '//Bob');
  });

  it('lists its NFTs by (collection, token), a page at a time, with the token objects', async () => {
    const first = await api.get(`/v1/tokens/holdings?address=${BOB}&kind=nft&limit=1`);
    expect(first.status).toBe(200);
    expect(first.json.holdings).toHaveLength(1);
    expect(first.json.holdings[0]).toMatchObject({ collectionId: nft, tokenId: 2, amount: '1', total: '1', collection: { mode: 'NFT', name: 'Art', tokenPrefix: 'TST' } });
    expect(first.json.holdings[0].token).toMatchObject({ collectionId: nft, tokenId: 2, owner: BOB });
    expect(first.json.next).toBe(`${nft}:2`);
    const second = await api.get(`/v1/tokens/holdings?address=${BOB}&kind=nft&limit=1&after=${first.json.next}`);
    expect(second.json.holdings.map((h: { tokenId: number }) => h.tokenId)).toEqual([3]);
    expect(second.json.next).toBeNull();
  });

  it('lists its pieces (amount of total) and fungible balances (smallest unit, with decimals), not its NFTs', async () => {
    const pieces = await api.get(`/v1/tokens/holdings?address=${BOB}&kind=pieces`);
    expect(pieces.json).toMatchObject({ holdings: [{ collectionId: rft, tokenId: rftToken, amount: '30', total: '100', collection: { mode: 'ReFungible' } }], next: null });
    expect(pieces.json.holdings[0].token.collectionId).toBe(rft);
    const fungible = await api.get(`/v1/tokens/holdings?address=${BOB}&kind=fungible`);
    expect(fungible.json).toMatchObject({ holdings: [{ collectionId: ft, tokenId: 0, amount: '1250', total: '10000', token: null, collection: { decimals: 2, tokenPrefix: 'COIN' } }], next: null });
    // Alice holds the rest of the pieces of a token split between holders.
    expect((await api.get(`/v1/tokens/holdings?address=${ALICE}&kind=pieces`)).json.holdings[0]).toMatchObject({ amount: '70', total: '100' });
  });

  it('refuses a malformed or unbounded query with a clear error', async () => {
    for (const [query, words] of [
      [`address=${BOB}&kind=gold`, /kind must be one of nft, pieces, fungible/],
      [`address=${BOB}&limit=101`, /limit must be at most 100/],
      [`address=${BOB}&after=${'9'.repeat(50)}`, /after must be at most 40 characters/],
      [`address=${BOB}&after=1-2`, /after must be <collectionId>:<tokenId>/],
      ['address=nobody', /Invalid address/]
    ] as const) {
      const answer = await api.get(`/v1/tokens/holdings?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.json.error.message).toMatch(words);
    }
  });

  it('tells its history newest first: sent, approved, received native, pieces and fungible, minted, each once', async () => {
    const answer = await api.get(`/v1/explorer/account-history?address=${BOB}&limit=100`);
    expect(answer.status).toBe(200);
    const entries = answer.json.entries as { blockNumber: number; extrinsic: { method: string } | null; items: { kind: string; collectionId?: number; tokenId?: number; counterparty: string | null; amount: string }[]; balance: { before: string; after: string } | null }[];
    const items = entries.map((e) => e.items.filter((i) => i.kind !== 'fee'));
    expect(items.slice(0, 6)).toEqual([
      [{ kind: 'approved', collectionId: nft, tokenId: 2, counterparty: CHARLIE, amount: '1' }],
      [{ kind: 'sent', collectionId: nft, tokenId: 1, counterparty: CHARLIE, amount: '1' }],
      [{ kind: 'received', counterparty: ALICE, amount: (7n * UNIT).toString() }],
      [{ kind: 'received', collectionId: rft, tokenId: rftToken, counterparty: ALICE, amount: '30' }],
      [{ kind: 'received', collectionId: ft, tokenId: 0, counterparty: ALICE, amount: '1250' }],
      [{ kind: 'minted', collectionId: nft, tokenId: 3, counterparty: ALICE, amount: '1' }]
    ]);
    expect(entries).toHaveLength(8);
    // Its own extrinsics paid fees: the fee item is there, and the balance before and after.
    expect(entries[0].items.some((i) => i.kind === 'fee')).toBe(true);
    expect(BigInt(entries[2].balance!.after) - BigInt(entries[2].balance!.before)).toBe(7n * UNIT);
    expect(answer.json.collections[ft]).toEqual({ mode: 'Fungible', name: 'Coin', tokenPrefix: 'COIN', decimals: 2 });
    expect(answer.json.next).toBeNull();
    // Charlie's token minted by Alice is not Bob's history.
    expect(entries.flatMap((e) => e.items).some((i) => i.kind === 'minted' && i.tokenId === 4)).toBe(false);
  });

  it('pages its history without repeating or losing an entry', async () => {
    const all = (await api.get(`/v1/explorer/account-history?address=${BOB}&limit=100`)).json.entries;
    const seen: unknown[] = [];
    let next: string | null = null;
    do {
      const page: { json: { entries: unknown[]; next: string | null } } = await api.get(`/v1/explorer/account-history?address=${BOB}&limit=3${next ? `&before=${next}` : ''}`);
      expect(page.json.entries.length).toBeLessThanOrEqual(3);
      seen.push(...page.json.entries);
      next = page.json.next;
    } while (next);
    expect(seen).toEqual(all);
  });

  it('documents both routes in the OpenAPI document as Opalite extensions', async () => {
    const doc = (await api.get('/v1/openapi.json')).json;
    for (const path of ['/sandbox/v1/tokens/holdings', '/sandbox/v1/explorer/account-history']) expect(doc.paths[path].get.summary, path).toMatch(/^Opalite extension/);
    expect(doc.paths['/sandbox/v1/tokens/holdings'].get.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['address', 'kind', 'after', 'limit']));
  });

  it('refuses a malformed page place and a page over the bound', async () => {
    expect((await api.get(`/v1/explorer/account-history?address=${BOB}&before=x`)).json.error.message).toMatch(/before must be <block>:<seq>/);
    expect((await api.get(`/v1/explorer/account-history?address=${BOB}&limit=1000`)).status).toBe(400);
  });
});
