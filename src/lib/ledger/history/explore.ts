// What the explorer reads of history: the changes of one included extrinsic, a page of blocks,
// and an account's history (every change of its balance, with the extrinsic that made it). Each
// is a bounded number of indexed reads, never a scan of the chain.
import { describeChanges, type Change } from '../changes';
import type { QueryTx } from '../store';
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

export interface BalanceEntry {
  blockNumber: number;
  blockHash: string;
  timestamp: number;
  /** The extrinsic that changed it (null: the block itself). */
  extrinsic: { hash: string; section: string; method: string; signer: Address } | null;
  /** Free balance before and after, smallest unit, decimal strings. */
  before: string;
  after: string;
}

export interface Place {
  block: number;
  seq: number;
}

/**
 * The account's balance changes before `before` (newest first), from at most `limit` changes of
 * its row; `next` is where the following page starts (null at the start of history).
 */
export async function balanceHistory(tx: QueryTx, address: Address, before: Place | undefined, limit: number): Promise<{ entries: BalanceEntry[]; next: Place | null }> {
  const size = Math.min(limit, MAX_PAGE);
  const changes = await tx.history.changesOfRow('accounts', address, before, size);
  const blocks = new Map<number, BlockRecord | undefined>();
  const out: BalanceEntry[] = [];
  for (const change of changes) {
    const free = (row: AccountRecord | undefined) => (row?.free ?? 0n).toString();
    if (free(change.before) === free(change.after)) continue; // a nonce alone (a failed call paid by a sponsor)
    if (!blocks.has(change.block)) blocks.set(change.block, await tx.get('blocks', change.block));
    const block = blocks.get(change.block);
    const hash = change.extrinsic === null ? undefined : block?.extrinsics[change.extrinsic];
    const record = hash ? await tx.get('extrinsics', hash) : undefined;
    out.push({
      blockNumber: change.block,
      blockHash: block?.hash ?? '',
      timestamp: block?.timestamp ?? 0,
      extrinsic: record ? { hash: record.hash, section: record.callMethod.section, method: record.callMethod.method, signer: record.signer } : null,
      before: free(change.before),
      after: free(change.after)
    });
  }
  const last = changes[changes.length - 1];
  return { entries: out, next: changes.length === size ? { block: last.block, seq: last.seq } : null };
}

export interface TokenEntry {
  blockNumber: number;
  blockHash: string;
  timestamp: number;
  extrinsic: { hash: string; section: string; method: string; signer: Address } | null;
  /** What the extrinsic changed of the token (its owner, properties, approval; minted or burned). */
  changes: Change[];
}

/** A token's changes before `before` (newest first), from at most `limit` changes of its row. */
export async function tokenHistory(tx: QueryTx, token: [number, number], before: Place | undefined, limit: number): Promise<{ entries: TokenEntry[]; next: Place | null }> {
  const size = Math.min(limit, MAX_PAGE);
  const changes = await tx.history.changesOfRow('tokens', token, before, size);
  const blocks = new Map<number, BlockRecord | undefined>();
  const entries: TokenEntry[] = [];
  for (const change of changes) {
    if (!blocks.has(change.block)) blocks.set(change.block, await tx.get('blocks', change.block));
    const block = blocks.get(change.block);
    const hash = change.extrinsic === null ? undefined : block?.extrinsics[change.extrinsic];
    const record = hash ? await tx.get('extrinsics', hash) : undefined;
    entries.push({
      blockNumber: change.block,
      blockHash: block?.hash ?? '',
      timestamp: block?.timestamp ?? 0,
      extrinsic: record ? { hash: record.hash, section: record.callMethod.section, method: record.callMethod.method, signer: record.signer } : null,
      changes: describeChanges([change])
    });
  }
  const last = changes[changes.length - 1];
  return { entries, next: changes.length === size ? { block: last.block, seq: last.seq } : null };
}
