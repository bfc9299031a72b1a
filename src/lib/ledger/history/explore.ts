// What the explorer reads of history: the changes of one included extrinsic, a page of blocks,
// and an account's history (every change of its balance, with the extrinsic that made it). Each
// is a bounded number of indexed reads, never a scan of the chain.
import { describeChanges, type Change } from '../changes';
import type { HistoryRecord, Keys, QueryTx, StateTable } from '../store';
import type { AccountRecord, Address, BlockRecord, ExtrinsicRecord } from '../types';
import { HistoryError } from './errors';

/** Pages are at most this long. */
export const MAX_PAGE = 100;

export interface ExtrinsicChanges {
  record: ExtrinsicRecord;
  block: BlockRecord;
  changes: Change[];
}

/** The changes of the extrinsic `hash`, as the block that included it recorded them. */
export async function changesOfExtrinsic(tx: QueryTx, hash: string): Promise<ExtrinsicChanges | undefined> {
  const record = await tx.get('extrinsics', hash);
  if (!record) return undefined;
  if (record.blockNumber === null || record.blockIndex === null) {
    throw new HistoryError('unknown', `Extrinsic ${hash} is not in a block (status ${record.status}): it changed nothing`);
  }
  const block = await tx.get('blocks', record.blockNumber);
  // Its block was reverted away (and the number may name another block now): it changed nothing that stands.
  if (!block || block.hash !== record.blockHash) throw new HistoryError('unknown', `Extrinsic ${hash} was reverted with its block: it changed nothing that stands`);
  // A block's changes are kept while reads at the block before it are answered.
  const start = await tx.history.start();
  if (record.blockNumber <= start) {
    throw new HistoryError('pruned', `The changes of block ${record.blockNumber} are no longer kept: history starts at block ${start} (see --history)`);
  }
  const rows = (await tx.history.changesOfBlock(record.blockNumber)).filter((change) => change.extrinsic === record.blockIndex);
  return { record, block, changes: describeChanges(rows) };
}

/** Blocks from `from` down (the head when absent), newest first, at most `limit`. */
export async function blocksFrom(tx: QueryTx, from: number | undefined, limit: number): Promise<BlockRecord[]> {
  const head = (await tx.headBlock())?.number ?? 0;
  // Never count down through numbers above the head: `from` is the client's.
  const top = Math.min(from ?? head, head);
  const out: BlockRecord[] = [];
  for (let n = top; n >= 0 && out.length < Math.min(limit, MAX_PAGE); n--) {
    const block = await tx.get('blocks', n);
    if (block) out.push(block);
  }
  return out;
}

/** Where a change was made: its block, and the extrinsic that made it (null: the block itself). */
export interface ChangePlace {
  blockNumber: number;
  blockHash: string;
  timestamp: number;
  extrinsic: { hash: string; section: string; method: string; signer: Address } | null;
}

export interface BalanceEntry extends ChangePlace {
  /** Free balance before and after, smallest unit, decimal strings. */
  before: string;
  after: string;
}

export interface TokenEntry extends ChangePlace {
  /** What the extrinsic changed of the token (its owner, properties, approval; minted or burned). */
  changes: Change[];
}

export interface Place {
  block: number;
  seq: number;
}

/**
 * One row's changes before `before` (newest first), from at most `limit` of them, each with where
 * it was made and what `entry` makes of it (null: left out); `next` is where the following page
 * starts (null at the start of history).
 */
async function rowHistory<N extends StateTable, E>(
  tx: QueryTx,
  table: N,
  key: Keys[N],
  before: Place | undefined,
  limit: number,
  entry: (change: HistoryRecord<N>, place: ChangePlace) => E | null
): Promise<{ entries: E[]; next: Place | null }> {
  const size = Math.min(limit, MAX_PAGE);
  const changes = await tx.history.changesOfRow(table, key, before, size);
  const blocks = new Map<number, BlockRecord | undefined>();
  const entries: E[] = [];
  for (const change of changes) {
    if (!blocks.has(change.block)) blocks.set(change.block, await tx.get('blocks', change.block));
    const block = blocks.get(change.block);
    const hash = change.extrinsic === null ? undefined : block?.extrinsics[change.extrinsic];
    const record = hash ? await tx.get('extrinsics', hash) : undefined;
    const made = entry(change, {
      blockNumber: change.block,
      blockHash: block?.hash ?? '',
      timestamp: block?.timestamp ?? 0,
      extrinsic: record ? { hash: record.hash, section: record.callMethod.section, method: record.callMethod.method, signer: record.signer } : null
    });
    if (made !== null) entries.push(made);
  }
  const last = changes[changes.length - 1];
  return { entries, next: changes.length === size ? { block: last.block, seq: last.seq } : null };
}

/** The account's balance changes before `before`, newest first (a change of its nonce alone is left out). */
export function balanceHistory(tx: QueryTx, address: Address, before: Place | undefined, limit: number): Promise<{ entries: BalanceEntry[]; next: Place | null }> {
  const free = (row: AccountRecord | undefined) => (row?.free ?? 0n).toString();
  return rowHistory(tx, 'accounts', address, before, limit, (change, place) =>
    free(change.before) === free(change.after) ? null : { ...place, before: free(change.before), after: free(change.after) }
  );
}

/** A token's changes before `before`, newest first. */
export function tokenHistory(tx: QueryTx, token: [number, number], before: Place | undefined, limit: number): Promise<{ entries: TokenEntry[]; next: Place | null }> {
  return rowHistory(tx, 'tokens', token, before, limit, (change, place) => ({ ...place, changes: describeChanges([change]) }));
}
