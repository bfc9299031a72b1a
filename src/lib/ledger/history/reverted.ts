// What a stored extrinsic status means after a revert: revert leaves the records of the blocks it
// removes as they are (thousands of rows), and their status is derived where it is read.
import type { QueryTx } from '../store';
import type { BlockRecord, ExtrinsicRecord } from '../types';

/** The status an extrinsic of a reverted block, or one waiting when the revert ran, answers from now on: no fee stands. */
export function revertedRecord(record: ExtrinsicRecord): ExtrinsicRecord {
  const message =
    record.blockNumber === null
      ? 'Reverted: the ledger was reverted while this extrinsic waited for a block; it was never included'
      : `Reverted: the ledger was reverted to a block before block ${record.blockNumber}, which included this extrinsic; its fee and changes are undone`;
  return {
    ...record,
    fee: '0',
    status: 'Invalid',
    isCompleted: true,
    isError: true,
    blockNumber: null,
    blockHash: null,
    blockIndex: null,
    events: [],
    error: { section: 'system', name: 'Reverted', message }
  };
}

/**
 * A stored status as it stands now: an extrinsic whose block is no longer the ledger's (reverted
 * away, or its number now names another block) answers Invalid / Reverted. Revert does not rewrite
 * the records of the blocks it removes (thousands of rows); their status is derived here, where it
 * is read. `block` is the stored block of the record's number, when the caller has read it.
 */
export async function currentRecord(tx: QueryTx, record: ExtrinsicRecord, block?: BlockRecord | null): Promise<ExtrinsicRecord> {
  if (record.blockNumber === null) return record;
  const stored = block === undefined ? await tx.get('blocks', record.blockNumber) : block ?? undefined;
  return stored && stored.hash === record.blockHash ? record : revertedRecord(record);
}

/**
 * Whether a stored record no longer stands: its block was reverted away, or the revert refused it
 * while it waited. Such an extrinsic may be submitted again, as after Anvil's revert.
 */
export async function wasReverted(tx: QueryTx, record: ExtrinsicRecord): Promise<boolean> {
  const now = await currentRecord(tx, record);
  return now.status === 'Invalid' && now.error?.name === 'Reverted';
}
