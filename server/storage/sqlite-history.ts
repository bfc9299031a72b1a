// The state history in SQLite (the Store port's HistoryTx; layout in sqlite-schema.ts, version 2).
// A change's rowid is its place: block * 2^20 + seq, so "after block b" is `id >= (b + 1) << 20`,
// and a row's first change after a block is one seek on (tbl, keyId, id).
import { fromTaggedJson, toTaggedJson } from '../../src/lib/ledger/snapshot';
import { accountsOfChange } from '../../src/lib/ledger/history/accounts-of-change';
import type { HistoryRecord, HistoryTx, Keys, StateTable } from '../../src/lib/ledger/store';

/** Changes one block may record (far above what a block of the bounded pool writes). */
export const MAX_CHANGES_PER_BLOCK = 1 << 20;

const idOf = (block: number, seq: number) => block * MAX_CHANGES_PER_BLOCK + seq;
/** The first id of `block + 1`: every change of a block after `block` has an id at least this. */
const firstIdAfter = (block: number) => (block + 1) * MAX_CHANGES_PER_BLOCK;

const SQL = {
  start: "SELECT value FROM history_info WHERE key = 'start'",
  setStart: "INSERT OR REPLACE INTO history_info (key, value) VALUES ('start', ?)",
  changeAfter: 'SELECT * FROM changes WHERE tbl = ? AND keyId = ? AND id >= ? ORDER BY id LIMIT 1',
  // The first change of every row after a block: the smallest id per row (SQLite returns the
  // bare columns of the row holding the min()).
  firstChangesAfter: 'SELECT min(id) AS id, extrinsic, tbl, keyId, before, after FROM changes WHERE id >= ? GROUP BY tbl, keyId ORDER BY id',
  firstChangesAfterIn: 'SELECT min(id) AS id, extrinsic, tbl, keyId, before, after FROM changes WHERE tbl = ? AND id >= ? GROUP BY keyId ORDER BY id',
  ofBlock: 'SELECT * FROM changes WHERE id >= ? AND id < ? ORDER BY id',
  ofRow: 'SELECT * FROM changes WHERE tbl = ? AND keyId = ? AND id < ? ORDER BY id DESC LIMIT ?',
  ofAccount: 'SELECT c.* FROM change_accounts a JOIN changes c ON c.id = a.id WHERE a.account = ? AND a.id < ? ORDER BY a.id DESC LIMIT ?',
  addAccount: 'INSERT INTO change_accounts (account, id) VALUES (?, ?)',
  deleteAccountsFrom: 'DELETE FROM change_accounts WHERE id >= ?',
  deleteAccountsBefore: 'DELETE FROM change_accounts WHERE id < ?',
  add: 'INSERT INTO changes (id, extrinsic, tbl, keyId, before, after) VALUES (?, ?, ?, ?, ?, ?)',
  deleteFrom: 'DELETE FROM changes WHERE id >= ?',
  deleteBefore: 'DELETE FROM changes WHERE id < ?'
} as const;

interface ChangeRow {
  id: number;
  extrinsic: number | null;
  tbl: StateTable;
  keyId: string;
  before: string | null;
  after: string | null;
}

function recordOf(row: ChangeRow): HistoryRecord {
  return {
    block: Math.floor(row.id / MAX_CHANGES_PER_BLOCK),
    seq: row.id % MAX_CHANGES_PER_BLOCK,
    extrinsic: row.extrinsic,
    table: row.tbl,
    key: JSON.parse(row.keyId) as never,
    before: (row.before === null ? undefined : fromTaggedJson(row.before)) as never,
    after: (row.after === null ? undefined : fromTaggedJson(row.after)) as never
  };
}

/** Runs one statement for the transaction (so a failed write makes the commit refuse). */
export type RunStatement = <R>(sql: string, write: boolean, run: (statement: import('better-sqlite3').Statement) => R) => R;

export class SqliteHistory implements HistoryTx {
  constructor(private readonly run: RunStatement) {}

  async start(): Promise<number> {
    return (this.run(SQL.start, false, (s) => s.pluck().get()) as number | undefined) ?? 0;
  }

  async changeAfter<N extends StateTable>(table: N, key: Keys[N], block: number): Promise<HistoryRecord<N> | undefined> {
    const row = this.run(SQL.changeAfter, false, (s) => s.get(table, JSON.stringify(key), firstIdAfter(block))) as ChangeRow | undefined;
    return row ? (recordOf(row) as HistoryRecord<N>) : undefined;
  }

  async firstChangesAfter(block: number, table?: StateTable): Promise<HistoryRecord[]> {
    const rows = (table === undefined
      ? this.run(SQL.firstChangesAfter, false, (s) => s.all(firstIdAfter(block)))
      : this.run(SQL.firstChangesAfterIn, false, (s) => s.all(table, firstIdAfter(block)))) as ChangeRow[];
    return rows.map(recordOf);
  }

  async changesOfRow<N extends StateTable>(table: N, key: Keys[N], before: { block: number; seq: number } | undefined, limit: number): Promise<HistoryRecord<N>[]> {
    const upper = before ? idOf(before.block, before.seq) : Number.MAX_SAFE_INTEGER;
    const rows = this.run(SQL.ofRow, false, (s) => s.all(table, JSON.stringify(key), upper, limit)) as ChangeRow[];
    return rows.map((row) => recordOf(row) as HistoryRecord<N>);
  }

  async changesOfAccount(account: string, before: { block: number; seq: number } | undefined, limit: number): Promise<HistoryRecord[]> {
    const upper = before ? idOf(before.block, before.seq) : Number.MAX_SAFE_INTEGER;
    return (this.run(SQL.ofAccount, false, (s) => s.all(account, upper, limit)) as ChangeRow[]).map(recordOf);
  }

  async changesOfBlock(block: number): Promise<HistoryRecord[]> {
    return (this.run(SQL.ofBlock, false, (s) => s.all(idOf(block, 0), firstIdAfter(block))) as ChangeRow[]).map(recordOf);
  }

  add(records: HistoryRecord[]): void {
    for (const r of records) {
      if (!(r.seq >= 0 && r.seq < MAX_CHANGES_PER_BLOCK)) throw new Error(`A block may record at most ${MAX_CHANGES_PER_BLOCK} changes`);
      const encode = (row: unknown) => (row === undefined ? null : toTaggedJson(row));
      this.run(SQL.add, true, (s) => s.run(idOf(r.block, r.seq), r.extrinsic, r.table, JSON.stringify(r.key), encode(r.before), encode(r.after)));
      for (const account of accountsOfChange(r)) this.run(SQL.addAccount, true, (s) => s.run(account, idOf(r.block, r.seq)));
    }
  }

  delete(range: { after: number } | { upTo: number }): void {
    if ('after' in range) {
      this.run(SQL.deleteAccountsFrom, true, (s) => s.run(firstIdAfter(range.after)));
      this.run(SQL.deleteFrom, true, (s) => s.run(firstIdAfter(range.after)));
    } else {
      this.run(SQL.deleteAccountsBefore, true, (s) => s.run(firstIdAfter(range.upTo)));
      this.run(SQL.deleteBefore, true, (s) => s.run(firstIdAfter(range.upTo)));
    }
  }

  setStart(block: number): void {
    this.run(SQL.setStart, true, (s) => s.run(block));
  }
}
