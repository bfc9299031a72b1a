// A write overlay over a StateTx: the checkpoint every extrinsic runs in. Reads see the overlay
// first; `commit()` pushes the writes down one level; dropping the overlay reverts the call.
import type { Keys, Rows, StateTx, TableName } from './store';
import { isStateTable, keyOf, type RowChange } from './store';
import { isNoChange } from './changes';
import type { Address, TokenRecord } from './types';

interface Entry {
  table: TableName;
  key: unknown;
  /** The row as written here; `null` = deleted. */
  row: unknown | null;
  /** The row as the level below holds it (known because every write is preceded by a read). */
  below: unknown | undefined;
}

function entryKey(table: TableName, key: unknown): string {
  return table + '\u0000' + (Array.isArray(key) ? key.join('\u0000') : String(key));
}

export class Overlay implements StateTx {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly below: StateTx) {}

  async get<N extends TableName>(table: N, key: Keys[N]): Promise<Rows[N] | undefined> {
    const hit = this.entries.get(entryKey(table, key));
    if (hit) return (hit.row ?? undefined) as Rows[N] | undefined;
    return this.below.get(table, key);
  }

  async put<N extends TableName>(table: N, row: Rows[N]): Promise<void> {
    const key = keyOf(table, row);
    const id = entryKey(table, key);
    const hit = this.entries.get(id);
    if (hit) hit.row = row;
    else this.entries.set(id, { table, key, row, below: await this.below.get(table, key) });
  }

  async delete<N extends TableName>(table: N, key: Keys[N]): Promise<void> {
    const id = entryKey(table, key);
    const hit = this.entries.get(id);
    if (hit) hit.row = null;
    else this.entries.set(id, { table, key, row: null, below: await this.below.get(table, key) });
  }

  async childrenOf(collectionId: number, tokenId: number): Promise<TokenRecord[]> {
    const isChild = (t: TokenRecord | null | undefined): t is TokenRecord =>
      !!t && t.parentCollectionId === collectionId && t.parentTokenId === tokenId;
    const result = new Map<string, TokenRecord>();
    for (const t of await this.below.childrenOf(collectionId, tokenId)) {
      result.set(`${t.collectionId}:${t.tokenId}`, t);
    }
    for (const e of this.tokenEntries()) {
      const id = `${(e.key as number[])[0]}:${(e.key as number[])[1]}`;
      if (isChild(e.row as TokenRecord | null)) result.set(id, e.row as TokenRecord);
      else result.delete(id);
    }
    return [...result.values()].sort((a, b) => a.collectionId - b.collectionId || a.tokenId - b.tokenId);
  }

  async countOwned(collectionId: number, owner: Address): Promise<number> {
    let count = await this.below.countOwned(collectionId, owner);
    const owns = (t: unknown) => {
      const r = t as TokenRecord | null | undefined;
      return !!r && r.collectionId === collectionId && r.owner === owner;
    };
    for (const e of this.tokenEntries()) count += Number(owns(e.row)) - Number(owns(e.below));
    return count;
  }

  /** Push every write down to the level below, in write order. */
  async commit(): Promise<void> {
    for (const e of this.entries.values()) {
      if (e.row === null) {
        if (e.below !== undefined) await this.below.delete(e.table, e.key as never);
      } else {
        await this.below.put(e.table, e.row as never);
      }
    }
    this.entries.clear();
  }

  /** What the writes here change in the state tables, one entry per row, in first-write order; rewrites of the same value are left out. */
  rowChanges(): RowChange[] {
    const out: RowChange[] = [];
    for (const e of this.entries.values()) {
      if (!isStateTable(e.table)) continue;
      const change = { table: e.table, key: e.key, before: e.below, after: e.row ?? undefined } as RowChange;
      if (!isNoChange(change)) out.push(change);
    }
    return out;
  }

  /** Whether anything was written. */
  get isDirty(): boolean {
    return this.entries.size > 0;
  }

  private *tokenEntries(): Iterable<Entry> {
    for (const e of this.entries.values()) if (e.table === 'tokens') yield e;
  }
}
