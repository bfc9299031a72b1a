// An in-memory Store for unit tests of the ledger. Index queries scan here, which is fine for
// tests; the real adapter (storage/) answers them from IndexedDB indexes.
import type { Keys, QueryTx, Rows, Store, TableName } from '../store';
import { TABLES, keyOf } from '../store';
import type { Address, ExtrinsicRecord, TokenRecord, TokenRef } from '../types';

type Tables = { [N in TableName]: Map<string, Rows[N]> };

function k(key: unknown): string {
  return Array.isArray(key) ? key.join('\u0000') : String(key);
}

function emptyTables(): Tables {
  return Object.fromEntries(TABLES.map((t) => [t, new Map()])) as unknown as Tables;
}

class MemoryTx implements QueryTx {
  constructor(private readonly tables: Tables) {}

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

  async read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    return fn(new MemoryTx(this.tables));
  }
  async write<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    // All or nothing, like an IndexedDB transaction: work on a copy, swap it in on success.
    const copy = structuredClone(this.tables);
    const result = await fn(new MemoryTx(copy));
    this.tables = copy;
    return result;
  }
  async dump() {
    return Object.fromEntries(TABLES.map((t) => [t, structuredClone([...this.tables[t].values()])])) as never;
  }
  async replaceAll(rows: { [N in TableName]: Rows[N][] }): Promise<void> {
    const next = emptyTables();
    for (const t of TABLES) for (const row of rows[t] ?? []) (next[t] as Map<string, unknown>).set(k(keyOf(t, row as never)), structuredClone(row));
    this.tables = next;
  }
  close(): void {}
}
