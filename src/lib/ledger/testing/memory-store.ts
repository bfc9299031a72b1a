// An in-memory Store for unit tests of the ledger. Index queries scan here, which is fine for
// tests; the real adapter (storage/) answers them from IndexedDB indexes.
import type { HistoryRecord, HistoryTx, Keys, QueryTx, Rows, StateTable, Store, TableName } from '../store';
import { TABLES, importedHead, keyOf } from '../store';
import type { Address, ExtrinsicRecord, TokenRecord, TokenRef } from '../types';
import { accountsOfChange } from '../history/accounts-of-change';

type Tables = { [N in TableName]: Map<string, Rows[N]> };

function k(key: unknown): string {
  return Array.isArray(key) ? key.join('\u0000') : String(key);
}

/** Kept history: change records in (block, seq) order, and the oldest block it answers for. */
interface History {
  records: HistoryRecord[];
  start: number;
}

const bySequence = (a: HistoryRecord, b: HistoryRecord) => a.block - b.block || a.seq - b.seq;

/** History over an array, scanned (tests only; the real stores use an index). */
class MemoryHistory implements HistoryTx {
  constructor(
    private readonly state: History,
    private readonly writable: boolean
  ) {}

  private checkWritable(): void {
    if (!this.writable) throw new Error('History may only be written inside store.write(), not store.read().');
  }

  async start(): Promise<number> {
    return this.state.start;
  }
  async changeAfter<N extends StateTable>(table: N, key: Keys[N], block: number): Promise<HistoryRecord<N> | undefined> {
    const id = k(key);
    const hit = this.state.records.find((r) => r.block > block && r.table === table && k(r.key) === id);
    return hit ? (structuredClone(hit) as HistoryRecord<N>) : undefined;
  }
  async firstChangesAfter(block: number, table?: StateTable): Promise<HistoryRecord[]> {
    const seen = new Set<string>();
    const out: HistoryRecord[] = [];
    for (const r of this.state.records) {
      if (r.block <= block || (table !== undefined && r.table !== table)) continue;
      const id = r.table + '\u0001' + k(r.key);
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(structuredClone(r));
    }
    return out;
  }
  async changesOfRow<N extends StateTable>(table: N, key: Keys[N], before: { block: number; seq: number } | undefined, limit: number): Promise<HistoryRecord<N>[]> {
    const id = k(key);
    const earlier = (r: HistoryRecord) => !before || r.block < before.block || (r.block === before.block && r.seq < before.seq);
    const rows = this.state.records.filter((r) => r.table === table && k(r.key) === id && earlier(r));
    return rows.reverse().slice(0, limit).map((r) => structuredClone(r) as HistoryRecord<N>);
  }
  async changesOfAccount(account: string, before: { block: number; seq: number } | undefined, limit: number): Promise<HistoryRecord[]> {
    const earlier = (r: HistoryRecord) => !before || r.block < before.block || (r.block === before.block && r.seq < before.seq);
    const rows = this.state.records.filter((r) => earlier(r) && accountsOfChange(r).includes(account));
    return rows.reverse().slice(0, limit).map((r) => structuredClone(r));
  }
  async changesOfBlock(block: number): Promise<HistoryRecord[]> {
    return this.state.records.filter((r) => r.block === block).map((r) => structuredClone(r));
  }
  add(records: HistoryRecord[]): void {
    this.checkWritable();
    this.state.records.push(...structuredClone(records));
    this.state.records.sort(bySequence);
  }
  delete(range: { after: number } | { upTo: number }): void {
    this.checkWritable();
    this.state.records = this.state.records.filter((r) => ('after' in range ? r.block <= range.after : r.block > range.upTo));
  }
  setStart(block: number): void {
    this.checkWritable();
    this.state.start = block;
  }
}

function emptyTables(): Tables {
  return Object.fromEntries(TABLES.map((t) => [t, new Map()])) as unknown as Tables;
}

class MemoryTx implements QueryTx {
  readonly history: HistoryTx;

  constructor(
    private readonly tables: Tables,
    history: History,
    writable: boolean
  ) {
    this.history = new MemoryHistory(history, writable);
  }

  async get<N extends TableName>(table: N, key: Keys[N]): Promise<Rows[N] | undefined> {
    const row = this.tables[table].get(k(key));
    return row === undefined ? undefined : structuredClone(row);
  }
  put<N extends TableName>(table: N, row: Rows[N]): void {
    this.tables[table].set(k(keyOf(table, row)), structuredClone(row));
  }
  delete<N extends TableName>(table: N, key: Keys[N]): void {
    this.tables[table].delete(k(key));
  }
  private tokens(): TokenRecord[] {
    return [...this.tables.tokens.values()];
  }
  async childrenOf(collectionId: number, tokenId: number): Promise<TokenRecord[]> {
    return this.tokens()
      .filter((t) => t.parentCollectionId === collectionId && t.parentTokenId === tokenId)
      .map((t) => structuredClone(t));
  }
  async countOwned(collectionId: number, owner: Address): Promise<number> {
    return this.tokens().filter((t) => t.collectionId === collectionId && t.owner === owner).length;
  }
  async tokensOfOwner(owner: Address, collectionId?: number): Promise<TokenRef[]> {
    return this.tokens()
      .filter((t) => t.owner === owner && (collectionId === undefined || t.collectionId === collectionId))
      .map(({ collectionId, tokenId }) => ({ collectionId, tokenId }))
      .sort((a, b) => a.collectionId - b.collectionId || a.tokenId - b.tokenId);
  }
  async tokenIdsOfCollection(collectionId: number): Promise<number[]> {
    return this.tokens()
      .filter((t) => t.collectionId === collectionId)
      .map((t) => t.tokenId)
      .sort((a, b) => a - b);
  }
  async allowListOf(collectionId: number): Promise<Address[]> {
    return [...this.tables.allowList.values()].filter((r) => r.collectionId === collectionId).map((r) => r.address).sort();
  }
  async recentExtrinsics(limit: number, signer?: Address): Promise<ExtrinsicRecord[]> {
    return [...this.tables.extrinsics.values()]
      .filter((e) => signer === undefined || e.signer === signer)
      .sort((a, b) => b.createdAt - a.createdAt)
      .slice(0, limit);
  }
  async headBlock() {
    let head: Rows['blocks'] | undefined;
    for (const b of this.tables.blocks.values()) if (!head || b.number > head.number) head = b;
    return head;
  }
  async blockByHash(hash: string) {
    return [...this.tables.blocks.values()].find((b) => b.hash === hash);
  }
  async pooled() {
    return [...this.tables.pool.values()].map((p) => structuredClone(p));
  }
}

export class MemoryStore implements Store {
  private tables = emptyTables();
  private history: History = { records: [], start: 0 };

  async read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    return fn(new MemoryTx(this.tables, this.history, false));
  }
  async write<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    // All or nothing, like an IndexedDB transaction: work on a copy, swap it in on success.
    // History records are never changed once kept, so a shallow copy of their list will do.
    const copy = structuredClone(this.tables);
    const history = { ...this.history, records: [...this.history.records] };
    const result = await fn(new MemoryTx(copy, history, true));
    this.tables = copy;
    this.history = history;
    return result;
  }
  async dump() {
    return Object.fromEntries(TABLES.map((t) => [t, structuredClone([...this.tables[t].values()])])) as never;
  }
  async replaceAll(rows: { [N in TableName]: Rows[N][] }): Promise<void> {
    const next = emptyTables();
    for (const t of TABLES) for (const row of rows[t] ?? []) (next[t] as Map<string, unknown>).set(k(keyOf(t, row as never)), structuredClone(row));
    this.tables = next;
    this.history = { records: [], start: importedHead(rows) };
  }
  close(): void {}
}
