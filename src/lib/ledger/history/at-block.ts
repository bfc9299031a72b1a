// The state as of an earlier block, read through the head's transaction and the history kept in
// it: a row's value at block b is the `before` of its first change after b, or the head's row when
// it has not changed since. Index queries take the head's answer and correct it by the rows
// changed since b (one history query per table, kept for the transaction). Read-only.
import type { HistoryRecord, HistoryTx, Keys, QueryTx, Rows, StateTable, TableName } from '../store';
import { isStateTable, keyOf } from '../store';
import type { Address, BlockRecord, ExtrinsicRecord, PoolRecord, TokenRecord, TokenRef } from '../types';

class ReadOnlyHistoryError extends Error {
  override readonly name = 'ReadOnlyHistoryError';
  constructor() {
    super('The state at an earlier block is read-only.');
  }
}

const idOf = (key: unknown) => JSON.stringify(key);
const byTokenKey = (a: TokenRef, b: TokenRef) => a.collectionId - b.collectionId || a.tokenId - b.tokenId;
const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class StateAtBlock implements QueryTx {
  /** Per table: the rows changed since the block, with their value at the block (undefined: no row then). */
  private readonly changedSince = new Map<StateTable, Promise<Map<string, HistoryRecord>>>();

  constructor(
    private readonly head: QueryTx,
    /** The block whose state this answers. */
    readonly block: number
  ) {}

  get history(): HistoryTx {
    return this.head.history;
  }

  async get<N extends TableName>(table: N, key: Keys[N]): Promise<Rows[N] | undefined> {
    if (isStateTable(table)) {
      // Asked together (one round trip in IndexedDB); the head's row is the answer when the row has not changed since.
      const [change, now] = await Promise.all([this.head.history.changeAfter(table as StateTable, key as never, this.block), this.head.get(table, key)]);
      return change ? (change.before as Rows[N] | undefined) : now;
    }
    if (table === 'blocks') return (key as number) <= this.block ? this.head.get(table, key) : undefined;
    if (table === 'extrinsics') {
      const record = (await this.head.get('extrinsics', key as string)) as ExtrinsicRecord | undefined;
      return (record && record.blockNumber !== null && record.blockNumber <= this.block ? record : undefined) as Rows[N] | undefined;
    }
    return undefined; // the pool: nothing waited at a past block, as far as its state says
  }

  put(): never {
    throw new ReadOnlyHistoryError();
  }

  delete(): never {
    throw new ReadOnlyHistoryError();
  }

  /** Rows of `table` changed since the block, by key id, each with its value at the block. */
  private changes(table: StateTable): Promise<Map<string, HistoryRecord>> {
    let changed = this.changedSince.get(table);
    if (!changed) {
      changed = this.head.history.firstChangesAfter(this.block, table).then((records) => new Map(records.map((r) => [idOf(r.key), r])));
      this.changedSince.set(table, changed);
    }
    return changed;
  }

  /** The head's answer of an index query, corrected by the rows changed since the block. */
  private async atBlock<N extends StateTable>(table: N, current: Rows[N][], matches: (row: Rows[N]) => boolean): Promise<Rows[N][]> {
    const changed = await this.changes(table);
    if (changed.size === 0) return current;
    const out = current.filter((row) => !changed.has(idOf(keyOf(table, row))));
    for (const record of changed.values()) {
      const then = record.before as Rows[N] | undefined;
      if (then !== undefined && matches(then)) out.push(then);
    }
    return out;
  }

  /** As atBlock, for queries that answer keys: the head's keys are read whole only where changed rows need it. */
  private async tokensAtBlock(current: TokenRef[], matches: (token: TokenRecord) => boolean): Promise<TokenRef[]> {
    const changed = await this.changes('tokens');
    if (changed.size === 0) return current;
    const out = current.filter((ref) => !changed.has(idOf([ref.collectionId, ref.tokenId])));
    for (const record of changed.values()) {
      const then = record.before as TokenRecord | undefined;
      if (then !== undefined && matches(then)) out.push({ collectionId: then.collectionId, tokenId: then.tokenId });
    }
    return out.sort(byTokenKey);
  }

  async childrenOf(collectionId: number, tokenId: number): Promise<TokenRecord[]> {
    const rows = await this.atBlock('tokens', await this.head.childrenOf(collectionId, tokenId), (t) => t.parentCollectionId === collectionId && t.parentTokenId === tokenId);
    return rows.sort(byTokenKey);
  }

  async countOwned(collectionId: number, owner: Address): Promise<number> {
    return (await this.tokensOfOwner(owner, collectionId)).length;
  }

  async tokensOfOwner(owner: Address, collectionId?: number): Promise<TokenRef[]> {
    return this.tokensAtBlock(await this.head.tokensOfOwner(owner, collectionId), (t) => t.owner === owner && (collectionId === undefined || t.collectionId === collectionId));
  }

  async tokenIdsOfCollection(collectionId: number): Promise<number[]> {
    const refs = (await this.head.tokenIdsOfCollection(collectionId)).map((tokenId) => ({ collectionId, tokenId }));
    return (await this.tokensAtBlock(refs, (t) => t.collectionId === collectionId)).map((ref) => ref.tokenId);
  }

  async allowListOf(collectionId: number): Promise<Address[]> {
    const current = (await this.head.allowListOf(collectionId)).map((address) => ({ collectionId, address }));
    const rows = await this.atBlock('allowList', current, (r) => r.collectionId === collectionId);
    return rows.map((r) => r.address).sort(compareStrings);
  }

  async recentExtrinsics(): Promise<ExtrinsicRecord[]> {
    // No read at a block asks for the log; refusing beats a list that would mix in later blocks.
    throw new Error('The extrinsics log is not answered at an earlier block');
  }

  async headBlock(): Promise<BlockRecord | undefined> {
    return this.head.get('blocks', this.block);
  }

  async blockByHash(hash: string): Promise<BlockRecord | undefined> {
    const block = await this.head.blockByHash(hash);
    return block && block.number <= this.block ? block : undefined;
  }

  async pooled(): Promise<PoolRecord[]> {
    return [];
  }
}
