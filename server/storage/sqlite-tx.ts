// One transaction's access to the ledger tables on an SQLite connection (see sqlite-schema.ts).
// better-sqlite3 is synchronous: every method does its SQL at once and returns a settled promise.
import type Database from 'better-sqlite3';
import { fromTaggedJson, toTaggedJson } from '../../src/lib/ledger/snapshot';
import type { Keys, QueryTx, Rows, TableName } from '../../src/lib/ledger/store';
import { keyOf } from '../../src/lib/ledger/store';
import type { Address, BlockRecord, ExtrinsicRecord, PoolRecord, TokenRecord, TokenRef } from '../../src/lib/ledger/types';
import { SqliteHistory } from './sqlite-history';
import { TABLE_SPECS } from './sqlite-schema';

type Connection = Database.Database;
type Statement = Database.Statement;

/** What a store operation is, for fault injection. */
export type StatementKind = 'get' | 'put' | 'delete' | 'query';

/** Hooks a test uses to make a write fail at a chosen point; whatever they throw rolls the block back. */
export interface StoreFaults {
  /** Before each statement of a write transaction (reads inside it too). */
  beforeStatement?(table: TableName | 'changes', kind: StatementKind): void;
  /** After the write callback returned, before COMMIT. */
  beforeCommit?(): void;
}

/** Prepared statements of one connection, by SQL text. */
export class StatementCache {
  private readonly statements = new Map<string, Statement>();
  constructor(readonly db: Connection) {}

  get(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }
}

const quoted = (name: string) => `"${name}"`;
const where = (columns: readonly string[]) => columns.map((c) => `${quoted(c)} = ?`).join(' AND ');

/** SQL text of the point operations of every table, built once. */
const POINT_SQL = Object.fromEntries(
  (Object.keys(TABLE_SPECS) as TableName[]).map((table) => {
    const spec = TABLE_SPECS[table];
    const columns = [...spec.keyColumns, ...spec.indexColumns, 'value'];
    return [
      table,
      {
        get: `SELECT value FROM ${quoted(table)} WHERE ${where(spec.keyColumns)}`,
        // A block never replaces another: putting a number that is stored fails (SQLITE_CONSTRAINT).
        put: `${table === 'blocks' ? 'INSERT' : 'INSERT OR REPLACE'} INTO ${quoted(table)} (${columns.map(quoted).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        delete: `DELETE FROM ${quoted(table)} WHERE ${where(spec.keyColumns)}`
      }
    ];
  })
) as Record<TableName, { get: string; put: string; delete: string }>;

const SQL = {
  childrenOf: 'SELECT value FROM tokens WHERE parentCollectionId = ? AND parentTokenId = ? ORDER BY collectionId, tokenId',
  countOwned: 'SELECT count(*) FROM tokens WHERE owner = ? AND collectionId = ?',
  tokensOfOwner: 'SELECT collectionId, tokenId FROM tokens WHERE owner = ? ORDER BY collectionId, tokenId',
  tokensOfOwnerIn: 'SELECT collectionId, tokenId FROM tokens WHERE owner = ? AND collectionId = ? ORDER BY tokenId',
  tokenIdsOfCollection: 'SELECT tokenId FROM tokens WHERE collectionId = ? ORDER BY tokenId',
  allowListOf: 'SELECT address FROM allowList WHERE collectionId = ?',
  // LIMIT -1 is no limit.
  recentExtrinsics: 'SELECT value FROM extrinsics ORDER BY createdAt DESC, hash DESC LIMIT ?',
  recentExtrinsicsOf: 'SELECT value FROM extrinsics WHERE signer = ? ORDER BY createdAt DESC, hash DESC LIMIT ?',
  headBlock: 'SELECT value FROM blocks ORDER BY number DESC LIMIT 1',
  blockByHash: 'SELECT value FROM blocks WHERE hash = ? ORDER BY number LIMIT 1',
  pooled: 'SELECT value FROM pool ORDER BY hash'
};

/** JavaScript's (IndexedDB's) order of strings: by UTF-16 code units. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const decode = <T>(json: string | undefined): T | undefined => (json === undefined ? undefined : (fromTaggedJson(json) as T));
const decodeAll = <T>(list: string[]): T[] => list.map((json) => fromTaggedJson(json) as T);

export class TransactionFinishedError extends Error {
  override readonly name = 'TransactionFinishedError';
  constructor() {
    super('This store transaction has finished; use the tx only inside the read/write callback.');
  }
}

export class ReadOnlyTransactionError extends Error {
  override readonly name = 'ReadOnlyTransactionError';
  constructor() {
    super('put/delete may only be called inside store.write(), not store.read().');
  }
}

export class SqliteTx implements QueryTx {
  private finished = false;
  readonly history: SqliteHistory;

  constructor(
    private readonly statements: StatementCache,
    private readonly writable: boolean,
    private readonly faults: StoreFaults | undefined
  ) {
    this.history = new SqliteHistory((sql, write, run) => {
      if (write && !this.writable && !this.finished) throw new ReadOnlyTransactionError();
      return this.exec('changes', write ? 'put' : 'query', sql, run);
    });
  }

  /** Closes this tx: any later use throws. */
  finish(): void {
    this.finished = true;
  }

  /**
   * The first statement failure (or injected fault) of a write transaction. The store refuses to
   * commit after one, even if the caller caught it: a block is stored whole or not at all.
   */
  failure: { error: unknown } | undefined;

  /** Run one statement, recording a failure in a write transaction. */
  private exec<R>(table: TableName | 'changes', kind: StatementKind, sql: string, run: (statement: Statement) => R): R {
    if (this.finished) throw new TransactionFinishedError();
    try {
      if (this.writable) this.faults?.beforeStatement?.(table, kind);
      return run(this.statements.get(sql));
    } catch (error) {
      if (this.writable) this.failure ??= { error };
      throw error;
    }
  }

  private values<T>(table: TableName, sql: string, ...params: unknown[]): T[] {
    return this.exec(table, 'query', sql, (s) => s.pluck().all(...params) as T[]);
  }

  // ---- StateTx -------------------------------------------------------------------------------

  async get<N extends TableName>(table: N, key: Keys[N]): Promise<Rows[N] | undefined> {
    const params = TABLE_SPECS[table].keyValues(key);
    return decode<Rows[N]>(this.exec(table, 'get', POINT_SQL[table].get, (s) => s.pluck().get(...params) as string | undefined));
  }

  put<N extends TableName>(table: N, row: Rows[N]): void {
    if (!this.writable && !this.finished) throw new ReadOnlyTransactionError();
    const spec = TABLE_SPECS[table];
    const params = [...spec.keyValues(keyOf(table, row)), ...spec.indexValues(row), toTaggedJson(row)];
    this.exec(table, 'put', POINT_SQL[table].put, (s) => s.run(...params));
  }

  delete<N extends TableName>(table: N, key: Keys[N]): void {
    if (!this.writable && !this.finished) throw new ReadOnlyTransactionError();
    const params = TABLE_SPECS[table].keyValues(key);
    this.exec(table, 'delete', POINT_SQL[table].delete, (s) => s.run(...params));
  }

  async childrenOf(collectionId: number, tokenId: number): Promise<TokenRecord[]> {
    return decodeAll(this.values('tokens', SQL.childrenOf, collectionId, tokenId));
  }

  async countOwned(collectionId: number, owner: Address): Promise<number> {
    return this.values<number>('tokens', SQL.countOwned, owner, collectionId)[0];
  }

  // ---- QueryTx -------------------------------------------------------------------------------

  async tokensOfOwner(owner: Address, collectionId?: number): Promise<TokenRef[]> {
    const [sql, params] = collectionId === undefined ? [SQL.tokensOfOwner, [owner]] : [SQL.tokensOfOwnerIn, [owner, collectionId]];
    return this.exec('tokens', 'query', sql, (s) => s.all(...params) as TokenRef[]);
  }

  async tokenIdsOfCollection(collectionId: number): Promise<number[]> {
    return this.values('tokens', SQL.tokenIdsOfCollection, collectionId);
  }

  async allowListOf(collectionId: number): Promise<Address[]> {
    return this.values<Address>('allowList', SQL.allowListOf, collectionId).sort(compareStrings);
  }

  async recentExtrinsics(limit: number, signer?: Address): Promise<ExtrinsicRecord[]> {
    const n = Math.floor(limit);
    if (!(n > 0)) return [];
    const sqlLimit = Number.isFinite(n) ? n : -1;
    return decodeAll(
      signer === undefined
        ? this.values('extrinsics', SQL.recentExtrinsics, sqlLimit)
        : this.values('extrinsics', SQL.recentExtrinsicsOf, signer, sqlLimit)
    );
  }

  async headBlock(): Promise<BlockRecord | undefined> {
    return decode(this.values<string>('blocks', SQL.headBlock)[0]);
  }

  async blockByHash(hash: string): Promise<BlockRecord | undefined> {
    return decode(this.values<string>('blocks', SQL.blockByHash, hash)[0]);
  }

  async pooled(): Promise<PoolRecord[]> {
    return decodeAll(this.values('pool', SQL.pooled));
  }
}
