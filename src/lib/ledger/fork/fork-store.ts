// A fork: the local store, over a read-only source at the fork block (DESIGN.md "Layers of
// state"). A transaction reads the local store; a row it has never held is a miss. The
// transaction runs on with "no row" answers (its result is thrown away, its writes rolled back),
// then every miss is fetched from the source at once, copied in (one write transaction), and the
// transaction runs again. So no adapter ever waits for the network inside a transaction (IndexedDB
// could not), and what was copied once is never fetched again, here or after a restart.
import type { QueryTx, Rows, Store, TableName, Keys, HistoryTx } from '../store';
import type { Address, BlockRecord, ExtrinsicRecord, PoolRecord, TokenRecord, TokenRef } from '../types';
import { ForkSourceError, type ForkOrigin, type ForkSource } from './source';
import { forkedMetaCollection, goneKey, isForkKey, listKey, mintedKey, rowId, type ForkList, type ForkedTable } from './keys';
import { copyMiss, type Miss } from './copy';
import { META, readMeta } from '../meta';
import type { ChainConfig } from '../chain/config';

/** The store now holds another chain than this fork (a host replaced it while rows were fetched): nothing was copied. */
export class ForkReplacedError extends Error {
  override readonly name = 'ForkReplacedError';
  constructor(source: string) {
    super(`The ledger was replaced while rows of ${source} were being copied; nothing was copied. Try again.`);
  }
}

/** Misses gathered before a transaction stops early: a round's fetches are bounded. */
export const MISSES_PER_ROUND = 64;
/** Rounds of one transaction (each copies at least one row): the deepest read copies in far fewer. */
export const MAX_ROUNDS = 256;

/** Stops a transaction once its round of misses is full (its answer is thrown away anyway). */
class RoundFull extends Error {
  override readonly name = 'ForkRoundFull';
}

class Misses {
  readonly all = new Map<string, Miss>();
  add(miss: Miss): void {
    this.all.set(miss.id, miss);
    if (this.all.size >= MISSES_PER_ROUND) throw new RoundFull('a fork read needs more rows than one round fetches');
  }
  get size(): number {
    return this.all.size;
  }
}

const byTokenKey = (a: TokenRef, b: TokenRef) => a.collectionId - b.collectionId || a.tokenId - b.tokenId;
const refId = (r: TokenRef) => `${r.collectionId}:${r.tokenId}`;

/** One transaction of a fork: the local transaction, recording what it would need from the source. */
export class ForkTx implements QueryTx {
  constructor(
    private readonly inner: QueryTx,
    private readonly origin: ForkOrigin,
    private readonly misses: Misses
  ) {}

  get history(): HistoryTx {
    return this.inner.history;
  }

  /** Whether a collection id was handed out by the source (ids after it are this fork's own). */
  private fromSource(collectionId: number): boolean {
    return Number.isSafeInteger(collectionId) && collectionId >= 1 && collectionId <= this.origin.collections.created;
  }

  private async has(key: string): Promise<boolean> {
    return (await this.inner.get('meta', key)) !== undefined;
  }

  async get<N extends TableName>(table: N, key: Keys[N]): Promise<Rows[N] | undefined> {
    // The fork's bookkeeping is not chain state: the ledger (and a read at an earlier block) never sees it.
    if (table === 'meta' && isForkKey(key as string)) return undefined;
    const row = await this.inner.get(table, key);
    if (row !== undefined || !(await this.mayBeAtSource(table, key))) return row;
    if (await this.has(goneKey(table, key))) return undefined;
    if (table === 'allowList') {
      // An allow list is copied whole: once it is, a missing row is an address not on it.
      const collectionId = (key as Keys['allowList'])[0];
      if (!(await this.has(listKey({ type: 'allow', collectionId })))) this.needList({ type: 'allow', collectionId });
      return undefined;
    }
    this.misses.add({ id: rowId(table, key), table: table as ForkedTable, key });
    return undefined;
  }

  /** Whether the source may hold this row: a table it has, of one of its collections, with an id it handed out. */
  private async mayBeAtSource(table: TableName, key: unknown): Promise<boolean> {
    switch (table) {
      case 'accounts':
        return true;
      case 'collections':
        return this.fromSource(key as number);
      case 'allowList':
        return this.fromSource((key as Keys['allowList'])[0]);
      case 'meta': {
        const collectionId = forkedMetaCollection(key as string);
        return collectionId !== null && this.fromSource(collectionId);
      }
      case 'tokens': {
        const [collectionId, tokenId] = key as Keys['tokens'];
        if (!this.fromSource(collectionId)) return false;
        const minted = await this.inner.get('meta', mintedKey(collectionId));
        if (minted !== undefined) return tokenId >= 1 && tokenId <= (minted.value as number);
        if (await this.has(goneKey('collections', collectionId))) return false;
        // The collection comes in the same round as the token (a token read needs both).
        if ((await this.inner.get('collections', collectionId)) === undefined) this.misses.add({ id: rowId('collections', collectionId), table: 'collections', key: collectionId });
        return true;
      }
      default:
        return false;
    }
  }

  private needList(list: ForkList): void {
    this.misses.add({ id: listKey(list), list });
  }

  /** The source's list at the fork block, or undefined (a miss) when it was never copied. */
  private async sourceList<T>(list: ForkList): Promise<T | undefined> {
    const row = await this.inner.get('meta', listKey(list));
    if (row !== undefined) return row.value as T;
    this.needList(list);
    return undefined;
  }

  /** A token of a source list that has not changed since the fork (no local row, not deleted here). */
  private async unchanged(ref: TokenRef): Promise<boolean> {
    const key: Keys['tokens'] = [ref.collectionId, ref.tokenId];
    const [row, gone] = await Promise.all([this.inner.get('tokens', key), this.inner.get('meta', goneKey('tokens', key))]);
    return row === undefined && gone === undefined;
  }

  /** Local answer plus the source's members that were never copied (a copied row answers through the local index). */
  private async merged(local: TokenRef[], source: TokenRef[]): Promise<TokenRef[]> {
    const seen = new Set(local.map(refId));
    const extra = await Promise.all(source.filter((r) => !seen.has(refId(r))).map(async (r) => ((await this.unchanged(r)) ? r : null)));
    return [...local, ...extra.filter((r): r is TokenRef => r !== null)].sort(byTokenKey);
  }

  put<N extends TableName>(table: N, row: Rows[N]): void | Promise<void> {
    return this.inner.put(table, row);
  }

  async delete<N extends TableName>(table: N, key: Keys[N]): Promise<void> {
    await this.inner.delete(table, key);
    // Deleted here: the source's row must not come back on the next read.
    if (await this.mayBeAtSourceNoMiss(table, key)) await this.inner.put('meta', { key: goneKey(table, key), value: true });
  }

  private async mayBeAtSourceNoMiss(table: TableName, key: unknown): Promise<boolean> {
    if (table === 'tokens') return this.fromSource((key as Keys['tokens'])[0]);
    return this.mayBeAtSource(table, key);
  }

  async childrenOf(collectionId: number, tokenId: number): Promise<TokenRecord[]> {
    const local = await this.inner.childrenOf(collectionId, tokenId);
    if (!(await this.mayBeAtSourceNoMiss('tokens', [collectionId, tokenId]))) return local;
    const source = await this.sourceList<TokenRef[]>({ type: 'children', collectionId, tokenId });
    // Children are answered as rows: every source child not yet here is copied in (a child moved away since is here already).
    for (const ref of source ?? []) if (await this.unchanged(ref)) await this.get('tokens', [ref.collectionId, ref.tokenId]);
    return local;
  }

  async countOwned(collectionId: number, owner: Address): Promise<number> {
    if (!this.fromSource(collectionId)) return this.inner.countOwned(collectionId, owner);
    return (await this.tokensOfOwner(owner, collectionId)).length;
  }

  async tokensOfOwner(owner: Address, collectionId?: number): Promise<TokenRef[]> {
    const local = await this.inner.tokensOfOwner(owner, collectionId);
    if (collectionId !== undefined && !this.fromSource(collectionId)) return local;
    const source = await this.sourceList<TokenRef[]>({ type: 'owned', owner, collectionId });
    return source ? this.merged(local, source) : local;
  }

  async tokenIdsOfCollection(collectionId: number): Promise<number[]> {
    const local = await this.inner.tokenIdsOfCollection(collectionId);
    if (!this.fromSource(collectionId)) return local;
    const ids = await this.sourceList<number[]>({ type: 'ids', collectionId });
    if (!ids) return local;
    const refs = await this.merged(
      local.map((tokenId) => ({ collectionId, tokenId })),
      ids.map((tokenId) => ({ collectionId, tokenId }))
    );
    return refs.map((r) => r.tokenId);
  }

  async allowListOf(collectionId: number): Promise<Address[]> {
    if (this.fromSource(collectionId) && !(await this.has(listKey({ type: 'allow', collectionId })))) this.needList({ type: 'allow', collectionId });
    return this.inner.allowListOf(collectionId);
  }

  recentExtrinsics(limit: number, signer?: Address): Promise<ExtrinsicRecord[]> {
    return this.inner.recentExtrinsics(limit, signer);
  }

  headBlock(): Promise<BlockRecord | undefined> {
    return this.inner.headBlock();
  }

  blockByHash(hash: string): Promise<BlockRecord | undefined> {
    return this.inner.blockByHash(hash);
  }

  pooled(): Promise<PoolRecord[]> {
    return this.inner.pooled();
  }
}

export interface ForkStoreOptions {
  /** Runs each copy's write (the Node host tracks them, so a stop lets them commit). */
  track?: <T>(write: () => Promise<T>) => Promise<T>;
}

export class ForkStore implements Store {
  /** Copies under way, by miss: a second reader of the same row waits for the first one's fetch. */
  private readonly inflight = new Map<string, Promise<void>>();
  private readonly track: <T>(write: () => Promise<T>) => Promise<T>;

  constructor(
    readonly inner: Store,
    readonly source: ForkSource,
    options: ForkStoreOptions = {}
  ) {
    this.track = options.track ?? ((write) => write());
  }

  /** Set while the host replaces the ledger under this fork: copies still running write nothing. */
  retired = false;

  get origin(): ForkOrigin {
    return this.source.origin;
  }

  read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    return this.run((f) => this.inner.read(f), fn);
  }

  write<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    return this.run((f) => this.inner.write(f), fn);
  }

  dump(): ReturnType<Store['dump']> {
    return this.inner.dump();
  }

  replaceAll(rows: Parameters<Store['replaceAll']>[0]): Promise<void> {
    return this.inner.replaceAll(rows);
  }

  close(): void {
    this.inner.close();
  }

  private async run<T>(open: (fn: (tx: QueryTx) => Promise<T>) => Promise<T>, fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    for (let round = 1; ; round++) {
      const misses = new Misses();
      try {
        return await open(async (tx) => {
          let result: T;
          try {
            result = await fn(new ForkTx(tx, this.origin, misses));
          } catch (e) {
            if (misses.size > 0) throw new RoundFull('the transaction missed rows of the source');
            throw e;
          }
          // Answered without rows it needed: roll back whatever it wrote, copy them, run again.
          if (misses.size > 0) throw new RoundFull('the transaction missed rows of the source');
          return result;
        });
      } catch (e) {
        if (misses.size === 0) throw e;
      }
      if (round >= MAX_ROUNDS) {
        throw new ForkSourceError('unsupported', `This read needs more than ${MAX_ROUNDS * MISSES_PER_ROUND} rows copied from the fork's source at once`, this.origin.source);
      }
      await this.settle([...misses.all.values()]);
    }
  }

  /** Copy every miss in: each fetched once however many transactions wait for it. */
  private async settle(misses: Miss[]): Promise<void> {
    const waits: Promise<void>[] = [];
    const mine: Miss[] = [];
    for (const miss of misses) {
      const running = this.inflight.get(miss.id);
      if (running) waits.push(running);
      else mine.push(miss);
    }
    if (mine.length > 0) {
      const job = this.copy(mine);
      for (const miss of mine) this.inflight.set(miss.id, job);
      const forget = () => {
        for (const miss of mine) if (this.inflight.get(miss.id) === job) this.inflight.delete(miss.id);
      };
      job.then(forget, forget);
      waits.push(job);
    }
    const results = await Promise.allSettled(waits);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Fetch the misses (the source bounds how many at once), then write every answer in one transaction. */
  private async copy(misses: Miss[]): Promise<void> {
    const fetched = await Promise.allSettled(misses.map((miss) => copyMiss(this.source, miss)));
    const writers = fetched.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    if (writers.length > 0) {
      await this.track(() =>
        this.inner.write(async (tx) => {
          // The host replaced the ledger meanwhile (or another context stored another fork): these rows are not of its state.
          const stored = (await readMeta<ChainConfig | null>(tx, META.chainConfig, null))?.fork;
          if (this.retired || (stored && (stored.source !== this.origin.source || stored.blockHash !== this.origin.blockHash))) throw new ForkReplacedError(this.origin.source);
          for (const write of writers) await write(tx);
        })
      );
    }
    const failed = fetched.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
