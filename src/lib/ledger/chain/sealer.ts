// Sealing blocks: takes what waits in the pool, writes one block in one store transaction (which
// also deletes the included rows and records every refusal), and schedules the next one in
// instant and interval modes.
//
// Instant mode gathers: while admissions are still being checked (signatures verify off the
// event loop) the next block waits at most GATHER_MS, and (the store's sole writer) right after a
// block that held several extrinsics (a stream of concurrent submitters) it waits STREAM_GATHER_MS,
// so extrinsics arriving together share one block and one disk sync instead of taking one each. A submitter arriving
// alone after a quiet moment (sequential use) is not kept waiting.
//
// A block that cannot be written leaves nothing behind (the store rolls the transaction back):
// its extrinsics stay waiting (status Ready; an entry whose row was deferred to this block gets
// its row written now, or is refused if even that fails) and are retried, each on its own, after
// a short backoff. One that was in MAX_FAILED_BLOCKS failed blocks is dropped: written as an 'Invalid'
// record (system.BlockWriteFailed) in a block of its own. Errors are logged, never thrown out of
// a timer, so the ledger keeps producing.
import type { RuleSet } from '../rules';
import type { QueryTx, StateTx } from '../store';
import type { BlockRecord, ExtrinsicRecord, PoolRecord } from '../types';
import { produceBlock, type InclusionResult } from './block';
import { KEEP_ALL_HISTORY, keepHistory, type HistoryPolicy } from '../history/record';
import { wasReverted } from '../history/reverted';
import type { BlockMode } from './config';
import { TransactionError } from './errors';
import { recordOutsideBlock, type TransactionPool, type Waiting, type WriteFn } from './pool';

/** Failed blocks an extrinsic may be in before it is dropped with a status. */
export const MAX_FAILED_BLOCKS = 3;
const RETRY_MS = 25;
/** Instant mode: how long a block may wait for admissions still in flight. */
export const GATHER_MS = 4;
/**
 * Instant mode, within this long after a block of several extrinsics: how long the next block
 * waits. Clients of a REST service build, sign, submit and ask for the status in turn, so their
 * submits arrive spread over the round trips; at 4 ms a block held about 6 of 16 in flight over
 * HTTP, at 16 ms about 10 (npm run bench, N1), each block's write costing its extrinsics less.
 */
export const STREAM_GATHER_MS = 16;
const MAX_RETRY_MS = 2_000;

export interface Sealed {
  block: BlockRecord;
  /** Outcome per extrinsic of the batch (included, or refused with its Invalid record). */
  outcomes: Map<string, InclusionResult>;
  /** Every status record the block wrote (included and refused). */
  records: ExtrinsicRecord[];
}

/** A status record for an extrinsic refused at inclusion or dropped: final, never in a block. */
export function invalidRecord(row: PoolRecord, name: string, message: string): ExtrinsicRecord {
  return recordOutsideBlock(row, { status: 'Invalid', isCompleted: true, isError: true, error: { section: 'system', name, message }, fee: '0', feePayer: row.signer });
}

/** The store's full-disk error, recognised by name (the ledger knows no storage adapter). */
function isStorageFull(error: unknown): boolean {
  return error instanceof Error && error.name === 'StorageFullError';
}

/** The store's file is locked by another program, or its disk failed: no fault of the extrinsics being written. */
function isStoreFault(error: unknown): boolean {
  return error instanceof Error && (error.name === 'StoreBusyError' || error.name === 'StorageIoError');
}

/** A waiting submitter's answer when a full disk keeps its block from being written. */
function storageFullFor(hash: string, cause: Error): Error {
  const error = new Error(
    `The disk holding the ledger is full, so no block could be written. Extrinsic ${hash} is stored and keeps waiting (status Ready); ` +
      'it goes into the first block written once space is freed.',
    { cause }
  );
  error.name = 'StorageFullError';
  return error;
}

/** What a stored record means to a submitter still waiting on it. */
function outcomeOf(record: ExtrinsicRecord | undefined): InclusionResult {
  if (record && record.status !== 'Invalid') return { included: record };
  const message = record?.error?.message ?? 'Transaction was dropped: it left the pool without being included';
  return { rejected: new TransactionError('Invalid', message, { reason: record?.error?.name ?? 'Dropped' }) };
}

/** Write the next block from `batch` inside `tx`; see the module comment for what else it writes. */
export async function sealBatch(
  tx: QueryTx,
  batch: Waiting[],
  rules: RuleSet,
  now: number,
  history: HistoryPolicy = KEEP_ALL_HISTORY,
  headChange?: (state: StateTx) => Promise<void>,
  /** Other contexts write to the store (browser tabs and the worker). */
  shared = false
): Promise<Sealed> {
  const outcomes = new Map<string, InclusionResult>();
  const records: ExtrinsicRecord[] = [];
  const live: Waiting[] = [];
  // What the store holds of each entry, read in one round (not one round trip per entry).
  const found = await Promise.all(batch.map((entry) => (entry.rowDeferred ? (shared ? tx.get('extrinsics', entry.hash) : undefined) : tx.get('pool', entry.hash))));
  for (const [i, entry] of batch.entries()) {
    if (entry.rowDeferred) {
      // No row of its own; on a shared store another context may have admitted the same extrinsic
      // and sealed it already: its record is reported, never written over.
      const stored = found[i] as ExtrinsicRecord | undefined;
      if (stored && !(await wasReverted(tx, stored))) outcomes.set(entry.hash, outcomeOf(stored));
      else live.push(entry);
    } else if (!found[i]) {
      // Another context sharing the store sealed (or dropped) it already: report what it wrote.
      outcomes.set(entry.hash, outcomeOf(await tx.get('extrinsics', entry.hash)));
    } else live.push(entry);
  }
  const dropped = live.filter((e) => e.failedBlocks >= MAX_FAILED_BLOCKS);
  const candidates = live.filter((e) => e.failedBlocks < MAX_FAILED_BLOCKS);
  const { block, results, changes } = await produceBlock(tx, candidates, rules, now, headChange);
  await keepHistory(tx, block.number, changes, history);
  for (const entry of live) if (!entry.rowDeferred) await tx.delete('pool', entry.hash);
  for (const entry of candidates) {
    const result = results.get(entry.hash) ?? { rejected: new TransactionError('Invalid', 'Transaction was dropped', { reason: 'Dropped' }) };
    if ('included' in result) {
      records.push(result.included);
    } else {
      const record = invalidRecord(entry, String(result.rejected.details?.reason ?? 'Invalid'), result.rejected.message);
      await tx.put('extrinsics', record);
      records.push(record);
    }
    outcomes.set(entry.hash, result);
  }
  for (const entry of dropped) {
    const message = `Transaction was dropped: ${MAX_FAILED_BLOCKS} blocks holding it could not be written`;
    const record = invalidRecord(entry, 'BlockWriteFailed', message);
    await tx.put('extrinsics', record);
    records.push(record);
    outcomes.set(entry.hash, { rejected: new TransactionError('Invalid', message, { reason: 'BlockWriteFailed' }) });
  }
  return { block, outcomes, records };
}

export interface SealerOptions {
  pool: TransactionPool;
  write: WriteFn;
  rules: RuleSet;
  /** How many blocks of state history to keep (default all). */
  history?: HistoryPolicy;
  now: () => number;
  /** After a block is durable, before any submitter hears of it. */
  committed: (sealed: Sealed) => void;
  /** Admissions under way (being checked, not yet in the pool): instant blocks wait for them a little. */
  admitting?: () => number;
  /** Other contexts write to the store: a deferred entry may have been sealed by one of them. */
  shared?: boolean;
  log: (message: string, error: unknown) => void;
}

export class Sealer {
  private producing: Promise<unknown> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private gather: ReturnType<typeof setTimeout> | null = null;
  /** The gathering wait ran out: the next instant block starts whatever is still in flight. */
  private gathered = false;
  /** When the last block was written (performance.now()) and how many extrinsics it held. */
  private last = { at: -Infinity, size: 0 };
  private failures = 0;
  private mode: BlockMode = { kind: 'manual' };
  private closed = false;

  constructor(private readonly options: SealerOptions) {}

  /** The retention of the blocks sealed from now on. */
  setHistory(history: HistoryPolicy): void {
    this.options.history = history;
  }

  setMode(mode: BlockMode): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.mode = mode;
    if (this.closed) return;
    if (mode.kind === 'interval') this.timer = setInterval(() => void this.sealQuietly(), mode.ms);
    if (mode.kind === 'instant') this.schedule();
  }

  /**
   * Instant mode: start a block if idle and something waits, once no admission is in flight (or
   * GATHER_MS after the first call found some; STREAM_GATHER_MS in a stream); what arrives
   * meanwhile goes in the next.
   */
  schedule(): void {
    if (this.closed || this.mode.kind !== 'instant' || this.producing || this.retry || !this.options.pool.hasSealable) return;
    const stream = this.concurrent();
    if (!this.gathered && ((this.options.admitting?.() ?? 0) > 0 || stream)) {
      this.gather ??= setTimeout(() => {
        this.gather = null;
        this.gathered = true;
        this.schedule();
      }, stream ? STREAM_GATHER_MS : GATHER_MS);
      return;
    }
    void this.sealQuietly();
  }

  /** Put everything waiting into one new block now. Throws if the block could not be written. */
  sealBlock(): Promise<BlockRecord | null> {
    return this.exclusive(() => this.sealOnce());
  }

  /** A new block holding only `change`, the block's own (a dev tool's); what waits stays waiting. */
  sealChange(change: (state: StateTx) => Promise<void>): Promise<BlockRecord | null> {
    return this.exclusive(() => this.sealOnce(change));
  }

  /**
   * Run `work` (a block, a revert, a snapshot) while no other is running: it waits for the one in
   * progress, and no block starts until it is done.
   */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (this.producing) await this.producing.catch(() => {});
    this.stopGathering(); // a block now takes what the gathering wait was gathering
    const run = work();
    this.producing = run;
    try {
      return await run;
    } finally {
      if (this.producing === run) this.producing = null;
      this.schedule();
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.retry) clearTimeout(this.retry);
    this.stopGathering();
    this.timer = null;
    this.retry = null;
  }

  /**
   * The last block held several extrinsics and was written moments ago: more are likely on their
   * way. Not on a shared store (a browser's): there a block's own round trips gather as many, and
   * the wait only delayed each submit (B2 in one loaded run: 67% → 76% of the baseline worker;
   * decision 0006).
   */
  private concurrent(): boolean {
    return !this.options.shared && this.last.size > 1 && performance.now() - this.last.at < STREAM_GATHER_MS;
  }

  private stopGathering(): void {
    if (this.gather) clearTimeout(this.gather);
    this.gather = null;
    this.gathered = false;
  }

  /** Timer and instant sealing: a failure is logged and retried after a backoff, never thrown. */
  private async sealQuietly(): Promise<void> {
    if (this.producing) return;
    try {
      await this.sealBlock();
      this.failures = 0;
    } catch (e) {
      this.options.log('Opalite: a block could not be written; its extrinsics wait for the next one', e);
      this.failures++;
      if (this.closed || this.retry) return;
      const delay = Math.min(MAX_RETRY_MS, RETRY_MS * 2 ** (this.failures - 1));
      this.retry = setTimeout(() => {
        this.retry = null;
        if (this.mode.kind === 'instant') this.schedule();
      }, delay);
    }
  }

  private async sealOnce(headChange?: (state: StateTx) => Promise<void>): Promise<BlockRecord | null> {
    const { pool, write, rules, now } = this.options;
    const batch = headChange ? [] : pool.takeSealable();
    let sealed: Sealed;
    try {
      sealed = await write((tx) => sealBatch(tx, batch, rules, now(), this.options.history, headChange, this.options.shared));
    } catch (e) {
      const diskFull = isStorageFull(e);
      pool.release(batch, { blame: !diskFull && !isStoreFault(e) });
      // Whoever waits for inclusion hears now (507), not when space is freed; the extrinsics stay
      // waiting in their stored pool rows and go into the first block that can be written.
      const tellDiskFull = (entry: Waiting) => diskFull && entry.settle?.({ rejected: storageFullFor(entry.hash, e as Error) });
      for (const entry of batch) if (entry.committed) tellDiskFull(entry);
      // Rows deferred to this block are written now (then told as above), or their submitters refused.
      // Once a row is committed it is sealable again: wake the sealer (its retry timer may have
      // fired before, finding nothing to seal).
      pool.storeDeferred(batch.filter((entry) => entry.rowDeferred), (entry) => {
        tellDiskFull(entry);
        this.schedule();
      });
      throw e;
    }
    for (const entry of batch) pool.remove(entry.hash);
    this.last = { at: performance.now(), size: batch.length };
    this.options.committed(sealed);
    for (const entry of batch) {
      entry.durable?.();
      entry.settle?.(sealed.outcomes.get(entry.hash) ?? outcomeOf(undefined));
    }
    return sealed.block;
  }
}
