// The same behaviour checks against MemoryStore (the reference), DexieStore and SqliteStore.
import { afterEach, describe, expect, it } from 'vitest';
import { Overlay } from '../../src/lib/ledger/overlay';
import type { QueryTx, Rows, Store, TableName } from '../../src/lib/ledger/store';
import { TABLES } from '../../src/lib/ledger/store';
import { MemoryStore } from '../../src/lib/ledger/testing/memory-store';
import {
  ALICE,
  BOB,
  CHARLIE,
  account,
  block,
  blockHash,
  collection,
  extrinsic,
  nestingAddress,
  pooled,
  token
} from '../../src/lib/storage/testing/fixtures';
import { STORES } from './every-store';

/** Stores opened by a test, closed after it (the SQLite one deletes its temporary file). */
const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});
const tracked = (make: () => Promise<Store>) => async () => {
  const store = await make();
  opened.push(store);
  return store;
};

type AllRows = { [N in TableName]: Rows[N][] };

/** One row of every table, with compound keys where the table has them. */
function sampleRows(): AllRows {
  return {
    meta: [{ key: 'genesis', value: { hash: '0x01', big: 7n } }],
    accounts: [account(ALICE, 10n ** 30n + 1n, 3), account(BOB, 0n)],
    collections: [collection(1), collection(2, BOB)],
    tokens: [token(1, 1), token(1, 2, BOB), token(2, 1, [1, 1])],
    allowList: [
      { collectionId: 1, address: BOB },
      { collectionId: 1, address: ALICE }
    ],
    blocks: [block(0), block(1)],
    extrinsics: [extrinsic('0xaa', ALICE, 1000)],
    pool: [pooled('0xbb', ALICE, 3), pooled('0xcc', BOB, 0)]
  };
}

/** The key of the first sample row of each table, as `get` takes it. */
const SAMPLE_KEYS = {
  meta: 'genesis',
  accounts: ALICE,
  collections: 1,
  tokens: [1, 1],
  allowList: [1, BOB],
  blocks: 0,
  extrinsics: '0xaa',
  pool: '0xbb'
} as const;

async function putAll(store: Store, rows: AllRows): Promise<void> {
  await store.write(async (tx) => {
    for (const t of TABLES) for (const row of rows[t]) await tx.put(t, row as never);
  });
}

/** dump() with every table in a canonical order (adapters may order rows differently). */
async function sortedDump(store: Store): Promise<AllRows> {
  const dump = await store.dump();
  const out = {} as Record<string, unknown[]>;
  for (const t of TABLES) {
    out[t] = [...dump[t]].sort((a, b) => {
      const ka = JSON.stringify(keyString(t, a));
      const kb = JSON.stringify(keyString(t, b));
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
  }
  return out as AllRows;
}

function keyString(t: TableName, row: unknown): unknown {
  const r = row as Record<string, unknown>;
  switch (t) {
    case 'meta':
      return r.key;
    case 'accounts':
      return r.address;
    case 'collections':
      return r.id;
    case 'tokens':
      return [r.collectionId, r.tokenId];
    case 'allowList':
      return [r.collectionId, r.address];
    case 'blocks':
      return r.number;
    case 'extrinsics':
    case 'pool':
      return r.hash;
  }
}

/** A store with a small chain: two collections, nested tokens, allow list, blocks, extrinsics. */
async function seeded(make: () => Promise<Store>): Promise<Store> {
  const store = await make();
  await store.write(async (tx) => {
    tx.put('collections', collection(1));
    tx.put('collections', collection(2, BOB));
    tx.put('tokens', token(1, 1, ALICE));
    tx.put('tokens', token(1, 2, ALICE));
    tx.put('tokens', token(1, 3, BOB));
    tx.put('tokens', token(1, 4, [1, 1])); // nested under 1/1
    tx.put('tokens', token(2, 1, [1, 1])); // nested under 1/1, other collection
    tx.put('tokens', token(2, 2, ALICE));
    tx.put('tokens', token(2, 3, [1, 4])); // grandchild of 1/1
    tx.put('allowList', { collectionId: 1, address: CHARLIE });
    tx.put('allowList', { collectionId: 1, address: ALICE });
    tx.put('allowList', { collectionId: 2, address: BOB });
    for (let n = 0; n <= 5; n++) tx.put('blocks', block(n));
    tx.put('extrinsics', extrinsic('0x01', ALICE, 100));
    tx.put('extrinsics', extrinsic('0x02', BOB, 200));
    tx.put('extrinsics', extrinsic('0x03', ALICE, 300));
    tx.put('extrinsics', extrinsic('0x04', ALICE, 400));
  });
  return store;
}

const refs = (list: [number, number][]) => list.map(([collectionId, tokenId]) => ({ collectionId, tokenId }));
const keysOf = (tokens: { collectionId: number; tokenId: number }[]) =>
  tokens.map((t) => [t.collectionId, t.tokenId] as [number, number]);

describe.each(STORES)('%s', (_name, makeStore) => {
  const make = tracked(makeStore);

  it('puts, gets and deletes rows of every table, compound keys included', async () => {
    const store = await make();
    const rows = sampleRows();
    await putAll(store, rows);
    await store.read(async (tx) => {
      for (const t of TABLES) {
        expect(await tx.get(t, SAMPLE_KEYS[t] as never)).toEqual(rows[t][0]);
      }
      expect(await tx.get('tokens', [1, 2])).toEqual(token(1, 2, BOB));
      expect(await tx.get('tokens', [2, 1])).toEqual(token(2, 1, [1, 1]));
      expect(await tx.get('tokens', [2, 2])).toBeUndefined();
      expect(await tx.get('allowList', [1, ALICE])).toEqual({ collectionId: 1, address: ALICE });
      expect(await tx.get('allowList', [2, ALICE])).toBeUndefined();
      expect(await tx.get('accounts', CHARLIE)).toBeUndefined();
    });
    await store.write(async (tx) => {
      for (const t of TABLES) await tx.delete(t, SAMPLE_KEYS[t] as never);
    });
    await store.read(async (tx) => {
      for (const t of TABLES) expect(await tx.get(t, SAMPLE_KEYS[t] as never)).toBeUndefined();
      // The other rows are still there.
      expect(await tx.get('tokens', [1, 2])).toEqual(token(1, 2, BOB));
      expect(await tx.get('allowList', [1, ALICE])).toEqual({ collectionId: 1, address: ALICE });
      expect(await tx.get('accounts', BOB)).toEqual(account(BOB, 0n));
    });
    // Put over an existing key replaces the row.
    await store.write(async (tx) => {
      tx.put('tokens', { ...token(1, 2, BOB), owner: CHARLIE });
    });
    expect(await store.read((tx) => tx.get('tokens', [1, 2]))).toEqual({ ...token(1, 2, BOB), owner: CHARLIE });
    store.close();
  });

  it('stores copies: changing a row after put or after get changes nothing stored', async () => {
    const store = await make();
    const row = token(1, 1);
    await store.write(async (tx) => {
      tx.put('tokens', row);
      row.owner = BOB;
      const got = (await tx.get('tokens', [1, 1]))!;
      expect(got.owner).toBe(ALICE);
      got.owner = CHARLIE;
      expect((await tx.get('tokens', [1, 1]))!.owner).toBe(ALICE);
    });
    const got = (await store.read((tx) => tx.get('tokens', [1, 1])))!;
    got.properties.push({ key: 'x', value: 'y' });
    expect(await store.read((tx) => tx.get('tokens', [1, 1]))).toEqual(token(1, 1));
  });

  it('round-trips bigint values (balances, call args, meta)', async () => {
    const store = await make();
    const huge = 2n ** 128n + 12345678901234567890n;
    await store.write(async (tx) => {
      tx.put('accounts', account(ALICE, huge, 1));
      tx.put('accounts', account(BOB, 0n));
      tx.put('meta', { key: 'big', value: { list: [1n, -2n], nested: { x: huge } } });
      tx.put('extrinsics', extrinsic('0xbb', ALICE, 1));
    });
    await store.read(async (tx) => {
      const a = (await tx.get('accounts', ALICE))!;
      expect(typeof a.free).toBe('bigint');
      expect(a.free).toBe(huge);
      expect((await tx.get('accounts', BOB))!.free).toBe(0n);
      expect(await tx.get('meta', 'big')).toEqual({ key: 'big', value: { list: [1n, -2n], nested: { x: huge } } });
      const x = (await tx.get('extrinsics', '0xbb'))!;
      expect(x.call).toEqual({ name: 'balances.transferKeepAlive', args: { dest: BOB, value: 10n ** 18n } });
    });
    const dump = await store.dump();
    expect(dump.accounts.find((r) => r.address === ALICE)!.free).toBe(huge);
  });

  it('sees its own writes inside one write transaction (read-after-write)', async () => {
    const store = await seeded(make);
    await store.write(async (tx) => {
      // get
      await tx.put('accounts', account(CHARLIE, 5n, 1));
      expect(await tx.get('accounts', CHARLIE)).toEqual(account(CHARLIE, 5n, 1));
      await tx.put('accounts', account(CHARLIE, 6n, 2));
      expect(await tx.get('accounts', CHARLIE)).toEqual(account(CHARLIE, 6n, 2));
      await tx.delete('accounts', CHARLIE);
      expect(await tx.get('accounts', CHARLIE)).toBeUndefined();
      await tx.delete('tokens', [1, 1]);
      expect(await tx.get('tokens', [1, 1])).toBeUndefined();
      await tx.put('tokens', token(1, 1, ALICE));

      // childrenOf: a new child, a child moved away, a child deleted.
      await tx.put('tokens', token(3, 1, [1, 1]));
      await tx.put('tokens', { ...token(1, 4, BOB) }); // un-nested
      await tx.delete('tokens', [2, 1]);
      expect(keysOf(await tx.childrenOf(1, 1))).toEqual([[3, 1]]);
      expect(keysOf(await tx.childrenOf(1, 4))).toEqual([[2, 3]]);

      // countOwned / tokensOfOwner / tokenIdsOfCollection
      expect(await tx.countOwned(1, BOB)).toBe(2); // 1/3 + 1/4
      await tx.put('tokens', token(1, 2, BOB)); // ALICE → BOB
      await tx.put('tokens', token(1, 9, BOB)); // new
      expect(await tx.countOwned(1, BOB)).toBe(4);
      expect(await tx.countOwned(1, ALICE)).toBe(1);
      expect(await tx.tokensOfOwner(BOB)).toEqual(refs([[1, 2], [1, 3], [1, 4], [1, 9]]));
      expect(await tx.tokensOfOwner(ALICE)).toEqual(refs([[1, 1], [2, 2]]));
      expect(await tx.tokensOfOwner(ALICE, 2)).toEqual(refs([[2, 2]]));
      expect(await tx.tokenIdsOfCollection(1)).toEqual([1, 2, 3, 4, 9]);
      expect(await tx.tokenIdsOfCollection(2)).toEqual([2, 3]);
      expect(await tx.tokenIdsOfCollection(3)).toEqual([1]);

      // allowListOf
      await tx.put('allowList', { collectionId: 1, address: BOB });
      await tx.delete('allowList', [1, CHARLIE]);
      expect(await tx.allowListOf(1)).toEqual([ALICE, BOB].sort());

      // recentExtrinsics: a newer one, an older one, one deleted, one moved in time.
      await tx.put('extrinsics', extrinsic('0x05', BOB, 500));
      await tx.put('extrinsics', extrinsic('0x00', ALICE, 50));
      await tx.delete('extrinsics', '0x04');
      await tx.put('extrinsics', extrinsic('0x01', ALICE, 350));
      expect((await tx.recentExtrinsics(3)).map((e) => e.hash)).toEqual(['0x05', '0x01', '0x03']);
      expect((await tx.recentExtrinsics(10, ALICE)).map((e) => e.hash)).toEqual(['0x01', '0x03', '0x00']);
      expect((await tx.recentExtrinsics(1, BOB)).map((e) => e.hash)).toEqual(['0x05']);

      // headBlock / blockByHash
      await tx.put('blocks', block(6));
      expect((await tx.headBlock())!.number).toBe(6);
      expect((await tx.blockByHash(blockHash(6)))!.number).toBe(6);
      await tx.delete('blocks', 6);
      await tx.delete('blocks', 5);
      expect((await tx.headBlock())!.number).toBe(4);
      expect(await tx.blockByHash(blockHash(5))).toBeUndefined();
      await tx.delete('blocks', 3); // a block is replaced only once gone (SQLite refuses to overwrite one)
      await tx.put('blocks', { ...block(3), hash: '0xnew' });
      expect(await tx.blockByHash(blockHash(3))).toBeUndefined();
      expect((await tx.blockByHash('0xnew'))!.number).toBe(3);
    });
    // And all of it was committed.
    await store.read(async (tx) => {
      expect(await tx.get('accounts', CHARLIE)).toBeUndefined();
      expect(keysOf(await tx.childrenOf(1, 1))).toEqual([[3, 1]]);
      expect(await tx.countOwned(1, BOB)).toBe(4);
      expect(await tx.tokenIdsOfCollection(1)).toEqual([1, 2, 3, 4, 9]);
      expect(await tx.allowListOf(1)).toEqual([ALICE, BOB].sort());
      expect((await tx.recentExtrinsics(3)).map((e) => e.hash)).toEqual(['0x05', '0x01', '0x03']);
      expect((await tx.headBlock())!.number).toBe(4);
      expect((await tx.blockByHash('0xnew'))!.number).toBe(3);
    });
  });

  it('writes nothing when the write callback throws, and rethrows its error', async () => {
    const store = await seeded(make);
    const before = await sortedDump(store);
    const boom = new Error('boom');
    await expect(
      store.write(async (tx) => {
        for (const t of TABLES) await tx.delete(t, SAMPLE_KEYS[t] as never);
        tx.put('accounts', account(CHARLIE, 1n));
        tx.put('tokens', token(9, 9, CHARLIE));
        await tx.get('tokens', [9, 9]);
        await tx.countOwned(9, CHARLIE); // index reads mid-way do not commit anything
        throw boom;
      })
    ).rejects.toBe(boom);
    expect(await sortedDump(store)).toEqual(before);
    // The store still works afterwards.
    await store.write(async (tx) => tx.put('accounts', account(CHARLIE, 1n)));
    expect(await store.read((tx) => tx.get('accounts', CHARLIE))).toEqual(account(CHARLIE, 1n));
  });

  it('returns the write callback result', async () => {
    const store = await make();
    expect(await store.write(async () => 42)).toBe(42);
    expect(await store.read(async () => 'r')).toBe('r');
  });

  it('answers the index queries', async () => {
    const store = await seeded(make);
    await store.read(async (tx: QueryTx) => {
      expect(keysOf(await tx.childrenOf(1, 1))).toEqual([[1, 4], [2, 1]]);
      expect(keysOf(await tx.childrenOf(1, 4))).toEqual([[2, 3]]);
      expect(await tx.childrenOf(1, 2)).toEqual([]);
      expect(await tx.childrenOf(9, 9)).toEqual([]);
      expect((await tx.childrenOf(1, 1))[0]).toEqual(token(1, 4, [1, 1]));

      expect(await tx.countOwned(1, ALICE)).toBe(2);
      expect(await tx.countOwned(1, BOB)).toBe(1);
      expect(await tx.countOwned(2, ALICE)).toBe(1);
      expect(await tx.countOwned(2, BOB)).toBe(0);
      expect(await tx.countOwned(1, nestingAddress(1, 1))).toBe(1);
      expect(await tx.countOwned(2, nestingAddress(1, 1))).toBe(1);

      expect(await tx.tokensOfOwner(ALICE)).toEqual(refs([[1, 1], [1, 2], [2, 2]]));
      expect(await tx.tokensOfOwner(ALICE, 1)).toEqual(refs([[1, 1], [1, 2]]));
      expect(await tx.tokensOfOwner(ALICE, 3)).toEqual([]);
      expect(await tx.tokensOfOwner(BOB)).toEqual(refs([[1, 3]]));
      expect(await tx.tokensOfOwner(CHARLIE)).toEqual([]);
      expect(await tx.tokensOfOwner(nestingAddress(1, 1))).toEqual(refs([[1, 4], [2, 1]]));

      expect(await tx.tokenIdsOfCollection(1)).toEqual([1, 2, 3, 4]);
      expect(await tx.tokenIdsOfCollection(2)).toEqual([1, 2, 3]);
      expect(await tx.tokenIdsOfCollection(3)).toEqual([]);

      expect(await tx.allowListOf(1)).toEqual([ALICE, CHARLIE].sort());
      expect(await tx.allowListOf(2)).toEqual([BOB]);
      expect(await tx.allowListOf(3)).toEqual([]);

      expect((await tx.recentExtrinsics(10)).map((e) => e.hash)).toEqual(['0x04', '0x03', '0x02', '0x01']);
      expect((await tx.recentExtrinsics(2)).map((e) => e.hash)).toEqual(['0x04', '0x03']);
      expect((await tx.recentExtrinsics(2, ALICE)).map((e) => e.hash)).toEqual(['0x04', '0x03']);
      expect((await tx.recentExtrinsics(10, BOB)).map((e) => e.hash)).toEqual(['0x02']);
      expect(await tx.recentExtrinsics(10, CHARLIE)).toEqual([]);
      expect(await tx.recentExtrinsics(0)).toEqual([]);
      expect((await tx.recentExtrinsics(1))[0]).toEqual(extrinsic('0x04', ALICE, 400));

      expect(await tx.headBlock()).toEqual(block(5));
      expect(await tx.blockByHash(blockHash(3))).toEqual(block(3));
      expect(await tx.blockByHash('0xmissing')).toBeUndefined();
    });
  });

  it('has no head block on an empty ledger', async () => {
    const store = await make();
    expect(await store.read((tx) => tx.headBlock())).toBeUndefined();
    expect(await store.read((tx) => tx.recentExtrinsics(5))).toEqual([]);
  });

  it('keeps the waiting pool: pooled() lists every row, a delete removes one', async () => {
    const store = await make();
    expect(await store.read((tx) => tx.pooled())).toEqual([]);
    await store.write(async (tx) => {
      tx.put('pool', pooled('0x02', BOB, 0));
      tx.put('pool', pooled('0x01', ALICE, 7));
      tx.put('pool', pooled('0x03', ALICE, 8));
      tx.delete('pool', '0x03');
      expect((await tx.pooled()).map((p) => p.hash).sort()).toEqual(['0x01', '0x02']);
    });
    const rows = await store.read((tx) => tx.pooled());
    expect([...rows].sort((a, b) => a.nonce - b.nonce)).toEqual([pooled('0x02', BOB, 0), pooled('0x01', ALICE, 7)]);
    expect(typeof rows[0].fee).toBe('bigint');
    await store.write(async (tx) => tx.delete('pool', '0x01'));
    expect(await store.read((tx) => tx.pooled())).toEqual([pooled('0x02', BOB, 0)]);
    expect(await store.read((tx) => tx.get('pool', '0x02'))).toEqual(pooled('0x02', BOB, 0));
  });

  it('round-trips dump → replaceAll into another store, replacing what was there', async () => {
    const source = await seeded(make);
    await putAll(source, { ...sampleRows(), blocks: [] }); // seeded holds blocks 0 to 5 already
    const dump = await source.dump();
    for (const t of TABLES) expect(dump[t].length).toBeGreaterThan(0);

    const target = await make();
    await target.write(async (tx) => {
      tx.put('accounts', account(CHARLIE, 99n));
      tx.put('tokens', token(7, 7, CHARLIE));
      tx.put('blocks', block(99));
    });
    await target.replaceAll(structuredClone(dump));
    expect(await sortedDump(target)).toEqual(await sortedDump(source));
    await target.read(async (tx) => {
      expect(await tx.get('accounts', CHARLIE)).toBeUndefined();
      expect(await tx.tokensOfOwner(CHARLIE)).toEqual([]);
      expect((await tx.headBlock())!.number).toBe(5);
      expect(keysOf(await tx.childrenOf(1, 1))).toEqual([[1, 4], [2, 1]]);
      expect((await tx.get('accounts', ALICE))!.free).toBe(10n ** 30n + 1n);
    });

    // Tables missing from the import are emptied.
    await target.replaceAll({ accounts: [account(BOB, 1n)] } as unknown as AllRows);
    const after = await target.dump();
    for (const t of TABLES) expect(after[t]).toEqual(t === 'accounts' ? [account(BOB, 1n)] : []);
  });

  it('runs an Overlay on top of a write transaction (childrenOf/countOwned merge)', async () => {
    const store = await seeded(make);
    await store.write(async (tx) => {
      tx.put('accounts', account(ALICE, 100n)); // written below the overlay, before it
      const overlay = new Overlay(tx);
      await overlay.put('tokens', token(1, 5, [1, 1])); // new child of 1/1
      await overlay.put('tokens', token(2, 1, CHARLIE)); // 2/1 un-nested, to CHARLIE
      await overlay.put('tokens', token(1, 2, BOB)); // ALICE → BOB
      await overlay.delete('tokens', [1, 3]); // BOB's burned
      expect(keysOf(await overlay.childrenOf(1, 1))).toEqual([[1, 4], [1, 5]]);
      expect(await overlay.countOwned(1, BOB)).toBe(1);
      expect(await overlay.countOwned(1, ALICE)).toBe(1);
      expect(await overlay.countOwned(2, CHARLIE)).toBe(1);
      expect((await overlay.get('accounts', ALICE))!.free).toBe(100n);
      // Below the overlay nothing changed yet.
      expect(keysOf(await tx.childrenOf(1, 1))).toEqual([[1, 4], [2, 1]]);
      expect(await tx.countOwned(1, BOB)).toBe(1);

      await overlay.commit();
      expect(keysOf(await tx.childrenOf(1, 1))).toEqual([[1, 4], [1, 5]]);
      expect(await tx.countOwned(1, BOB)).toBe(1);
      expect(await tx.countOwned(1, ALICE)).toBe(1);

      // A second overlay on the same transaction, dropped: reverts only its own writes.
      const dropped = new Overlay(tx);
      await dropped.put('tokens', token(1, 6, BOB));
      expect(await dropped.countOwned(1, BOB)).toBe(2);
      // And a nested overlay (call inside a call) merges through two levels.
      const inner = new Overlay(overlay);
      await inner.put('tokens', token(1, 7, [1, 5]));
      expect(keysOf(await inner.childrenOf(1, 5))).toEqual([[1, 7]]);
      await inner.commit();
      await overlay.commit();
    });
    await store.read(async (tx) => {
      expect(keysOf(await tx.childrenOf(1, 1))).toEqual([[1, 4], [1, 5]]);
      expect(keysOf(await tx.childrenOf(1, 5))).toEqual([[1, 7]]);
      expect(await tx.get('tokens', [1, 6])).toBeUndefined();
      expect(await tx.get('tokens', [1, 3])).toBeUndefined();
      expect(await tx.countOwned(1, BOB)).toBe(1);
      expect(await tx.tokensOfOwner(CHARLIE)).toEqual(refs([[2, 1]]));
      expect((await tx.get('accounts', ALICE))!.free).toBe(100n);
    });
  });

  it('completes 1,000 token puts in one write transaction', async () => {
    const store = await make();
    await store.write(async (tx) => {
      for (let i = 1; i <= 1000; i++) {
        await tx.put('tokens', token(1, i, i % 2 ? ALICE : BOB));
      }
      expect(await tx.countOwned(1, ALICE)).toBe(500);
    });
    await store.read(async (tx) => {
      expect(await tx.countOwned(1, ALICE)).toBe(500);
      expect(await tx.countOwned(1, BOB)).toBe(500);
      const ids = await tx.tokenIdsOfCollection(1);
      expect(ids.length).toBe(1000);
      expect(ids[999]).toBe(1000);
      expect((await tx.get('tokens', [1, 1000]))!.owner).toBe(BOB);
    });
  });
});

// ---- differential: random operations, both stores in lock-step --------------------------------

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// A fork runs a transaction's function again after copying what it missed; this test's function
// also writes the reference store beside it, so it checks the stores that run it once.
const ADAPTERS = STORES.filter(([name]) => name !== 'MemoryStore' && name !== 'ForkStore');

describe.each(ADAPTERS)('%s against MemoryStore, random operations', (_name, makeStore) => {
  it('agrees on every read, inside and after write transactions', async () => {
    const memory = new MemoryStore();
    const adapter = await tracked(makeStore)();
    const rand = prng(20240601);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
    const owners = [ALICE, BOB, CHARLIE, nestingAddress(1, 1), nestingAddress(2, 3)];
    const collections = [1, 2, 3];
    let createdAt = 0;
    let checks = 0;

    const randomToken = () => {
      const c = pick(collections);
      const t = 1 + Math.floor(rand() * 6);
      const r = rand();
      if (r < 0.3) return token(c, t, [pick(collections), 1 + Math.floor(rand() * 6)]);
      return token(c, t, pick(owners));
    };

    async function compare(m: QueryTx, d: QueryTx): Promise<void> {
      const c = pick(collections);
      const t = 1 + Math.floor(rand() * 6);
      const o = pick(owners);
      const s = pick([ALICE, BOB, CHARLIE]);
      const limit = Math.floor(rand() * 6);
      const byKey = (list: { collectionId: number; tokenId: number }[]) =>
        [...list].sort((a, b) => a.collectionId - b.collectionId || a.tokenId - b.tokenId);
      expect(await d.get('tokens', [c, t])).toEqual(await m.get('tokens', [c, t]));
      expect(byKey(await d.childrenOf(c, t))).toEqual(byKey(await m.childrenOf(c, t)));
      expect(await d.countOwned(c, o)).toBe(await m.countOwned(c, o));
      expect(await d.tokensOfOwner(o)).toEqual(await m.tokensOfOwner(o));
      expect(await d.tokensOfOwner(o, c)).toEqual(await m.tokensOfOwner(o, c));
      expect(await d.tokenIdsOfCollection(c)).toEqual(await m.tokenIdsOfCollection(c));
      expect(await d.allowListOf(c)).toEqual(await m.allowListOf(c));
      expect(await d.recentExtrinsics(limit)).toEqual(await m.recentExtrinsics(limit));
      expect(await d.recentExtrinsics(limit, s)).toEqual(await m.recentExtrinsics(limit, s));
      expect(await d.headBlock()).toEqual(await m.headBlock());
      const h = blockHash(Math.floor(rand() * 8));
      expect(await d.blockByHash(h)).toEqual(await m.blockByHash(h));
      expect(await d.get('accounts', s)).toEqual(await m.get('accounts', s));
      const byHash = (list: { hash: string }[]) => [...list].sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
      expect(byHash(await d.pooled())).toEqual(byHash(await m.pooled()));
      checks++;
    }

    for (let round = 0; round < 25; round++) {
      const fail = rand() < 0.2;
      const run = (m: QueryTx, d: QueryTx) => async () => {
        for (let op = 0; op < 25; op++) {
          const r = rand();
          const both = async (f: (tx: QueryTx) => unknown) => {
            await f(m);
            await f(d);
          };
          if (r < 0.35) {
            const row = randomToken();
            await both((tx) => tx.put('tokens', row));
          } else if (r < 0.5) {
            const key: [number, number] = [pick(collections), 1 + Math.floor(rand() * 6)];
            await both((tx) => tx.delete('tokens', key));
          } else if (r < 0.6) {
            const row = { collectionId: pick(collections), address: pick(owners) };
            if (rand() < 0.6) await both((tx) => tx.put('allowList', row));
            else await both((tx) => tx.delete('allowList', [row.collectionId, row.address]));
          } else if (r < 0.7) {
            const hash = '0x' + Math.floor(rand() * 12).toString(16).padStart(2, '0');
            const row = extrinsic(hash, pick([ALICE, BOB, CHARLIE]), ++createdAt);
            if (rand() < 0.7) await both((tx) => tx.put('extrinsics', row));
            else await both((tx) => tx.delete('extrinsics', hash));
          } else if (r < 0.8) {
            const n = Math.floor(rand() * 8);
            // Put as a new block (one never overwrites another), or delete.
            if (rand() < 0.7) await both(async (tx) => (await tx.get('blocks', n)) === undefined && tx.put('blocks', block(n)));
            else await both((tx) => tx.delete('blocks', n));
          } else if (r < 0.85) {
            const row = account(pick([ALICE, BOB, CHARLIE]), BigInt(Math.floor(rand() * 1e9)) * 10n ** 12n);
            await both((tx) => tx.put('accounts', row));
          } else if (r < 0.92) {
            const hash = '0xp' + Math.floor(rand() * 6);
            const row = pooled(hash, pick([ALICE, BOB, CHARLIE]), Math.floor(rand() * 5), ++createdAt);
            if (rand() < 0.6) await both((tx) => tx.put('pool', row));
            else await both((tx) => tx.delete('pool', hash));
          }
          await compare(m, d);
        }
        if (fail) throw new Error('rollback');
      };
      const result = adapter.write((d) => memory.write((m) => run(m, d)()));
      if (fail) await expect(result).rejects.toThrow('rollback');
      else await result;
      await adapter.read((d) => memory.read((m) => compare(m, d)));
      expect(await sortedDump(adapter)).toEqual(await sortedDump(memory));
    }
    expect(checks).toBeGreaterThan(500);
  }, 30_000); // slow on a busy 2-core machine, not a timing check
});
