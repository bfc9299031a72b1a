// DexieStore specifics: schema, durability, index use, transaction rules, quota, upgrades.
import { Dexie, type DBCore, type DBCoreMutateRequest, type Middleware } from 'dexie';
import { IDBCursor, IDBDatabase, IDBFactory, IDBIndex, IDBKeyRange, IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueryTx } from '../ledger/store';
import { TABLES } from '../ledger/store';
import { Ledger } from '../ledger/chain/ledger';
import { keyOf, transfer } from '../ledger/testing/chain-kit';
import { DexieStore, openDexieStore } from './dexie-store';
import { StorageFullError, isQuotaError } from './errors';
import { DB_SCHEMA_VERSION, DEFAULT_DB_NAME, HISTORY_TABLES, LedgerDatabase, SCHEMA_VERSIONS } from './schema';
import {
  ALICE,
  BOB,
  account,
  block,
  blockHash,
  dexieStoreWith,
  extrinsic,
  freshDexieStore,
  freshName,
  freshOptions,
  token
} from './testing/fixtures';

const restores: (() => void)[] = [];
afterEach(() => {
  while (restores.length) restores.pop()!();
});

/** Replace `proto[method]` for the rest of the test. */
function spy(proto: object, method: string, wrap: (orig: (...a: unknown[]) => unknown) => (...a: unknown[]) => unknown) {
  const target = proto as Record<string, (...a: unknown[]) => unknown>;
  const orig = target[method];
  target[method] = wrap(orig);
  restores.push(() => {
    target[method] = orig;
  });
}

/** Counts IndexedDB get requests from now on. */
function countGets(): () => number {
  let gets = 0;
  spy(IDBObjectStore.prototype, 'get', (orig) =>
    function (this: unknown, ...a: unknown[]) {
      gets++;
      return orig.apply(this, a);
    }
  );
  return () => gets;
}

describe('schema', () => {
  it('creates every ledger table, the files table and the indexes, at DB_SCHEMA_VERSION', async () => {
    const store = await freshDexieStore();
    expect(DB_SCHEMA_VERSION).toBe(SCHEMA_VERSIONS[SCHEMA_VERSIONS.length - 1].version);
    expect(store.db.verno).toBe(DB_SCHEMA_VERSION);
    const idb = store.db.backendDB();
    const names = [...idb.objectStoreNames].sort();
    expect(names).toEqual([...TABLES, 'files', ...HISTORY_TABLES].sort());
    const trans = idb.transaction(names, 'readonly');
    const describeStore = (name: string) => {
      const s = trans.objectStore(name);
      return {
        key: s.keyPath,
        indexes: Object.fromEntries([...s.indexNames].map((i) => [i, s.index(i).keyPath]))
      };
    };
    expect(describeStore('meta')).toEqual({ key: 'key', indexes: {} });
    expect(describeStore('accounts')).toEqual({ key: 'address', indexes: {} });
    expect(describeStore('collections')).toEqual({ key: 'id', indexes: {} });
    expect(describeStore('tokens')).toEqual({
      key: ['collectionId', 'tokenId'],
      indexes: {
        '[collectionId+owner]': ['collectionId', 'owner'],
        owner: 'owner',
        '[parentCollectionId+parentTokenId]': ['parentCollectionId', 'parentTokenId']
      }
    });
    expect(describeStore('allowList')).toEqual({ key: ['collectionId', 'address'], indexes: {} });
    expect(describeStore('blocks')).toEqual({ key: 'number', indexes: { hash: 'hash' } });
    expect(describeStore('extrinsics')).toEqual({
      key: 'hash',
      indexes: { createdAt: 'createdAt', '[signer+createdAt]': ['signer', 'createdAt'] }
    });
    expect(describeStore('files')).toEqual({ key: 'cid', indexes: { createdAt: 'createdAt' } });
    expect(describeStore('changes')).toEqual({
      key: ['block', 'seq'],
      indexes: { '[tbl+keyId+block+seq]': ['tbl', 'keyId', 'block', 'seq'], '[tbl+block+keyId]': ['tbl', 'block', 'keyId'], accountPlaces: 'accountPlaces' }
    });
    expect(describeStore('historyInfo')).toEqual({ key: 'key', indexes: {} });
    store.close();
  });

  it("names the database 'opalite-ledger' unless told otherwise", () => {
    const factory = new IDBFactory();
    expect(new LedgerDatabase({ indexedDB: factory, IDBKeyRange }).name).toBe(DEFAULT_DB_NAME);
    expect(new LedgerDatabase({ indexedDB: factory, IDBKeyRange, name: 'other' }).name).toBe('other');
  });

  it('keeps separate ledgers under separate names, and keeps data across reopening', async () => {
    const options = freshOptions();
    const a = await openDexieStore(options);
    const b = await openDexieStore({ ...options, name: freshName() });
    await a.write(async (tx) => tx.put('accounts', account(ALICE, 5n)));
    expect(await b.read((tx) => tx.get('accounts', ALICE))).toBeUndefined();
    a.close();
    const again = await openDexieStore(options);
    expect(await again.read((tx) => tx.get('accounts', ALICE))).toEqual(account(ALICE, 5n));
    again.close();
    b.close();
  });

  it('upgrades a version-1 ledger to the current and a later version with nothing lost (the documented procedure)', async () => {
    const options = freshOptions();
    // Written by the first release, with only version 1's declarations (so no pool table).
    const v1 = new LedgerDatabase({ ...options, versions: SCHEMA_VERSIONS.slice(0, 1) });
    await v1.tokens.bulkPut([token(1, 1, ALICE), { ...token(1, 2, BOB), approved: ALICE }]);
    await v1.accounts.put(account(ALICE, 2n ** 70n));
    await v1.files.put({ cid: 'bafy1', bytes: new Uint8Array([1, 2]), type: 'text/plain', name: 'a.txt', size: 2, createdAt: 1 });
    v1.close();

    const v2db = new LedgerDatabase({
      ...options,
      versions: [
        ...SCHEMA_VERSIONS,
        {
          version: DB_SCHEMA_VERSION + 1,
          stores: {
            tokens: '[collectionId+tokenId], [collectionId+owner], owner, [parentCollectionId+parentTokenId], approved'
          },
          upgrade: async (tx) => {
            await tx.table('meta').put({ key: 'upgradedTo', value: DB_SCHEMA_VERSION + 1 });
          }
        }
      ]
    });
    await v2db.open();
    expect(v2db.verno).toBe(DB_SCHEMA_VERSION + 1);
    const v2 = new DexieStore(v2db);
    await v2.read(async (tx) => {
      expect(await tx.get('tokens', [1, 1])).toEqual(token(1, 1, ALICE));
      expect((await tx.get('accounts', ALICE))!.free).toBe(2n ** 70n);
      expect(await tx.countOwned(1, BOB)).toBe(1);
      expect(await tx.get('meta', 'upgradedTo')).toEqual({ key: 'upgradedTo', value: DB_SCHEMA_VERSION + 1 });
      // Version 2 added the waiting pool: empty on a ledger that never had one.
      expect(await tx.pooled()).toEqual([]);
    });
    expect(await v2db.tokens.where('approved').equals(ALICE).primaryKeys()).toEqual([[1, 2]]);
    expect(await v2.files.hasFile('bafy1')).toBe(true);
    v2.close();
  });
});

describe('transactions', () => {
  it("opens write transactions read-write with durability 'strict', over every ledger table", async () => {
    const seen: { mode: string; durability: string; stores: string[] }[] = [];
    spy(IDBDatabase.prototype, 'transaction', (orig) =>
      function (this: unknown, ...args: unknown[]) {
        const t = orig.apply(this, args) as IDBTransaction;
        seen.push({ mode: t.mode, durability: t.durability, stores: [...t.objectStoreNames].sort() });
        return t;
      }
    );
    const store = await freshDexieStore(); // opened after the spy: Dexie binds transaction() on open
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 1n)));
    await store.read((tx) => tx.get('accounts', ALICE));
    await store.replaceAll(await store.dump());
    // The state history's tables are in every ledger transaction too, so a block and its changes commit together.
    const ledger = [...TABLES, ...HISTORY_TABLES].sort();
    const rw = seen.filter((s) => s.mode === 'readwrite');
    expect(rw.length).toBe(2);
    for (const s of rw) expect(s).toEqual({ mode: 'readwrite', durability: 'strict', stores: ledger });
    expect(seen.filter((s) => s.mode === 'readonly' && s.stores.length === ledger.length).length).toBe(2);
    store.close();
  });

  it("runs reads outside Dexie's transaction zone, Dexie's queries included", async () => {
    const store = await freshDexieStore();
    await store.write(async (tx) => tx.put('accounts', account(BOB, 1n)));
    // Dexie's zone would follow every await of the callback; a read transaction is opened without one.
    const zones: unknown[] = [];
    const [bob, ids] = await store.read(async (tx) => {
      zones.push(Dexie.currentTransaction);
      const row = await tx.get('accounts', BOB);
      zones.push(Dexie.currentTransaction);
      return [row, await tx.tokenIdsOfCollection(1)] as const; // a Dexie query finds its transaction without a zone
    });
    expect({ zones, bob, ids }).toEqual({ zones: [null, null], bob: account(BOB, 1n), ids: [] });
    store.close();
  });

  it('rejects put/delete in a read transaction and any use of a finished transaction', async () => {
    const store = await freshDexieStore();
    await expect(store.read(async (tx) => tx.put('accounts', account(ALICE, 1n)))).rejects.toThrow(/store\.write/);
    await expect(store.read(async (tx) => tx.delete('accounts', ALICE))).rejects.toThrow(/store\.write/);
    let leaked: QueryTx | undefined;
    await store.write(async (tx) => {
      leaked = tx;
    });
    expect(() => leaked!.put('accounts', account(ALICE, 1n))).toThrow(/finished/);
    await expect(leaked!.get('accounts', ALICE)).rejects.toThrow(/finished/);
    expect(await store.read((tx) => tx.get('accounts', ALICE))).toBeUndefined();
  });

  it('rejects keys IndexedDB cannot store at the put, not at commit', async () => {
    const store = await freshDexieStore();
    await expect(store.write(async (tx) => tx.put('tokens', token(Number.NaN, 1)))).rejects.toThrow(/invalid tokens key/);
    await expect(store.write(async (tx) => tx.delete('blocks', undefined as never))).rejects.toThrow(/invalid blocks key/);
  });

  it('allows awaiting already-settled promises between IndexedDB calls', async () => {
    const store = await freshDexieStore();
    await store.write(async (tx) => {
      await tx.put('accounts', account(ALICE, 1n));
      await Promise.resolve();
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      const a = await tx.get('accounts', ALICE);
      await null;
      await tx.put('accounts', { ...a!, free: a!.free + 1n });
      await tx.countOwned(1, ALICE);
      await Promise.all([tx.get('blocks', 1), tx.childrenOf(1, 1), tx.headBlock()]);
    });
    expect((await store.read((tx) => tx.get('accounts', ALICE)))!.free).toBe(2n);
  });

  it('writes nothing when the callback waits on something else and the transaction commits early', async () => {
    const store = await freshDexieStore();
    await store.write(async (tx) => tx.put('accounts', account(BOB, 1n)));
    await expect(
      store.write(async (tx) => {
        tx.put('accounts', account(ALICE, 1n));
        await tx.get('accounts', BOB);
        await new Promise((resolve) => setTimeout(resolve, 20)); // not IndexedDB work
        tx.put('accounts', account(BOB, 2n));
      })
    ).rejects.toThrow(/only IndexedDB work may be awaited.*Nothing of this write was stored/);
    await store.read(async (tx) => {
      expect(await tx.get('accounts', ALICE)).toBeUndefined();
      expect(await tx.get('accounts', BOB)).toEqual(account(BOB, 1n));
    });
  });

  it('in a write, reads a stored row from IndexedDB once, giving each caller its own copy and its own writes after', async () => {
    const store = await freshDexieStore();
    await store.write(async (tx) => tx.put('accounts', account(BOB, 1n)));
    const gets = countGets();
    await store.write(async (tx) => {
      const [first, second] = await Promise.all([tx.get('accounts', BOB), tx.get('accounts', BOB)]);
      first!.free = 99n;
      expect(second).toEqual(account(BOB, 1n));
      expect(await tx.get('accounts', BOB)).toEqual(account(BOB, 1n));
      tx.put('accounts', account(BOB, 2n));
      expect(await tx.get('accounts', BOB)).toEqual(account(BOB, 2n));
    });
    expect(gets()).toBe(1);
    expect(await store.read((tx) => tx.get('accounts', BOB))).toEqual(account(BOB, 2n));
  });

  it('explains a read made after the transaction committed early, writing nothing', async () => {
    const store = await freshDexieStore();
    await expect(
      store.write(async (tx) => {
        tx.put('accounts', account(ALICE, 1n));
        await new Promise((resolve) => setTimeout(resolve, 20)); // not IndexedDB work
        await tx.get('accounts', BOB);
      })
    ).rejects.toThrow(/only IndexedDB work may be awaited.*Nothing of this write was stored/);
    expect(await store.read((tx) => tx.get('accounts', ALICE))).toBeUndefined();
  });

  it('imports all or nothing: a bad row in replaceAll leaves the ledger as it was', async () => {
    const store = await freshDexieStore();
    await store.write(async (tx) => {
      tx.put('accounts', account(ALICE, 1n));
      tx.put('blocks', block(3));
    });
    const before = await store.dump();
    const bad = { ...before, accounts: [account(BOB, 2n)], tokens: [{ ...token(1, 1), tokenId: undefined } as never] };
    await expect(store.replaceAll(bad)).rejects.toThrow();
    expect(await store.dump()).toEqual(before);
  });

  it('serializes concurrent writes (each sees the previous one)', async () => {
    const store = await freshDexieStore();
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 0n)));
    await Promise.all(
      Array.from({ length: 10 }, () =>
        store.write(async (tx) => {
          const a = (await tx.get('accounts', ALICE))!;
          tx.put('accounts', { ...a, free: a.free + 1n, nonce: a.nonce + 1 });
        })
      )
    );
    expect(await store.read((tx) => tx.get('accounts', ALICE))).toEqual(account(ALICE, 10n, 10));
  });

  it('reads one row in a transaction of its own, also from inside a finished transaction\'s continuation', async () => {
    const store = await freshDexieStore();
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 7n)));
    expect(await store.readRow('accounts', ALICE)).toEqual(account(ALICE, 7n));
    expect(await store.readRow('accounts', BOB)).toBeUndefined();
    // Code that continues after a read may still run in that read's (finished) transaction zone.
    const later = await store.read(async (tx) => {
      await tx.get('accounts', ALICE);
      return () => store.readRow('accounts', ALICE);
    });
    expect(await later()).toEqual(account(ALICE, 7n));
  });
});

describe('reads asked for while a read transaction runs', () => {
  /** Counts the read-only transactions opened from now on. */
  function countReadTransactions(): () => number {
    let opened = 0;
    spy(IDBDatabase.prototype, 'transaction', (orig) =>
      function (this: unknown, ...args: unknown[]) {
        const t = orig.apply(this, args) as IDBTransaction;
        if (t.mode === 'readonly') opened++;
        return t;
      }
    );
    return () => opened;
  }

  it('share the next transaction, each with its own answer, taken after it was asked for', async () => {
    const counted = countReadTransactions();
    const store = await freshDexieStore(); // opened after the spy: Dexie binds transaction() on open
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 1n)));
    const start = counted();
    const opened = () => counted() - start;
    const first = store.read((tx) => tx.get('accounts', ALICE));
    const others = Array.from({ length: 5 }, (_, i) => store.read(async (tx) => [i, (await tx.get('accounts', ALICE))?.free]));
    expect(await first).toEqual(account(ALICE, 1n));
    expect(await Promise.all(others)).toEqual([0, 1, 2, 3, 4].map((i) => [i, 1n]));
    expect(opened()).toBe(2); // the first read's, then one for the five asked for while it ran
    // A read asked for after a write was acknowledged sees it, even while reads of before are running.
    const old = store.read((tx) => tx.get('accounts', BOB));
    await store.write(async (tx) => tx.put('accounts', account(BOB, 2n)));
    const fresh = store.read((tx) => tx.get('accounts', BOB));
    expect(await old).toBeUndefined();
    expect(await fresh).toEqual(account(BOB, 2n));
    store.close();
  });

  it('hear an abort of their transaction at once, also one awaiting something else', async () => {
    let last: IDBTransaction | undefined;
    spy(IDBDatabase.prototype, 'transaction', (orig) =>
      function (this: unknown, ...args: unknown[]) {
        return (last = orig.apply(this, args) as IDBTransaction);
      }
    );
    const store = await freshDexieStore(); // opened after the spy: Dexie binds transaction() on open
    let released = () => {};
    const outside = new Promise<void>((resolve) => (released = resolve));
    const waiting = store.read(async (tx) => {
      await outside; // not IndexedDB work: the transaction may end meanwhile
      return tx.get('accounts', ALICE);
    });
    last!.abort();
    const heard = await Promise.race([waiting.then(() => 'answered', (e: Error) => e.name), new Promise((r) => setTimeout(() => r('still waiting'), 5_000))]);
    released();
    expect(heard).toBe('AbortError');
    expect(await store.read((tx) => tx.get('accounts', ALICE))).toBeUndefined(); // the next read has its own
    store.close();
  });

  it('sharing a transaction, read a meta row once, each its own copy', async () => {
    const store = await freshDexieStore();
    await store.write(async (tx) => tx.put('meta', { key: 'head', value: { number: 3, hash: '0x03' } }));
    const gets = countGets();
    const first = store.read((tx) => tx.get('accounts', ALICE));
    // Asked for while the first runs: one transaction for the four, as every ledger read asks for the head.
    const heads = await Promise.all(
      Array.from({ length: 4 }, () =>
        store.read(async (tx) => {
          const head = (await tx.get('meta', 'head'))!;
          (head.value as { number: number }).number += 1; // a caller's own copy
          return head.value;
        })
      )
    );
    await first;
    expect(heads).toEqual(Array.from({ length: 4 }, () => ({ number: 4, hash: '0x03' })));
    expect(gets()).toBe(2); // the first read's account, then the head once for the four
    expect(await store.read((tx) => tx.get('meta', 'head'))).toEqual({ key: 'head', value: { number: 3, hash: '0x03' } });
    store.close();
  });

  it('fail alone: a read that throws or awaits something else leaves the others of its transaction answered', async () => {
    const store = await freshDexieStore();
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 1n)));
    const running = store.read((tx) => tx.get('accounts', ALICE)); // the reads below queue behind it
    const thrown = store.read(async () => {
      throw new Error('refused by the caller');
    });
    const stalled = store.read(async (tx) => {
      await new Promise((resolve) => setTimeout(resolve, 20)); // not IndexedDB work: the transaction ends
      return tx.get('accounts', ALICE);
    });
    const fine = store.read((tx) => tx.get('accounts', ALICE));
    await expect(thrown).rejects.toThrow('refused by the caller');
    await expect(stalled).rejects.toThrow(/only IndexedDB work may be awaited/);
    expect(await fine).toEqual(account(ALICE, 1n));
    expect(await running).toEqual(account(ALICE, 1n));
  });

  it('wait for a long read a moment at most, then take a transaction of their own', async () => {
    const store = await freshDexieStore();
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 4n)));
    let shortAnswered = false;
    // Reads row after row (a new key each time: a transaction reads a row once) until the short
    // read below has its answer, or 3 s have passed.
    const long = store.read(async (tx) => {
      const started = Date.now();
      for (let i = 0; !shortAnswered && Date.now() - started < 3_000; i++) await tx.get('accounts', `missing-${i}`);
      return shortAnswered;
    });
    const short = store.read((tx) => tx.get('accounts', ALICE)).then((row) => ((shortAnswered = true), row));
    expect(await short).toEqual(account(ALICE, 4n));
    expect(await long).toBe(true); // the long read was still running when the short one answered
    store.close();
  });

  it('are not held up by a read that never finishes', async () => {
    const store = await freshDexieStore();
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 3n)));
    void store.read(() => new Promise(() => {})).catch(() => {});
    expect(await store.read((tx) => tx.get('accounts', ALICE))).toEqual(account(ALICE, 3n));
    expect(await store.read((tx) => tx.get('accounts', BOB))).toBeUndefined();
  });
});

describe('a block on a shared store', () => {
  it('reads what its extrinsics start from in rounds, not one round trip per extrinsic', async () => {
    let inFlight = 0;
    let most = 0;
    spy(IDBObjectStore.prototype, 'get', (orig) =>
      function (this: unknown, ...a: unknown[]) {
        const request = orig.apply(this, a) as IDBRequest;
        most = Math.max(most, ++inFlight);
        request.addEventListener('success', () => inFlight--);
        request.addEventListener('error', () => inFlight--);
        return request;
      }
    );
    const store = await freshDexieStore(); // opened after the spy
    const ledger = await Ledger.open({ store, blockMode: { kind: 'manual' }, soleWriter: false });
    const seeds = ['//Alice', '//Bob', '//Charlie', '//Dave', '//Eve'];
    const submitted = [];
    for (const seed of seeds) {
      const { address, key } = keyOf(seed);
      submitted.push(await ledger.signAndSubmit(address, transfer(ALICE, 1n), key));
    }
    most = 0;
    await ledger.sealBlock();
    for (const s of submitted) expect((await s.included).status).toBe('InBlock');
    // Five pool rows, then the head, five signers and the treasury: each set asked for at once.
    expect(most).toBeGreaterThanOrEqual(seeds.length + 2);
    ledger.close();
    store.close();
  });
});

describe('memoised reads of ledgers sharing one database', () => {
  it('answer from memory while the stored head (read as one row) is unchanged, and read again after another ledger seals', async () => {
    const options = freshOptions(); // one database, two connections (as two browser contexts have)
    const reader = await Ledger.open({ store: await openDexieStore(options), blockMode: { kind: 'manual' } });
    const writer = await Ledger.open({ store: await openDexieStore(options), blockMode: { kind: 'manual' } });
    let reads = 0;
    const bob = () =>
      reader.memo(
        'bob',
        async (tx) => {
          reads++;
          return (await tx.get('accounts', BOB))?.free ?? 0n;
        },
        (free) => free
      );
    const before = await bob();
    expect(await bob()).toBe(before);
    expect(reads).toBe(1);
    const alice = keyOf('//Alice');
    const submitted = await writer.signAndSubmit(alice.address, transfer(BOB, 5n), alice.key);
    await writer.sealBlock();
    expect((await submitted.included).isError).toBe(false);
    expect(await bob()).toBe(before + 5n);
    expect(reads).toBe(2);
  });
});

describe('index use (no table scans)', () => {
  it('answers every query with one keyed or bounded request on the right index', async () => {
    const store = await freshDexieStore();
    await store.write(async (tx) => {
      for (let i = 1; i <= 200; i++) tx.put('tokens', token(1 + (i % 4), i, i % 3 ? ALICE : [1, 4]));
      for (let i = 0; i < 100; i++) tx.put('blocks', block(i));
      for (let i = 0; i < 100; i++) tx.put('extrinsics', extrinsic('0x' + i.toString(16), i % 2 ? ALICE : BOB, i));
      for (let i = 0; i < 50; i++) tx.put('allowList', { collectionId: i % 5, address: `addr${i}` });
    });

    type Access = { on: string; method: string; bounded: boolean };
    let log: Access[] = [];
    let continues = 0;
    const isBounded = (args: unknown[]) => {
      const a = args[0] as { query?: unknown; count?: number } | null | undefined;
      if (a === null || a === undefined) return typeof args[1] === 'number' && args[1] > 0;
      if (typeof a === 'object' && 'query' in a) return a.query != null || (typeof a.count === 'number' && a.count > 0);
      return true; // a key or a key range
    };
    for (const [proto, kind] of [
      [IDBObjectStore.prototype, 'store'],
      [IDBIndex.prototype, 'index']
    ] as const) {
      for (const method of ['get', 'getAll', 'getAllKeys', 'count', 'openCursor', 'openKeyCursor']) {
        spy(proto, method, (orig) =>
          function (this: { name: string }, ...args: unknown[]) {
            log.push({ on: `${kind}:${this.name}`, method, bounded: isBounded(args) });
            return orig.apply(this, args);
          }
        );
      }
    }
    spy(IDBCursor.prototype, 'continue', (orig) =>
      function (this: unknown, ...args: unknown[]) {
        continues++;
        return orig.apply(this, args);
      }
    );

    const expectations: [string, (tx: QueryTx) => Promise<unknown>, string][] = [
      ['get', (tx) => tx.get('tokens', [1, 5]), 'store:tokens'],
      ['childrenOf', (tx) => tx.childrenOf(1, 4), 'index:[parentCollectionId+parentTokenId]'],
      ['countOwned', (tx) => tx.countOwned(2, ALICE), 'index:[collectionId+owner]'],
      ['tokensOfOwner', (tx) => tx.tokensOfOwner(ALICE), 'index:owner'],
      ['tokensOfOwner(c)', (tx) => tx.tokensOfOwner(ALICE, 2), 'index:[collectionId+owner]'],
      ['tokenIdsOfCollection', (tx) => tx.tokenIdsOfCollection(3), 'store:tokens'],
      ['allowListOf', (tx) => tx.allowListOf(2), 'store:allowList'],
      ['recentExtrinsics', (tx) => tx.recentExtrinsics(5), 'index:createdAt'],
      ['recentExtrinsics(signer)', (tx) => tx.recentExtrinsics(5, ALICE), 'index:[signer+createdAt]'],
      ['headBlock', (tx) => tx.headBlock(), 'store:blocks'],
      ['blockByHash', (tx) => tx.blockByHash(blockHash(42)), 'index:hash']
    ];
    for (const [name, query, on] of expectations) {
      for (const mode of ['read', 'write with buffered rows'] as const) {
        log = [];
        continues = 0;
        if (mode === 'read') await store.read(query);
        else
          await store.write(async (tx) => {
            tx.put('tokens', token(1, 999, ALICE));
            tx.put('extrinsics', extrinsic('0xnew', ALICE, 1000));
            tx.put('blocks', block(100));
            log = [];
            await query(tx);
            throw new Error('rollback');
          }).catch((e: Error) => expect(e.message).toBe('rollback'));
        expect({ name, mode, log }).toEqual({ name, mode, log: [expect.objectContaining({ on, bounded: true })] });
        expect({ name, continues }).toEqual({ name, continues: expect.any(Number) });
        expect(continues).toBeLessThanOrEqual(10);
      }
    }
  });
});

// ---- quota ----------------------------------------------------------------------------------

type QuotaMode = { fail: false | 'request' | 'commit' };

/** Fails mutations the way a full quota does: on the request, or as the transaction's abort. */
function quotaMiddleware(mode: QuotaMode): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'simulated-quota',
    create: (down) => ({
      ...down,
      table(name) {
        const table = down.table(name);
        return {
          ...table,
          mutate(req: DBCoreMutateRequest) {
            if (mode.fail === 'request') {
              return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
            }
            if (mode.fail === 'commit') {
              // A browser accepts the request and aborts the transaction with QuotaExceededError
              // when it commits; fake-indexeddb's internal abort does the same.
              return table.mutate(req).then((res) => {
                (req.trans as unknown as { _abort(name: string): void })._abort('QuotaExceededError');
                return res;
              });
            }
            return table.mutate(req);
          }
        };
      }
    })
  };
}

describe('a full quota', () => {
  for (const fail of ['request', 'commit'] as const) {
    it(`surfaces as StorageFullError from write, replaceAll and putFile, writing nothing (${fail})`, async () => {
      const mode: QuotaMode = { fail: false };
      const store = await dexieStoreWith((db) => db.use(quotaMiddleware(mode)));
      await store.write(async (tx) => {
        tx.put('accounts', account(ALICE, 1n));
        tx.put('tokens', token(1, 1, ALICE));
      });
      const before = await store.dump();

      mode.fail = fail;
      const error = await store
        .write(async (tx) => {
          tx.put('accounts', account(BOB, 1n));
          tx.delete('tokens', [1, 1]);
          tx.put('blocks', block(1));
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageFullError);
      expect((error as Error).name).toBe('StorageFullError');
      expect((error as Error).message).toMatch(/storage for this site is full; nothing was written/);
      expect(isQuotaError((error as Error).cause)).toBe(true);

      await expect(store.replaceAll({ ...before, blocks: [block(7)] })).rejects.toBeInstanceOf(StorageFullError);
      await expect(
        store.files.putFile({ cid: 'bafyq', bytes: new Uint8Array(10), type: 'x/y', name: 'q' })
      ).rejects.toBeInstanceOf(StorageFullError);

      mode.fail = false;
      expect(await store.dump()).toEqual(before);
      expect(await store.files.hasFile('bafyq')).toBe(false);
      // Works again once space is back.
      await store.write(async (tx) => tx.put('accounts', account(BOB, 1n)));
      expect(await store.read((tx) => tx.get('accounts', BOB))).toEqual(account(BOB, 1n));
      store.close();
    });
  }

  it('is recognised however Dexie wraps it', () => {
    const dom = new DOMException('full', 'QuotaExceededError');
    expect(isQuotaError(dom)).toBe(true);
    expect(isQuotaError(new Dexie.QuotaExceededError('full'))).toBe(true);
    expect(isQuotaError(new Dexie.AbortError('aborted', dom))).toBe(true);
    expect(isQuotaError(new Dexie.BulkError('bulk', { 3: dom }))).toBe(true);
    expect(isQuotaError(new Error('x', { cause: dom }))).toBe(true);
    expect(isQuotaError(new Dexie.AbortError('aborted'))).toBe(false);
    expect(isQuotaError(new Dexie.ConstraintError('dup'))).toBe(false);
    expect(isQuotaError(new Error('QuotaExceededError'))).toBe(false);
    expect(isQuotaError(undefined)).toBe(false);
  });

  it('leaves other errors as they are', async () => {
    const store = await freshDexieStore();
    const boom = new TypeError('boom');
    await expect(
      store.write(async () => {
        throw boom;
      })
    ).rejects.toBe(boom);
  });
});
