// Keeping history: each block stores the rows it changed, before and after, in the block's own
// transaction (so a block and its history are durable together, or neither is), and, with a
// retention, forgets the changes of the block that just left the kept range.
import type { HistoryRecord, QueryTx } from '../store';
import type { BlockRowChange } from '../chain/block';

/** How many blocks back reads at a block, revert and changes may reach. */
export interface HistoryPolicy {
  /** Blocks of history kept below the head; `null` keeps every block. */
  keepBlocks: number | null;
}

export const KEEP_ALL_HISTORY: HistoryPolicy = { keepBlocks: null };

/** Most blocks a retention may name (a block number is a u32). */
export const MAX_HISTORY_BLOCKS = 0xffff_ffff;

/** A retention of `blocks` (every block when undefined); a RangeError naming `option` when it is not a whole number from 0. */
export function historyPolicy(blocks: number | undefined, option = 'history'): HistoryPolicy {
  if (blocks === undefined) return KEEP_ALL_HISTORY;
  if (!Number.isSafeInteger(blocks) || blocks < 0 || blocks > MAX_HISTORY_BLOCKS) {
    throw new RangeError(`${option} must be a whole number of blocks from 0 to ${MAX_HISTORY_BLOCKS}, not ${String(blocks).slice(0, 32)}`);
  }
  return { keepBlocks: blocks };
}

/** Store block `block`'s changes and prune what falls out of the kept range. */
export async function keepHistory(tx: QueryTx, block: number, changes: BlockRowChange[], policy: HistoryPolicy): Promise<void> {
  const records: HistoryRecord[] = changes.map((change, seq) => ({ ...change, block, seq }));
  await tx.history.add(records);
  if (policy.keepBlocks === null) return;
  const oldest = block - policy.keepBlocks;
  if (oldest > (await tx.history.start())) {
    await tx.history.delete({ upTo: oldest });
    await tx.history.setStart(oldest);
  }
}
