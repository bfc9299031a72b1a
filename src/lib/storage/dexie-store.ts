// The ledger's Store on IndexedDB, through Dexie. The same code runs in the service worker, in
// the page and in Node (on fake-indexeddb). See schema.ts for the tables and indexes.
//
// Transactions
// - `read(fn)`: one read-only IndexedDB transaction over every ledger table. Reads asked for
//   while one runs share the next transaction (each `fn` its own tx view, its own outcome), which
//   opens when the running one is done, or after 50 ms of a long one.
// - `write(fn)`: one read-write IndexedDB transaction over every ledger table, opened with
//   durability 'strict' (LedgerDatabase sets Dexie's `chromeTransactionDurability`). All or
//   nothing: if `fn` throws, the transaction is aborted and nothing is written.
// - Inside `fn` only IndexedDB work may be awaited: an IndexedDB transaction commits itself as
//   soon as it has no pending request and control returns to the event loop. Do hashing,
//   signature checks and fetches before calling `write`. Do not call the store's own methods
//   (read/write/dump/replaceAll) from inside `fn` either: they open separate transactions.
//
// Write buffering
//   `put`/`delete` do not touch IndexedDB. They validate the key, clone the row (as IndexedDB
//   would on put) and record it in a per-table buffer, keyed by primary key; the last write to
//   a key wins. When `fn` resolves, the buffer is flushed with one bulkDelete and one bulkPut
//   per table, in the same transaction, then the transaction commits. Reads inside the
//   transaction see the buffer: `get` answers from it first, and every index query merges it
//   (rows from IndexedDB whose key is buffered are replaced by the buffered row, or dropped if
//   it was deleted or no longer matches). A side benefit: if `fn` breaks the rule above and
//   the transaction commits early, nothing of `fn`'s writes has reached IndexedDB and the final
//   flush fails, so the write is still all or nothing.
import { Dexie, type Table, type Transaction } from './dexie';
import type { Keys, QueryTx, Rows, Store, TableName } from '../ledger/store';
import { TABLES, importedHead, keyOf } from '../ledger/store';
import type { Address, BlockRecord, ExtrinsicRecord, PoolRecord, TokenRecord, TokenRef } from '../ledger/types';
import { mapStorageError } from './errors';
import { FileStore } from './files';
import { DexieHistory } from './history';
import { HISTORY_TABLES, LedgerDatabase, LEDGER_TABLES, type LedgerDatabaseOptions } from './schema';

/** Lower and upper bounds of "every key that starts with `prefix`" on a compound key. */
function prefixRange(prefix: IDBValidKey): [IDBValidKey, IDBValidKey] {
  // Numbers are the lowest key type and arrays the highest: [p, -Infinity] is below and [p, []]
  // above every [p, number | Date | string | binary] key.
  return [
    [prefix, -Infinity],
    [prefix, []]
  ];
}

/** The result of a native IndexedDB request. */
function requestResult<T>(request: IDBRequest): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result as T);
    request.onerror = () => reject(request.error);
  });
}

/** The tokens' index of their parent token (schema.ts). */
const CHILDREN_INDEX = '[parentCollectionId+parentTokenId]';

function idOf(key: unknown): string {
  return JSON.stringify(key);
}

function byTokenKey(a: TokenRef, b: TokenRef): number {
  return a.collectionId - b.collectionId || a.tokenId - b.tokenId;
}

/** IndexedDB's order of strings: by UTF-16 code units (what `<` does). */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Pending<N extends TableName> {
  key: Keys[N];
  /** The row as written; `null` = deleted. */
  row: Rows[N] | null;
}

type Buffer = { [N in TableName]?: Map<string, Pending<N>> };

class TransactionFinishedError extends Error {
  override readonly name = 'TransactionFinishedError';
  constructor() {
    super('This store transaction has finished; use the tx only inside the read/write callback.');
  }
}

class ReadOnlyTransactionError extends Error {
  override readonly name = 'ReadOnlyTransactionError';
  constructor() {
    super('put/delete may only be called inside store.write(), not store.read().');
  }
}

/** One transaction's view of the ledger tables, with the write buffer described above. */
class DexieTx implements QueryTx {
  private readonly buffer: Buffer = {};
  /**
   * A write transaction's stored rows as first read, by table and key: nothing else writes while
   * it runs (its scope is every table), and its own writes are in the buffer, which is read first.
   * A block reads the same accounts many times (each checkpoint of each extrinsic). A copy costs
   * far less than a round trip.
   */
  private readonly seen = new Map<string, Promise<unknown>>();
  private finished = false;
  readonly history: DexieHistory;

  constructor(
    private readonly trans: Transaction,
    private readonly writable: boolean,
    private readonly factory: IDBFactory | undefined,
    /** A read batch's `meta` rows, by key: read once for every read sharing the transaction. */
    private readonly batchMeta?: Map<string, Promise<unknown>>
  ) {
    this.history = new DexieHistory(trans, writable);
  }

  private table<N extends TableName>(name: N): Table<Rows[N], Keys[N]> {
    if (this.finished) throw new TransactionFinishedError();
    return this.trans.table<Rows[N], Keys[N]>(name);
  }

  private pending<N extends TableName>(table: N): Map<string, Pending<N>> | undefined {
    const map = this.buffer[table] as Map<string, Pending<N>> | undefined;
    return map && map.size > 0 ? map : undefined;
  }

  private checkWritable(): void {
    if (this.finished) throw new TransactionFinishedError();
    if (!this.writable) throw new ReadOnlyTransactionError();
  }

  /** Throws IndexedDB's DataError now for a key IndexedDB would reject at flush time. */
  private checkKey(table: TableName, key: unknown): void {
    if (this.factory) {
      try {
        this.factory.cmp(key, key);
      } catch (e) {
        throw new Error(`invalid ${table} key ${String(idOf(key))}`, { cause: e });
      }
    }
  }

  private record<N extends TableName>(table: N, key: Keys[N], row: Rows[N] | null): void {
    let map = this.buffer[table] as Map<string, Pending<N>> | undefined;
    if (!map) (this.buffer as Record<string, unknown>)[table] = map = new Map<string, Pending<N>>();
    map.set(idOf(key), { key, row });
  }

  /**
   * Merge buffered writes into rows an index query returned: rows whose key is buffered are
   * dropped, buffered rows that match are added (cloned).
   */
  private mergeRows<N extends TableName>(table: N, rows: Rows[N][], matches: (row: Rows[N]) => boolean): Rows[N][] {
    const pending = this.pending(table);
    if (!pending) return rows;
    const out = rows.filter((r) => !pending.has(idOf(keyOf(table, r))));
    for (const p of pending.values()) if (p.row !== null && matches(p.row)) out.push(structuredClone(p.row));
    return out;
  }

  /** As mergeRows, for queries that read primary keys only. */
  private mergeKeys<N extends TableName>(table: N, keys: Keys[N][], matches: (row: Rows[N]) => boolean): Keys[N][] {
    const pending = this.pending(table);
    if (!pending) return keys;
    const out = keys.filter((k) => !pending.has(idOf(k)));
    for (const p of pending.values()) if (p.row !== null && matches(p.row)) out.push(p.key);
    return out;
  }

  // ---- StateTx -------------------------------------------------------------------------------

  async get<N extends TableName>(table: N, key: Keys[N]): Promise<Rows[N] | undefined> {
    const hit = this.pending(table)?.get(idOf(key));
    if (hit) return hit.row === null ? undefined : structuredClone(hit.row);
    // A read transaction hands IndexedDB's own copy out: remembering rows meant a copy per get,
    // which every read paid, and the bench (B1, B2) showed no gain from it.
    if (!this.writable) {
      if (table !== 'meta' || !this.batchMeta) return this.request((idb) => idb.objectStore(table).get(key as IDBValidKey));
      // Every read of a batch asks for the head (a few small rows): one request, each caller its own copy.
      const id = idOf(key);
      let row = this.batchMeta.get(id);
      if (!row) this.batchMeta.set(id, (row = this.request((idb) => idb.objectStore('meta').get(key as IDBValidKey))));
      else this.checkActive();
      return row.then((r) => (r === undefined ? undefined : (structuredClone(r) as Rows[N])));
    }
    const id = `${table}:${idOf(key)}`;
    let stored = this.seen.get(id);
    if (!stored) this.seen.set(id, (stored = this.request((idb) => idb.objectStore(table).get(key as IDBValidKey))));
    // Each caller its own copy, as IndexedDB gives one per request.
    const row = (await stored) as Rows[N] | undefined;
    return row === undefined ? undefined : structuredClone(row);
  }

  /**
   * A read as one native request on the transaction: Dexie's layers cost more than the request
   * itself in Chromium (a GET token's five reads, about half its time; a block's dozens of gets).
   */
  private request<T>(make: (idb: IDBTransaction) => IDBRequest): Promise<T> {
    this.checkActive();
    return requestResult<T>(make(this.trans.idbtrans));
  }

  /** Throws unless this view may still read: its callback is running and the transaction has not ended. */
  private checkActive(): void {
    if (this.finished) throw new TransactionFinishedError();
    // Committed under the callback (it awaited something else): the error explainInactive explains.
    if (!this.trans.active) throw new DOMException('', 'TransactionInactiveError');
  }

  put<N extends TableName>(table: N, row: Rows[N]): void {
    this.checkWritable();
    const key = keyOf(table, row);
    this.checkKey(table, key);
    // Clone now, as IndexedDB does on put: later changes to `row` do not leak in, and values
    // IndexedDB cannot store fail here rather than at commit.
    this.record(table, key, structuredClone(row));
  }

  delete<N extends TableName>(table: N, key: Keys[N]): void {
    this.checkWritable();
    this.checkKey(table, key);
    this.record(table, key, null);
  }

  async childrenOf(collectionId: number, tokenId: number): Promise<TokenRecord[]> {
    if (!this.writable) {
      const rows = await this.request<TokenRecord[]>((idb) => idb.objectStore('tokens').index(CHILDREN_INDEX).getAll([collectionId, tokenId]));
      return rows.sort(byTokenKey);
    }
    const rows = await this.table('tokens')
      .where(CHILDREN_INDEX)
      .equals([collectionId, tokenId])
      .toArray();
    return this.mergeRows(
      'tokens',
      rows,
      (t) => t.parentCollectionId === collectionId && t.parentTokenId === tokenId
    ).sort(byTokenKey);
  }

  async countOwned(collectionId: number, owner: Address): Promise<number> {
    const where = this.table('tokens').where('[collectionId+owner]').equals([collectionId, owner]);
    if (!this.pending('tokens')) return where.count();
    const keys = (await where.primaryKeys()) as Keys['tokens'][];
    return this.mergeKeys('tokens', keys, (t) => t.collectionId === collectionId && t.owner === owner).length;
  }

  // ---- QueryTx -------------------------------------------------------------------------------

  async tokensOfOwner(owner: Address, collectionId?: number): Promise<TokenRef[]> {
    const tokens = this.table('tokens');
    const where =
      collectionId === undefined
        ? tokens.where('owner').equals(owner)
        : tokens.where('[collectionId+owner]').equals([collectionId, owner]);
    const keys = (await where.primaryKeys()) as Keys['tokens'][];
    return this.mergeKeys(
      'tokens',
      keys,
      (t) => t.owner === owner && (collectionId === undefined || t.collectionId === collectionId)
    )
      .map(([collectionId, tokenId]) => ({ collectionId, tokenId }))
      .sort(byTokenKey);
  }

  async tokenIdsOfCollection(collectionId: number): Promise<number[]> {
    const [lower, upper] = prefixRange(collectionId);
    const keys = (await this.table('tokens')
      .where('[collectionId+tokenId]')
      .between(lower, upper, false, false)
      .primaryKeys()) as Keys['tokens'][];
    return this.mergeKeys('tokens', keys, (t) => t.collectionId === collectionId)
      .map(([, tokenId]) => tokenId)
      .sort((a, b) => a - b);
  }

  async allowListOf(collectionId: number): Promise<Address[]> {
    const [lower, upper] = prefixRange(collectionId);
    const keys = (await this.table('allowList')
      .where('[collectionId+address]')
      .between(lower, upper, false, false)
      .primaryKeys()) as Keys['allowList'][];
    return this.mergeKeys('allowList', keys, (r) => r.collectionId === collectionId)
      .map(([, address]) => address)
      .sort(compareStrings);
  }

  async recentExtrinsics(limit: number, signer?: Address): Promise<ExtrinsicRecord[]> {
    const n = Math.floor(limit);
    if (!(n > 0)) return [];
    const extrinsics = this.table('extrinsics');
    const collection =
      signer === undefined
        ? extrinsics.orderBy('createdAt')
        : extrinsics.where('[signer+createdAt]').between(...prefixRange(signer), false, false);
    // Buffered extrinsics may hide up to that many of the newest stored ones: read that many
    // more so `limit` survive the merge.
    const extra = this.pending('extrinsics')?.size ?? 0;
    let query = collection.reverse();
    if (Number.isFinite(n)) query = query.limit(n + extra);
    const rows = await query.toArray();
    return this.mergeRows('extrinsics', rows, (e) => signer === undefined || e.signer === signer)
      .sort((a, b) => b.createdAt - a.createdAt || compareStrings(b.hash, a.hash))
      .slice(0, n);
  }

  async headBlock(): Promise<BlockRecord | undefined> {
    const extra = this.pending('blocks')?.size ?? 0;
    const rows = await this.table('blocks')
      .toCollection()
      .reverse()
      .limit(1 + extra)
      .toArray();
    let head: BlockRecord | undefined;
    for (const b of this.mergeRows('blocks', rows, () => true)) if (!head || b.number > head.number) head = b;
    return head;
  }

  async blockByHash(hash: string): Promise<BlockRecord | undefined> {
    const rows = await this.table('blocks').where('hash').equals(hash).toArray();
    let found: BlockRecord | undefined;
    for (const b of this.mergeRows('blocks', rows, (r) => r.hash === hash)) {
      if (!found || b.number < found.number) found = b;
    }
    return found;
  }

  async pooled(): Promise<PoolRecord[]> {
    if (!this.writable) return this.request((idb) => idb.objectStore('pool').getAll());
    return this.mergeRows('pool', await this.table('pool').toArray(), () => true);
  }

  // ---- end of transaction --------------------------------------------------------------------

  /** Write the buffer to IndexedDB (same transaction) and close this tx for further use. */
  async flush(): Promise<void> {
    const work: Promise<unknown>[] = [];
    for (const name of TABLES) {
      const pending = this.pending(name);
      if (!pending) continue;
      const deletes: unknown[] = [];
      const puts: unknown[] = [];
      for (const p of pending.values()) {
        if (p.row === null) deletes.push(p.key);
        else puts.push(p.row);
      }
      const table = this.table(name) as unknown as Table<unknown, unknown>;
      // Keys are unique within the buffer, so the order of deletes and puts does not matter.
      if (deletes.length) work.push(table.bulkDelete(deletes));
      if (puts.length) work.push(table.bulkPut(puts));
    }
    this.finished = true;
    await Promise.all(work);
    await this.history.flush();
  }

  finish(): void {
    this.finished = true;
  }
}

/**
 * Why the IndexedDB transaction aborted, if it did. When the browser aborts a transaction for
 * quota, the requests still pending fail with a plain AbortError and only the transaction's
 * `error` says QuotaExceededError.
 */
function abortReason(trans: Transaction | undefined): unknown {
  return trans?.idbtrans?.error ?? undefined;
}

/**
 * IndexedDB's TransactionInactiveError, explained: inside read/write the callback waited on
 * something other than IndexedDB and the transaction committed itself.
 */
function explainInactive(error: unknown, writing: boolean): unknown {
  if (!error || (error as { name?: unknown }).name !== 'TransactionInactiveError') return error;
  const e = new Error(
    'The IndexedDB transaction finished before the callback did: inside store.' +
      (writing ? 'write' : 'read') +
      '() only IndexedDB work may be awaited (do hashing, signing and fetches first)' +
      (writing ? '. Nothing of this write was stored.' : '.'),
    { cause: error }
  );
  e.name = 'TransactionInactiveError';
  return e;
}

/** A read() waiting for its transaction. */
interface QueuedRead {
  fn: (tx: QueryTx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * How long reads asked for while a read transaction runs wait for it before taking one of their
 * own: long enough for the reads queued behind a block's write to share one, short enough that a
 * long read delays no other by more.
 */
const READ_BATCH_MAX_WAIT_MS = 50;

/** Every store a ledger transaction spans. */
const STORES = [...LEDGER_TABLES, ...HISTORY_TABLES];

export class DexieStore implements Store {
  /** The built-in IPFS file store, on the same database connection. */
  readonly files: FileStore;
  /** Reads waiting for the next read transaction (see startReads). */
  private queuedReads: QueuedRead[] = [];
  private reading = false;

  constructor(readonly db: LedgerDatabase) {
    this.files = new FileStore(db);
  }

  read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queuedReads.push({ fn, resolve, reject } as QueuedRead);
      if (!this.reading) this.startReads();
    });
  }

  /**
   * One read-only transaction for every read queued: opened at once when none is running, else
   * when the running one is done or has run READ_BATCH_MAX_WAIT_MS. Each read still gets one
   * consistent state, taken after it was asked for; a transaction costs the worker more than the
   * gets in it (Chromium, npm run bench).
   */
  private startReads(): void {
    const batch = this.queuedReads;
    this.queuedReads = [];
    this.reading = true;
    let left = batch.length;
    let ended = false;
    // The next batch starts once each read has its answer, or the transaction has ended (a read
    // that awaits something else forever must not hold up every later one), or it has run long
    // enough: a long read (a gallery's first index of 10,000 tokens) keeps no later read waiting.
    const end = () => {
      if (ended) return;
      ended = true;
      clearTimeout(longRead);
      this.reading = false;
      if (this.queuedReads.length > 0) this.startReads();
    };
    const longRead = setTimeout(end, READ_BATCH_MAX_WAIT_MS);
    const settled = new Set<QueuedRead>();
    const batchMeta = new Map<string, Promise<unknown>>();
    this.readOnly((trans) => {
      trans.idbtrans.addEventListener('complete', end);
      trans.idbtrans.addEventListener('abort', () => {
        // As Dexie's own scope did: every read still waiting hears why, also one awaiting something else.
        const reason = trans.idbtrans.error ?? new DOMException('The read transaction was aborted', 'AbortError');
        for (const queued of batch) if (!settled.has(queued)) queued.reject(explainInactive(reason, false));
        end();
      });
      // A read-only transaction has nothing to commit: each read answers as soon as its `fn` has
      // its result rather than after IndexedDB reports the transaction complete.
      return Promise.all(
        batch.map(async (queued) => {
          const tx = new DexieTx(trans, false, this.db.factory, batchMeta);
          try {
            queued.resolve(await queued.fn(tx));
          } catch (e) {
            queued.reject(explainInactive(e, false));
          } finally {
            tx.finish();
            settled.add(queued);
            if (--left === 0) end();
          }
        })
      );
    }).catch((e: unknown) => {
      // The transaction could not open or aborted: every read still waiting hears why.
      for (const queued of batch) if (!settled.has(queued)) queued.reject(explainInactive(e, false));
      end();
    });
  }

  readRow<N extends TableName>(table: N, key: Keys[N]): Promise<Rows[N] | undefined> {
    // One native request in a transaction of its own: Dexie's get costs about as much again in
    // Chromium. A closed connection (deleted or upgraded under us) reads the way Dexie reopens.
    const idb = this.db.isOpen() && this.db.backendDB();
    return idb ? requestResult(idb.transaction(table, 'readonly').objectStore(table).get(key as IDBValidKey)) : this.read((tx) => tx.get(table, key));
  }

  async write<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    let dexieTrans: Transaction | undefined;
    try {
      return await this.transaction('rw', async (trans) => {
        dexieTrans = trans;
        const tx = new DexieTx(trans, true, this.db.factory);
        let result: T;
        try {
          result = await fn(tx);
        } catch (e) {
          tx.finish();
          throw e; // Dexie aborts the transaction: nothing is written.
        }
        await tx.flush();
        return result;
      });
    } catch (e) {
      throw explainInactive(mapStorageError(e, abortReason(dexieTrans)), true);
    }
  }

  dump(): Promise<{ [N in TableName]: Rows[N][] }> {
    return this.transaction('r', async (trans) => {
      const tables = await Promise.all(LEDGER_TABLES.map((t) => trans.table(t).toArray()));
      return Object.fromEntries(LEDGER_TABLES.map((t, i) => [t, tables[i]])) as {
        [N in TableName]: Rows[N][];
      };
    });
  }

  async replaceAll(rows: { [N in TableName]: Rows[N][] }): Promise<void> {
    let dexieTrans: Transaction | undefined;
    try {
      await this.transaction('rw', async (trans) => {
        dexieTrans = trans;
        await Promise.all([...LEDGER_TABLES, 'changes'].map((t) => trans.table(t).clear()));
        await trans.table('historyInfo').put({ key: 'start', value: importedHead(rows) });
        // bulkPut, not bulkAdd: like MemoryStore, a key given twice keeps the last row rather
        // than failing the import. Any failure (bad key, quota) aborts everything, clears too.
        await Promise.all(
          LEDGER_TABLES.map((t) => {
            const list = (rows[t] ?? []) as unknown[];
            return list.length ? trans.table(t).bulkPut(list) : undefined;
          })
        );
      });
    } catch (e) {
      throw mapStorageError(e, abortReason(dexieTrans));
    }
  }

  close(): void {
    this.db.close();
  }

  /**
   * A read-only transaction over every ledger table, outside Dexie's transaction scope: the scope's
   * zone follows every await of the reads (microtask bookkeeping that cost more than the reads
   * themselves in Chromium's worker, npm run bench), and these reads need none of it: gets and
   * the children index are native requests, and Dexie queries on `trans.table()` find their
   * transaction without a zone. A database not open (yet, or again) goes Dexie's way, which opens it.
   */
  private readOnly<T>(scope: (trans: Transaction) => Promise<T>): Promise<T> {
    if (!this.db.isOpen()) return this.transaction('r', scope);
    let trans: Transaction;
    try {
      trans = this.db._createTransaction('readonly', STORES, this.db._dbSchema);
      // Dexie's own steps (untyped internals): open the IndexedDB transaction and track its end. An
      // abort reaches the reads through startReads; the completion promise is nobody's to await.
      const internal = trans as Transaction & { create(): Transaction; _completion: Promise<unknown> };
      internal.create();
      internal._completion.catch(() => {});
    } catch {
      // The connection is closing under us (deleted or upgraded): Dexie's way reports or reopens.
      return this.transaction('r', scope);
    }
    return scope(trans);
  }

  /**
   * A top-level transaction over every ledger table. `ignoreTransaction` makes it independent
   * of whatever Dexie transaction zone the caller happens to be in.
   */
  private transaction<T>(mode: 'r' | 'rw', scope: (trans: Transaction) => Promise<T>): Promise<T> {
    const open = () => Promise.resolve(this.db.transaction(mode, STORES, (trans) => scope(trans)));
    // Leaving a transaction's zone costs a zone switch per request: only when there is one.
    return Dexie.currentTransaction ? Dexie.ignoreTransaction(open) : open();
  }
}

export interface OpenDexieStoreOptions extends Omit<LedgerDatabaseOptions, 'versions'> {}

/** Open (creating or upgrading as needed) a ledger database and wrap it as a Store. */
export async function openDexieStore(options: OpenDexieStoreOptions = {}): Promise<DexieStore> {
  const db = new LedgerDatabase(options);
  await db.open();
  return new DexieStore(db);
}
