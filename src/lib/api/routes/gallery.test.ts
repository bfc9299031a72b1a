// The gallery route over an in-memory ledger: the index follows mints, burns, property changes
// and transfers block by block; counts and rarity are of the whole collection; numbers sort as numbers.
import { beforeEach, describe, expect, it } from 'vitest';
import type { QueryTx } from '../../ledger/store';
import { galleryIndex } from '../gallery/sync';
import { ALICE, BOB, openApi, type Api } from './route-test-kit';

let api: Api;

const SCHEMA = {
  schemaName: 'unique',
  schemaVersion: '1.0.0',
  coverPicture: { url: 'https://img.example/cover.png' },
  image: { urlTemplate: 'https://img.example/{infix}' },
  attributesSchemaVersion: '1.0.0',
  attributesSchema: {
    '0': { name: { _: 'Color' }, type: 'string', optional: true },
    '1': { name: { _: 'Level' }, type: 'string', optional: true }
  }
};
const EDITABLE = [{ key: 'a.0', permission: { mutable: true, tokenOwner: true, collectionAdmin: true } }];

async function collection(): Promise<number> {
  return api.createCollection({ schema: SCHEMA, tokenPropertyPermissions: EDITABLE });
}

function token(name: string, color: string, level: string, infix = name) {
  return { data: { name, image: { urlInfix: infix }, attributes: { Color: color, Level: level } } };
}

async function mintMany(id: number, tokens: ReturnType<typeof token>[]) {
  await api.ok('POST', '/v1/tokens/create-multiple', { address: ALICE, collectionId: id, tokens });
}

const gallery = async (query: string) => {
  const answer = await api.get(`/v1/tokens/gallery?${query}`);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json;
};
const ids = (json: { tokens: { tokenId: number }[] }) => json.tokens.map((t) => t.tokenId);

beforeEach(async () => {
  api = await openApi();
});

describe('GET /tokens/gallery', () => {
  it('pages, searches and filters over the whole collection, with counts of every value', async () => {
    const id = await collection();
    await mintMany(id, [token('Ruby 1', 'red', '2'), token('Sky 2', 'blue', '10'), token('Ruby 3', 'red', '1'), token('Leaf 4', 'green', '11')]);
    const page = await gallery(`collectionId=${id}&limit=2`);
    expect(page).toMatchObject({ collectionId: id, total: 4, matching: 4, offset: 0 });
    expect(ids(page)).toEqual([1, 2]);
    expect(page.tokens[0]).toMatchObject({ tokenId: 1, name: 'Ruby 1', image: 'https://img.example/Ruby 1', owner: ALICE });
    expect(ids(await gallery(`collectionId=${id}&limit=2&offset=2`))).toEqual([3, 4]);
    const color = page.attributes.find((a: { name: string }) => a.name === 'Color');
    expect(color).toEqual({ name: 'Color', numeric: false, values: [{ value: 'red', count: 2 }, { value: 'blue', count: 1 }, { value: 'green', count: 1 }], more: 0 });
    expect(page.attributes.find((a: { name: string }) => a.name === 'Level').numeric).toBe(true);
    const limited = await gallery(`collectionId=${id}&values=1`);
    expect(limited.attributes[0].values).toHaveLength(1);
    expect(limited.attributes[0].more).toBe(2);

    const ruby = await gallery(`collectionId=${id}&search=RUBY`);
    expect([ruby.matching, ids(ruby)]).toEqual([2, [1, 3]]);
    // Counts stay those of the collection while filtering.
    expect(ruby.attributes.find((a: { name: string }) => a.name === 'Color').values[0]).toEqual({ value: 'red', count: 2 });
    expect(ids(await gallery(`collectionId=${id}&attr=Color:red&attr=Color:green`))).toEqual([1, 3, 4]);
    expect(ids(await gallery(`collectionId=${id}&attr=Color:red&attr=Level:1`))).toEqual([3]);
    expect((await gallery(`collectionId=${id}&attr=Color:purple`)).matching).toBe(0);
  });

  it('sorts numbers as numbers, names naturally, and by rarity over the whole collection', async () => {
    const id = await collection();
    await mintMany(id, [token('b10', 'red', '2'), token('b2', 'red', '10'), token('a', 'red', '1'), token('c', 'blue', '11'), token('d', 'red', 'x')]);
    expect(ids(await gallery(`collectionId=${id}&sort=attr:Level`))).toEqual([3, 1, 2, 4, 5]);
    expect(ids(await gallery(`collectionId=${id}&sort=attr:Level&order=desc`))).toEqual([4, 2, 1, 3, 5]);
    expect(ids(await gallery(`collectionId=${id}&sort=name`))).toEqual([3, 2, 1, 4, 5]);
    const rare = await gallery(`collectionId=${id}&sort=rarity`);
    // Token 4 is the only blue one: 5/1 + 5/1; the red ones score 5/4 + 5/1.
    expect(ids(rare)[0]).toBe(4);
    expect(rare.tokens[0].rarity).toBe(10);
    expect(rare.tokens[1].rarity).toBe(6.25);
    // Filtering does not change a token's rarity: it belongs to the collection.
    expect((await gallery(`collectionId=${id}&sort=rarity&attr=Color:red`)).tokens[0].rarity).toBe(6.25);
  });

  it('follows each block: mint, burn, property change and transfer', async () => {
    const id = await collection();
    await mintMany(id, [token('One', 'red', '1'), token('Two', 'red', '2')]);
    expect((await gallery(`collectionId=${id}`)).total).toBe(2);

    await mintMany(id, [token('Three', 'blue', '3')]);
    let page = await gallery(`collectionId=${id}&attr=Color:blue`);
    expect([page.total, ids(page)]).toEqual([3, [3]]);

    await api.ok('DELETE', '/v1/tokens', { address: ALICE, collectionId: id, tokenId: 1 });
    page = await gallery(`collectionId=${id}`);
    expect([page.total, ids(page)]).toEqual([2, [2, 3]]);
    expect(page.attributes.find((a: { name: string }) => a.name === 'Color').values).toEqual([{ value: 'blue', count: 1 }, { value: 'red', count: 1 }]);

    await api.ok('POST', '/v1/tokens/properties', { address: ALICE, collectionId: id, tokenId: 2, properties: [{ key: 'a.0', value: '{"_":"blue"}' }] });
    page = await gallery(`collectionId=${id}&attr=Color:blue`);
    expect(ids(page)).toEqual([2, 3]);
    expect(page.attributes.find((a: { name: string }) => a.name === 'Color').values).toEqual([{ value: 'blue', count: 2 }]);

    await api.ok('PATCH', '/v1/tokens/transfer', { address: ALICE, collectionId: id, tokenId: 3, to: BOB });
    page = await gallery(`collectionId=${id}&owner=${BOB}`);
    expect(ids(page)).toEqual([3]);
    expect(page.tokens[0].owner).toBe(BOB);
    expect(ids(await gallery(`collectionId=${id}&owner=${ALICE}`))).toEqual([2]);
  });

  it('answers 400 in the envelope for bad parameters and 404 for a missing collection', async () => {
    const id = await collection();
    const bad = [
      `collectionId=${id}&limit=201`,
      `collectionId=${id}&limit=0`,
      `collectionId=${id}&offset=-1`,
      `collectionId=${id}&sort=colour`,
      `collectionId=${id}&order=up`,
      `collectionId=${id}&attr=nocolon`,
      `collectionId=${id}&search=${'x'.repeat(101)}`,
      `collectionId=${id}&owner=nobody`,
      `collectionId=${id}&${Array.from({ length: 33 }, (_, i) => `attr=a:${i}`).join('&')}`,
      `collectionId=x`,
      `collectionId=${id}&at=1`
    ];
    for (const query of bad) {
      const answer = await api.get(`/v1/tokens/gallery?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.json.error.name).toBe('ValidationError');
      expect(answer.json.error.message.length).toBeLessThan(300);
    }
    const missing = await api.get('/v1/tokens/gallery?collectionId=999');
    expect([missing.status, missing.json.error.name]).toEqual([404, 'CollectionNotFoundError']);
  });

  it('brings the index forward from the rows a block changed, without reading the collection again', async () => {
    const id = await collection();
    await mintMany(id, [token('One', 'red', '1'), token('Two', 'red', '2')]);
    const asked: string[] = [];
    // The ledger's reads, noting every store method a query calls.
    const read = <T>(fn: (tx: QueryTx) => Promise<T>) =>
      api.ledger.read((tx) => fn(new Proxy(tx, { get: (target, key) => (asked.push(String(key)), Reflect.get(target, key)) })));
    const first = await galleryIndex(api.ledger, read, id, 'http://127.0.0.1/ipfs');
    expect(first.index.size).toBe(2);
    expect(asked).toContain('tokenIdsOfCollection');

    await mintMany(id, [token('Three', 'blue', '3')]);
    asked.length = 0;
    const next = await galleryIndex(api.ledger, read, id, 'http://127.0.0.1/ipfs');
    expect(next.index).toBe(first.index);
    expect(next.index.size).toBe(3);
    expect(next.block.number).toBeGreaterThan(first.block.number);
    expect(asked).not.toContain('tokenIdsOfCollection');
    expect(asked).toContain('history');
  });

  it('a rebuild that blocks land during ends at the head: rows read after a block are read again there', async () => {
    const id = await collection();
    await mintMany(id, [token('One', 'red', '1'), token('Two', 'red', '2')]);
    let reads = 0;
    // Between reading the ids and reading their rows, one token moves and another is minted.
    const read = async <T>(fn: (tx: QueryTx) => Promise<T>) => {
      if (++reads === 2) {
        await api.ok('PATCH', '/v1/tokens/transfer', { address: ALICE, collectionId: id, tokenId: 2, to: BOB });
        await mintMany(id, [token('Three', 'blue', '3')]);
      }
      return api.ledger.read(fn);
    };
    const { index, block } = await galleryIndex({}, read, id, 'http://127.0.0.1/ipfs');
    const page = index.query({ search: '', attributes: new Map(), sort: 'id', order: 'asc', offset: 0, limit: 10, values: 10 });
    expect(page.tokens.map((t) => [t.tokenId, t.owner])).toEqual([
      [1, ALICE],
      [2, BOB],
      [3, ALICE]
    ]);
    expect(block.number).toBe((await api.ledger.read((tx) => tx.headBlock()))!.number);
  });
});
