// Page side of bench/history.ts, bundled by esbuild. The ledger runs in this page on a DexieStore
// (IndexedDB of a persistent Chromium profile, so on disk), without a service worker: reads go
// through the REST handler in the page (createHandler, what the worker runs, minus the worker hop),
// the revert through Ledger.revert, and the baseline is one raw IndexedDB transaction (no Dexie) on
// a copy of the same database doing the revert's storage work.
import { cryptoWaitReady } from '@polkadot/util-crypto';
import Dexie from 'dexie';
import { createHandler } from '../src/lib/api/handler';
import type { Head } from '../src/lib/ledger/chain/block';
import { Ledger } from '../src/lib/ledger/chain/ledger';
import { historyPolicy } from '../src/lib/ledger/history/record';
import { openDexieStore, type DexieStore } from '../src/lib/storage/dexie-store';
import { LedgerDatabase } from '../src/lib/storage/schema';
import { buildChain, type BuiltChain, type ChainPlan } from './history-chain';

const now = () => performance.now();
const BASE = `${location.origin}/sandbox/v1`;

let open: { name: string; store: DexieStore; ledger: Ledger; handle: (request: Request) => Promise<Response> } | null = null;

function close(): void {
  open?.ledger.close();
  open?.store.close();
  open = null;
}

async function openLedger(name: string, keepBlocks?: number) {
  if (open?.name === name) return open;
  close();
  const store = await openDexieStore({ name });
  const ledger = await Ledger.open({ store, network: 'sandbox', history: historyPolicy(keepBlocks) });
  const handler = createHandler({ ledger });
  open = { name, store, ledger, handle: (request) => handler(request) };
  return open;
}

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

export interface ReadSample {
  variant: string;
  ms: number;
  ok: boolean;
}

export interface RawCounts {
  stateRows: number;
  extrinsics: number;
  blocks: number;
  changeRows: number;
}

const bench = {
  async init(): Promise<void> {
    await cryptoWaitReady();
  },

  /** A fresh database `name`, and the bench chain built into it (untimed set-up). */
  async build(name: string, plan: ChainPlan): Promise<BuiltChain> {
    close();
    await deleteDatabase(name);
    const { ledger, handle } = await openLedger(name);
    return buildChain(ledger, handle, plan, BASE);
  },

  /**
   * One sequential read per entry of `order` (a GET path with its query), through the REST
   * handler of the ledger in `name`; each answer checked against `expect` (the path's expected
   * JSON text, when given).
   */
  async reads(name: string, order: { variant: string; path: string; expect?: string }[]): Promise<ReadSample[]> {
    const { handle } = await openLedger(name);
    const out: ReadSample[] = [];
    for (const { variant, path, expect } of order) {
      const t0 = now();
      const res = await handle(new Request(`${BASE}${path}`));
      const text = await res.text();
      const ms = now() - t0;
      out.push({ variant, ms, ok: res.status === 200 && (expect === undefined || text === expect) });
    }
    return out;
  },

  /** The answer of one GET (status and text), for checks. */
  async get(name: string, path: string): Promise<{ status: number; text: string }> {
    const { handle } = await openLedger(name);
    const res = await handle(new Request(`${BASE}${path}`));
    return { status: res.status, text: await res.text() };
  },

  /** Copy every table of `from` into a fresh database `to` of the same schema (untimed). */
  async copy(from: string, to: string): Promise<void> {
    close();
    await deleteDatabase(to);
    const source = new LedgerDatabase({ name: from });
    const target = new LedgerDatabase({ name: to });
    await Promise.all([source.open(), target.open()]);
    for (const table of source.tables) {
      let offset = 0;
      for (;;) {
        const rows = await table.offset(offset).limit(5000).toArray();
        if (!rows.length) break;
        await target.table(table.name).bulkPut(rows);
        offset += rows.length;
      }
    }
    source.close();
    target.close();
  },

  /** Time Ledger.revert to `to` on the database `name` (opened, and warmed by a read, before). */
  async revert(name: string, to: Head): Promise<{ ms: number; head: Head }> {
    const { ledger } = await openLedger(name);
    await ledger.read((tx) => tx.get('meta', 'head'));
    const t0 = now();
    const head = await ledger.revert(to);
    const ms = now() - t0;
    return { ms, head };
  },

  /**
   * The baseline: one raw IndexedDB readwrite transaction (durability 'strict', as the ledger's)
   * on `name` doing the storage work of a revert to block `block`: find the rows changed after it
   * (keys of the [tbl+block+keyId] index), read each one's first change after the block and put
   * back its `before` (or delete it), delete the later blocks and the change rows after the block.
   * The extrinsics of the later blocks are counted, not rewritten (their status is derived when
   * read, history/revert.ts). Requests are issued without waiting for each other (the engine's best case).
   */
  async raw(name: string, block: number): Promise<{ ms: number; counts: RawCounts }> {
    close();
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open(name);
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const stores = [...db.objectStoreNames];
    const after = IDBKeyRange.lowerBound([block + 1, -Infinity]);
    const counts: RawCounts = { stateRows: 0, extrinsics: 0, blocks: 0, changeRows: 0 };
    const t0 = now();
    const tx = db.transaction(stores, 'readwrite', { durability: 'strict' });
    const done = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = tx.onabort = () => reject(tx.error);
    });
    const changes = tx.objectStore('changes');
    const tables = ['meta', 'accounts', 'collections', 'tokens', 'allowList'];
    // Index keys (not primary keys, which getAllKeys would give): a key cursor over each table's range.
    const indexKeys = (range: IDBKeyRange) =>
      new Promise<[string, number, string][]>((resolve, reject) => {
        const keys: [string, number, string][] = [];
        const cursor = changes.index('[tbl+block+keyId]').openKeyCursor(range);
        cursor.onsuccess = () => {
          if (!cursor.result) return resolve(keys);
          keys.push(cursor.result.key as [string, number, string]);
          cursor.result.continue();
        };
        cursor.onerror = () => reject(cursor.error);
      });
    const keyLists = await Promise.all(tables.map((t) => indexKeys(IDBKeyRange.bound([t, block + 1], [t, Infinity]))));
    const rows = new Map<string, [string, string]>();
    for (const keys of keyLists) {
      counts.changeRows += keys.length;
      for (const [tbl, , keyId] of keys) rows.set(tbl + '\u0001' + keyId, [tbl, keyId]);
    }
    const firsts = (await Promise.all(
      [...rows.values()].map(([tbl, keyId]) => request(changes.index('[tbl+keyId+block+seq]').get(IDBKeyRange.bound([tbl, keyId, block + 1, -Infinity], [tbl, keyId, Infinity, Infinity]))))
    )) as { tbl: string; key: IDBValidKey; before?: unknown }[];
    for (const change of firsts) {
      const store = tx.objectStore(change.tbl);
      if (change.before === undefined) store.delete(change.key);
      else store.put(change.before);
    }
    counts.stateRows = firsts.length;
    const blocks = (await request(tx.objectStore('blocks').getAll(IDBKeyRange.lowerBound(block + 1)))) as { extrinsics: string[] }[];
    counts.blocks = blocks.length;
    counts.extrinsics = blocks.reduce((n, b) => n + b.extrinsics.length, 0);
    tx.objectStore('blocks').delete(IDBKeyRange.lowerBound(block + 1));
    changes.delete(after);
    await done;
    const ms = now() - t0;
    db.close();
    return { ms, counts };
  },

  /**
   * Where a read at a block goes in the page: its pieces, each timed alone (median µs of `n`
   * calls, the pieces interleaved), on the ledger in `name`, reading `address` at `at`.
   */
  async breakdown(name: string, address: string, at: Head, n: number): Promise<[string, number][]> {
    const { ledger, handle } = await openLedger(name);
    const atBlock = await ledger.atBlock(at.hash);
    const balance = `${BASE}/balance?address=${address}`;
    const cases: [string, () => Promise<unknown>][] = [
      ['DexieStore.read, empty', () => ledger.read(async () => {})],
      ['head: ledger.read + get the account', () => ledger.read((tx) => tx.get('accounts', address))],
      ['at: ledger.atBlock(hash) (a read: block by hash, the block, history start)', () => ledger.atBlock(at.hash)],
      ['at: LedgerAtBlock.read + get the account (a read: the block and start again, changeAfter)', () => atBlock.read((tx) => tx.get('accounts', address))],
      ['at: history.changeAfter alone, in a read', () => ledger.read((tx) => tx.history.changeAfter('accounts', address, at.number))],
      ['head: REST handler GET /balance', async () => (await handle(new Request(balance))).text()],
      ['at: REST handler GET /balance&at=', async () => (await handle(new Request(`${balance}&at=${at.hash}`))).text()]
    ];
    const times: number[][] = cases.map(() => []);
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < cases.length; c++) {
        const t0 = now();
        await cases[c][1]();
        times[c].push(now() - t0);
      }
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    return cases.map(([label], c) => [label, median(times[c]) * 1000]);
  },

  async drop(name: string): Promise<void> {
    if (open?.name === name) close();
    await deleteDatabase(name);
  },

  /** Dexie's version, so the report can name it. */
  dexieVersion(): string {
    return Dexie.semVer;
  }
};

export type HistoryPageBench = typeof bench;

(globalThis as unknown as { historyBench: HistoryPageBench }).historyBench = bench;
