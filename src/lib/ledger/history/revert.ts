// Revert: make an earlier block the head again, in one write transaction. Every row changed since
// it gets the value it had then (the `before` of its first change after the block), the later
// blocks are deleted (the extrinsics they included then answer Invalid / Reverted, derived where a
// status is read), what waited in the pool is refused, and the history of the later blocks is
// forgotten. Its cost follows the rows changed and the blocks removed, not their extrinsics.
// Uploaded files are not ledger state and stay.
import type { Head } from '../chain/block';
import { recordOutsideBlock } from '../chain/pool';
import { readMeta } from '../meta';
import type { QueryTx } from '../store';
import type { BlockRecord, ExtrinsicRecord, PoolRecord } from '../types';
import { HistoryError } from './errors';
import { dropSnapshotsAfter } from './snapshots';
import { revertedRecord } from './reverted';

export { currentRecord, revertedRecord } from './reverted';

/** The block to revert to, checked: it must be this ledger's, kept by history, and not after the head. */
export async function blockToRevertTo(tx: QueryTx, target: Head): Promise<BlockRecord> {
  const block = target.number;
  const head = await readMeta<Head>(tx, 'head', { number: 0, hash: '' });
  const record = await tx.get('blocks', block);
  if (!record || block > head.number || record.hash !== target.hash) throw new HistoryError('unknown', `Block ${target.hash} is not a block of this ledger to revert to (it may have been reverted away)`);
  const start = await tx.history.start();
  if (block < start) throw new HistoryError('pruned', `Block ${block} is before the kept history (it starts at block ${start}): it can no longer be reverted to`);
  return record;
}

/**
 * Revert to `block` inside the write transaction `tx`. `waiting` are the pool rows to refuse (the
 * pool waited on state that is gone); their records answer Invalid / Reverted as well. Returns the
 * new head and every status record written.
 */
export async function revertState(tx: QueryTx, to: Head, waiting: PoolRecord[]): Promise<{ head: BlockRecord; records: ExtrinsicRecord[] }> {
  const target = await blockToRevertTo(tx, to);
  const block = target.number;
  const head = await readMeta<Head>(tx, 'head', { number: 0, hash: '' });
  for (const change of await tx.history.firstChangesAfter(block)) {
    if (change.before === undefined) await tx.delete(change.table, change.key as never);
    else await tx.put(change.table, change.before as never);
  }
  // The extrinsics of these blocks keep their records: they answer Reverted (currentRecord).
  for (let n = block + 1; n <= head.number; n++) await tx.delete('blocks', n);
  const records: ExtrinsicRecord[] = [];
  // What waits (in this context's pool, or stored by another context sharing the store) was
  // checked against state that is gone: refused, with a status that says why.
  const pooled = new Map([...(await tx.pooled()), ...waiting].map((row) => [row.hash, row]));
  for (const row of pooled.values()) {
    const reverted = revertedRecord(recordOutsideBlock(row, { status: 'Invalid', isCompleted: true, isError: true, error: null, fee: '0', feePayer: row.reservedBy ?? row.signer }));
    await tx.put('extrinsics', reverted);
    records.push(reverted);
    if (await tx.get('pool', row.hash)) await tx.delete('pool', row.hash);
  }
  await tx.history.delete({ after: block });
  await dropSnapshotsAfter(tx, block);
  return { head: target, records };
}
