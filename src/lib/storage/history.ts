// The state history on IndexedDB (the Store port's HistoryTx): one `changes` row per changed row
// of a block, keyed by [block+seq]; [tbl+keyId+block+seq] finds a row's first change after a block
// (a read at that block) and its history, [tbl+block+keyId] which rows of a table changed after a block (lists at a block, revert).
// Writes are buffered and run at the transaction's flush, after the state writes, like them.
import type { Table, Transaction } from './dexie';
import type { HistoryRecord, HistoryTx, Keys, StateTable } from '../ledger/store';
import { STATE_TABLES } from '../ledger/store';
import { accountPlaceOf, accountPlacesOf, type ChangeRow } from './schema';

/** Above every block and seq (Dexie's range sets, used by its change tracking, refuse an Infinity bound on delete). */
const LAST = Number.MAX_SAFE_INTEGER;

/** A row's key as text: one index entry per row, whatever the key's shape. */
export function keyIdOf(key: unknown): string {
  return JSON.stringify(key);
}

function rowOf(record: HistoryRecord): ChangeRow {
  const row: ChangeRow = { block: record.block, seq: record.seq, extrinsic: record.extrinsic, tbl: record.table, keyId: keyIdOf(record.key), key: record.key };
  // An absent side stays absent (IndexedDB keeps `undefined` too, but absence is what it means).
  if (record.before !== undefined) row.before = record.before;
  if (record.after !== undefined) row.after = record.after;
  const places = accountPlacesOf(record, record.block, record.seq);
  if (places.length) row.accountPlaces = places;
  return row;
}

function recordOf(row: ChangeRow): HistoryRecord {
  return { block: row.block, seq: row.seq, extrinsic: row.extrinsic, table: row.tbl, key: row.key as never, before: row.before as never, after: row.after as never };
}

const bySequence = (a: ChangeRow, b: ChangeRow) => a.block - b.block || a.seq - b.seq;

export class DexieHistory implements HistoryTx {
  private readonly pending: (() => Promise<unknown>)[] = [];

  constructor(
    private readonly trans: Transaction,
    private readonly writable: boolean
  ) {}

  private get changes(): Table<ChangeRow, [number, number]> {
    return this.trans.table('changes');
  }

  async start(): Promise<number> {
    const row = (await this.trans.table('historyInfo').get('start')) as { value: number } | undefined;
    return row?.value ?? 0;
  }

  async changeAfter<N extends StateTable>(table: N, key: Keys[N], block: number): Promise<HistoryRecord<N> | undefined> {
    const row = await this.firstAfter(table, keyIdOf(key), block);
    return row ? (recordOf(row) as HistoryRecord<N>) : undefined;
  }

  async firstChangesAfter(block: number, table?: StateTable): Promise<HistoryRecord[]> {
    // Which rows changed: the keys of one index, no values read (a revert over thousands of blocks
    // that changed a few rows again and again reads those few rows' first changes, not every change).
    const rows = new Map<string, [StateTable, string]>();
    await Promise.all(
      (table === undefined ? STATE_TABLES : [table]).map(async (tbl) => {
        const keys = (await this.changes.where('[tbl+block+keyId]').between([tbl, block + 1], [tbl, Infinity], true, true).keys()) as unknown as [StateTable, number, string][];
        for (const [, , keyId] of keys) rows.set(tbl + '\u0001' + keyId, [tbl, keyId]);
      })
    );
    const firsts = await Promise.all([...rows.values()].map(([tbl, keyId]) => this.firstAfter(tbl, keyId, block)));
    return firsts.filter((row): row is ChangeRow => row !== undefined).sort(bySequence).map(recordOf);
  }

  /** One row's first change after `block`: one seek. */
  private firstAfter(table: StateTable, keyId: string, block: number): Promise<ChangeRow | undefined> {
    return this.changes.where('[tbl+keyId+block+seq]').between([table, keyId, block, LAST], [table, keyId, LAST, LAST], false, true).first();
  }

  async changesOfRow<N extends StateTable>(table: N, key: Keys[N], before: { block: number; seq: number } | undefined, limit: number): Promise<HistoryRecord<N>[]> {
    const id = keyIdOf(key);
    const upper = before ? [table, id, before.block, before.seq] : [table, id, LAST, LAST];
    const rows = await this.changes.where('[tbl+keyId+block+seq]').between([table, id, -1, -1], upper, true, false).reverse().limit(limit).toArray();
    return rows.map((row) => recordOf(row) as HistoryRecord<N>);
  }

  async changesOfAccount(account: string, before: { block: number; seq: number } | undefined, limit: number): Promise<HistoryRecord[]> {
    const lower = accountPlaceOf(account, 0, 0);
    const upper = before ? accountPlaceOf(account, before.block, before.seq) : `${account}\u0002`;
    const rows = await this.changes.where('accountPlaces').between(lower, upper, true, false).reverse().limit(limit).toArray();
    return rows.map(recordOf);
  }

  async changesOfBlock(block: number): Promise<HistoryRecord[]> {
    return (await this.changes.where('[block+seq]').between([block, -1], [block, LAST]).toArray()).map(recordOf);
  }

  add(records: HistoryRecord[]): void {
    this.checkWritable();
    const rows = records.map(rowOf);
    if (rows.length) this.pending.push(() => this.changes.bulkAdd(rows));
  }

  delete(range: { after: number } | { upTo: number }): void {
    this.checkWritable();
    this.pending.push(() =>
      'after' in range
        ? this.changes.where('[block+seq]').between([range.after + 1, -1], [LAST, LAST], true, true).delete()
        : this.changes.where('[block+seq]').between([-1, -1], [range.upTo, LAST], true, true).delete()
    );
  }

  setStart(block: number): void {
    this.checkWritable();
    this.pending.push(() => this.trans.table('historyInfo').put({ key: 'start', value: block }));
  }

  /** Run the buffered writes, in the order they were made (inside the same transaction). */
  async flush(): Promise<void> {
    for (const write of this.pending.splice(0)) await write();
  }

  private checkWritable(): void {
    if (!this.writable) throw new Error('History may only be written inside store.write(), not store.read().');
  }
}
