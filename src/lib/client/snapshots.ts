// Snapshots, revert and history retention of an Opalite ledger (its `/dev` routes): take a
// snapshot of the head, list them, make an earlier block the head again, and choose how many
// blocks of state history the ledger keeps. Answers are checked before the app uses them.
import type { RestClient } from './client';
import type { ExplorerBlock, HistoryRetention, LedgerSnapshot } from './types';
import { wireReader } from './wire';

function snapshotFrom(r: ReturnType<typeof wireReader>, value: unknown, field: string): LedgerSnapshot {
  const s = r.record(value, field);
  const snapshot: LedgerSnapshot = {
    // An id is what the service named it: kept as text, whatever it looks like.
    snapshotId: typeof s.snapshotId === 'number' ? String(s.snapshotId) : r.text(s.snapshotId, `${field}.snapshotId`),
    blockNumber: r.count(s.blockNumber, `${field}.blockNumber`),
    blockHash: r.hash(s.blockHash, `${field}.blockHash`)
  };
  if (s.createdAt !== undefined) snapshot.createdAt = r.count(s.createdAt, `${field}.createdAt`);
  return snapshot;
}

function retentionFrom(r: ReturnType<typeof wireReader>, value: unknown, field: string): HistoryRetention {
  const h = r.record(value, field);
  return { keepBlocks: h.keepBlocks === null ? null : r.count(h.keepBlocks, `${field}.keepBlocks`), start: r.count(h.start, `${field}.start`) };
}

/** `POST /dev/snapshot` */
export function parseSnapshot(json: unknown): LedgerSnapshot {
  return snapshotFrom(wireReader('/dev/snapshot'), json, 'the answer');
}

/** `GET /dev/snapshots`: oldest first, as the service keeps them. */
export function parseSnapshots(json: unknown): LedgerSnapshot[] {
  const r = wireReader('/dev/snapshots');
  return r.list(r.record(json, 'the answer').snapshots, 'snapshots').map((s, i) => snapshotFrom(r, s, `snapshots[${i}]`));
}

/** `POST /dev/revert`: the head now. */
export function parseRevert(json: unknown): { blockNumber: number; blockHash: string } {
  const r = wireReader('/dev/revert');
  const answer = r.record(json, 'the answer');
  return { blockNumber: r.count(answer.blockNumber, 'blockNumber'), blockHash: r.hash(answer.blockHash, 'blockHash') };
}

/** `POST /dev/history` */
export function parseHistorySetting(json: unknown): HistoryRetention {
  const r = wireReader('/dev/history');
  return retentionFrom(r, r.record(json, 'the answer').history, 'history');
}

/** `GET /dev/status`'s history; null for a ledger that keeps none (an Opalite of before history). */
export function parseStatusHistory(json: unknown): HistoryRetention | null {
  const r = wireReader('/dev/status');
  const answer = r.record(json, 'the answer');
  return answer.history === undefined ? null : retentionFrom(r, answer.history, 'history');
}

export async function takeSnapshot(client: RestClient): Promise<LedgerSnapshot> {
  return parseSnapshot(await client.request('POST', '/dev/snapshot', { body: {} }));
}

export async function listSnapshots(client: RestClient): Promise<LedgerSnapshot[]> {
  return parseSnapshots(await client.get('/dev/snapshots'));
}

/** Make the snapshot's block (or the named block) the head again; answers the new head. */
export async function revertTo(client: RestClient, target: { snapshotId: string } | { blockHash: string }): Promise<{ blockNumber: number; blockHash: string }> {
  return parseRevert(await client.request('POST', '/dev/revert', { body: target }));
}

/** Keep the last `keepBlocks` blocks of state history from the next block on (null: every block). */
export async function setHistoryRetention(client: RestClient, keepBlocks: number | null): Promise<HistoryRetention> {
  return parseHistorySetting(await client.request('POST', '/dev/history', { body: { keepBlocks } }));
}

export async function historyRetention(client: RestClient): Promise<HistoryRetention | null> {
  return parseStatusHistory(await client.get('/dev/status'));
}

/** What a revert to block `target` removes: its later blocks and the extrinsics in them. */
export interface RevertLoss {
  blocks: number;
  extrinsics: number;
  /** Only some of the removed blocks were read: there may be more extrinsics. */
  extrinsicsAtLeast: boolean;
}

/** The loss of reverting from `head` to `target`, counted in `read` (blocks read from the head down). */
export function revertLoss(target: number, head: number, read: readonly ExplorerBlock[]): RevertLoss {
  const removed = read.filter((b) => b.number > target && b.number <= head);
  const blocks = Math.max(0, head - target);
  return { blocks, extrinsics: removed.reduce((sum, b) => sum + b.extrinsics.length, 0), extrinsicsAtLeast: removed.length < blocks };
}
