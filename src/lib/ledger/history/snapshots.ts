// Snapshots: named blocks to revert to (Anvil's and Hardhat's evm_snapshot). A snapshot is the
// head when it was taken; it stays valid, and can be reverted to again and again, until its block
// is reverted away or pruned. Kept in one `meta` row written outside blocks, so no block's history
// (and no revert) moves it; revert drops the snapshots of blocks it removes.
import type { Head } from '../chain/block';
import { readMeta, writeMeta } from '../meta';
import type { QueryTx, StateTx } from '../store';
import { HistoryError } from './errors';

export interface Snapshot {
  snapshotId: string;
  blockNumber: number;
  blockHash: string;
  createdAt: number;
}

interface SnapshotBook {
  next: number;
  list: Snapshot[];
}

const KEY = 'snapshots';
/** Snapshots kept at most; the oldest is forgotten beyond this. */
export const MAX_SNAPSHOTS = 1000;

const book = (state: StateTx) => readMeta<SnapshotBook>(state, KEY, { next: 1, list: [] });

/** Take a snapshot of the head. */
export async function takeSnapshot(state: StateTx, now: number): Promise<Snapshot> {
  const { next, list } = await book(state);
  const head = await readMeta<Head>(state, 'head', { number: 0, hash: '' });
  const snapshot: Snapshot = { snapshotId: String(next), blockNumber: head.number, blockHash: head.hash, createdAt: now };
  await writeMeta(state, KEY, { next: next + 1, list: [...list, snapshot].slice(-MAX_SNAPSHOTS) });
  return snapshot;
}

/** The snapshots that can still be reverted to: none below the oldest block history keeps (pruned, or before an import). */
export async function listSnapshots(tx: QueryTx): Promise<Snapshot[]> {
  const [{ list }, start] = await Promise.all([book(tx), tx.history.start()]);
  return list.filter((s) => s.blockNumber >= start);
}

export async function findSnapshot(state: StateTx, snapshotId: string): Promise<Snapshot> {
  const found = (await book(state)).list.find((s) => s.snapshotId === snapshotId);
  if (!found) throw new HistoryError('unknown-snapshot', `There is no snapshot ${snapshotId} (never taken, or its block was reverted away)`);
  return found;
}

/** Forget the snapshots of blocks after `block` (they are gone). */
export async function dropSnapshotsAfter(state: StateTx, block: number): Promise<void> {
  const current = await book(state);
  const list = current.list.filter((s) => s.blockNumber <= block);
  if (list.length !== current.list.length) await writeMeta(state, KEY, { ...current, list });
}
