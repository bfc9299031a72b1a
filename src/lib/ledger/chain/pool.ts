// The waiting pool: extrinsics that passed their checks and wait for a block. Each is a `pool`
// row of the store (so a hash answered at submit keeps its status across restarts), indexed here
// by hash and by signer. Bounded in total, shared fairly (pool-limits.ts: a guaranteed share per
// account, more only while the pool is less than half full) and, per account, by what it can pay.
//
// In instant mode the row is deferred (`deferRow`): the block that seals the entry is its first
// write (one transaction, one disk sync), and its submitter hears only once that block is durable.
// Should that block fail, or blocks stop being instant, the row is written on its own
// (`storeDeferred`); if even that fails the entry leaves the pool and its submitter, never
// answered, is refused. On a shared store other contexts do not see a deferred entry until its
// block: the block re-checks nonce and hash inside its transaction (decision 0006).
import { loadAccount } from '../balances';
import type { QueryTx } from '../store';
import type { Address, Call, ExtrinsicRecord, PoolRecord } from '../types';
import type { InclusionResult } from './block';
import type { BlockMode } from './config';
import { TransactionError } from './errors';
import { DEFAULT_POOL_LIMITS, retryAfterSeconds, roomFor, type PoolLimits } from './pool-limits';
import { chooseFeePayer } from './sponsorship';
import type { RuleSet } from '../rules';
import { wasReverted } from '../history/reverted';

/** A pool row and what this process knows about it. */
export interface Waiting extends PoolRecord {
  /** The row is committed to the store; only committed (or deferred) entries are sealed. */
  committed: boolean;
  /** No row of its own: the block sealing it is its first write (see the module comment). */
  rowDeferred?: boolean;
  /** Told once the entry is durable (its block or its row committed), or with why it never will be. */
  durable?: (error?: unknown) => void;
  /** In a block being written now. */
  sealing: boolean;
  /** Blocks that failed to be written while this was in them. */
  failedBlocks: number;
  /**
   * The submitter in this process waiting for the outcome (none after a restart). Settled once:
   * with the block's outcome, or early with a StorageFullError while the disk is full.
   */
  settle?: (result: InclusionResult | { rejected: Error }) => void;
}

/** A verified extrinsic asking to wait in the pool. */
export interface Candidate {
  hash: string;
  signer: Address;
  nonce: number;
  call: Call;
  fee: bigint;
}

/** Runs `fn` in one store write transaction, after every write queued before it. */
export type WriteFn = <T>(fn: (tx: QueryTx) => Promise<T>) => Promise<T>;

function rowOf(entry: Waiting): PoolRecord {
  const { committed: _c, sealing: _s, failedBlocks: _f, settle: _settle, rowDeferred: _d, durable: _durable, ...row } = entry;
  return row;
}

export class TransactionPool {
  private readonly byHash = new Map<string, Waiting>();
  private readonly bySigner = new Map<Address, Map<number, Waiting>>();
  /** Fees of waiting entries per account they are counted on (signer or sponsor). */
  private readonly reserved = new Map<Address, bigint>();
  private queued: { row: PoolRecord; done: (error?: unknown) => void }[] = [];
  private flushing = false;

  /**
   * `shared`: other contexts add rows to the same store, so nonce, duplicate and room checks also
   * read the stored pool rather than this index alone. `limits` are resolved (resolvePoolLimits);
   * `blockMode` says when the next block comes, for the retry time of a refusal.
   */
  constructor(
    private readonly write: WriteFn,
    private readonly shared: boolean,
    private readonly limits: PoolLimits = DEFAULT_POOL_LIMITS,
    private readonly blockMode: () => BlockMode = () => ({ kind: 'instant' })
  ) {}

  get size(): number {
    return this.byHash.size;
  }

  get(hash: string): Waiting | undefined {
    return this.byHash.get(hash);
  }

  /** Rows found in the store at open: committed, with nobody in this process waiting on them. */
  load(rows: PoolRecord[]): void {
    for (const row of rows) if (!this.byHash.has(row.hash)) this.index({ ...row, committed: true, sealing: false, failedBlocks: 0 });
  }

  /** The next nonce of `signer`: its account nonce, then every nonce waiting right after it. */
  nextNonce(signer: Address, accountNonce: number, stored: Set<number> = new Set()): number {
    const mine = this.bySigner.get(signer);
    let next = accountNonce;
    while (mine?.has(next) || stored.has(next)) next++;
    return next;
  }

  /** Nonces of `signer` waiting in rows other contexts added (shared stores only). */
  async storedNonces(tx: QueryTx, signer: Address): Promise<Set<number>> {
    return new Set((await this.othersRows(tx)).filter((r) => r.signer === signer).map((r) => r.nonce));
  }

  /**
   * Every check a candidate must pass to wait here (inside the signer's serial section, so no
   * other admission of the same signer interleaves). Returns the account its fee is counted on.
   */
  async check(tx: QueryTx, candidate: Candidate, blockNumber: number, rules: RuleSet): Promise<Address> {
    const { hash, signer, nonce, fee } = candidate;
    const alreadyWaiting = () => new TransactionError('Invalid', `Transaction Already Imported: ${hash} is already waiting for a block`);
    // A replay of what waits here is refused before any read.
    if (this.byHash.has(hash)) throw alreadyWaiting();
    // Every stored row is in this index (loaded at open) or, on a shared store, among `others`.
    const [others, included, account] = await Promise.all([this.othersRows(tx), tx.get('extrinsics', hash), loadAccount(tx, signer)]);
    if (others.some((r) => r.hash === hash)) throw alreadyWaiting();
    // Once, unless a revert undid it (its block is gone, or it was refused while it waited).
    if (included && !(await wasReverted(tx, included))) {
      throw new TransactionError('Invalid', `Transaction Already Imported: ${hash} was already included (or refused); an extrinsic is accepted once`);
    }
    if (nonce < account.nonce) throw new TransactionError('Invalid', `Transaction is outdated: nonce ${nonce} was already used (next nonce is ${account.nonce})`);
    const stored = new Set(others.filter((r) => r.signer === signer).map((r) => r.nonce));
    if (this.bySigner.get(signer)?.has(nonce) || stored.has(nonce)) {
      throw new TransactionError('Invalid', `A transaction of ${signer} with nonce ${nonce} is already waiting for a block`);
    }
    const next = this.nextNonce(signer, account.nonce, stored);
    if (nonce > next) throw new TransactionError('Invalid', `Transaction nonce ${nonce} is ahead of the next nonce ${next}: no gaps are allowed`, { reason: 'Future' });
    this.checkRoom(signer, { total: this.byHash.size + others.length, ofSigner: (this.bySigner.get(signer)?.size ?? 0) + stored.size });
    const reserved = this.reservedOn(signer);
    if (account.free >= reserved + fee) return signer;
    const payer = await chooseFeePayer(tx, candidate.call, signer, fee, blockNumber, rules);
    if (payer.payer !== signer) {
      const sponsor = await loadAccount(tx, payer.payer);
      if (sponsor.free >= this.reservedOn(payer.payer) + fee) return payer.payer;
    }
    throw new TransactionError('Invalid', 'Inability to pay some fees (e.g. account balance too low): the fees of this account’s waiting extrinsics plus this one exceed its balance', {
      fee: fee.toString(),
      balance: account.free.toString(),
      waitingFees: reserved.toString()
    });
  }

  /** Index an admitted entry (not yet committed: it is not sealed until `persist` resolves). */
  add(entry: Waiting): void {
    this.index(entry);
  }

  /**
   * Write the entry's row; admissions queued together share one store transaction. Resolves
   * once committed; on failure the entry leaves the pool and the error is thrown.
   */
  async persist(entry: Waiting): Promise<void> {
    try {
      await new Promise<void>((resolve, reject) => {
        this.queued.push({ row: rowOf(entry), done: (error) => (error === undefined ? resolve() : reject(error)) });
        if (!this.flushing) {
          this.flushing = true;
          queueMicrotask(() => void this.flush());
        }
      });
      entry.committed = true;
    } catch (e) {
      this.remove(entry.hash);
      throw e;
    }
  }

  /**
   * Instant mode: write no row now; the entry is sealable at once and its row goes with its block.
   * Resolves once the entry is durable (its block, or `storeDeferred`).
   */
  deferRow(entry: Waiting): Promise<void> {
    entry.rowDeferred = true;
    return new Promise<void>((resolve, reject) => {
      entry.durable = (error) => (error === undefined ? resolve() : reject(error));
    });
  }

  /**
   * Write the rows of deferred entries (their block failed, or blocks are no longer instant), each
   * in a transaction of its own so one failure refuses one submitter: each entry is then durable
   * as waiting, or leaves the pool refused. `stored` hears of each stored one.
   */
  storeDeferred(entries: Waiting[] = [...this.byHash.values()].filter((e) => e.rowDeferred && !e.sealing), stored?: (entry: Waiting) => void): void {
    for (const entry of entries) {
      if (!entry.rowDeferred) continue;
      entry.rowDeferred = false; // not sealable again until its row is committed
      const row = rowOf(entry);
      this.write(async (tx) => {
        await tx.put('pool', row);
      }).then(
        () => {
          entry.committed = true;
          entry.durable?.();
          stored?.(entry);
        },
        (error: unknown) => {
          this.remove(entry.hash);
          entry.durable?.(error ?? new Error('The pool could not be written'));
        }
      );
    }
  }

  /** The next batch to seal: every committed or deferred entry; an entry that was in a failed block goes alone. */
  takeSealable(): Waiting[] {
    const ready = [...this.byHash.values()].filter(sealable);
    const suspect = ready.find((e) => e.failedBlocks > 0);
    // Alone, but in nonce order: the signer's lowest waiting nonce goes first, or the rest would
    // be refused for a gap (after a restart the pool comes back in the store's order, not nonces').
    const batch = suspect ? [lowestNonceOf(ready, suspect)] : ready;
    for (const e of batch) e.sealing = true;
    return batch;
  }

  /** Sealable entries are waiting. */
  get hasSealable(): boolean {
    for (const e of this.byHash.values()) if (sealable(e)) return true;
    return false;
  }

  /**
   * The block with `batch` was not written: they wait again. A full disk is no fault of theirs, so
   * it does not count towards dropping them (`blame: false`).
   */
  release(batch: Waiting[], { blame = true }: { blame?: boolean } = {}): void {
    for (const e of batch) {
      e.sealing = false;
      if (blame) e.failedBlocks++;
    }
  }

  remove(hash: string): Waiting | undefined {
    const entry = this.byHash.get(hash);
    if (!entry) return undefined;
    this.byHash.delete(hash);
    const mine = this.bySigner.get(entry.signer);
    if (mine?.get(entry.nonce) === entry) mine.delete(entry.nonce);
    if (mine?.size === 0) this.bySigner.delete(entry.signer);
    const payer = entry.reservedBy ?? entry.signer;
    const left = this.reservedOn(payer) - entry.fee;
    if (left > 0n) this.reserved.set(payer, left);
    else this.reserved.delete(payer);
    return entry;
  }

  /** Every waiting entry, in arrival order (a copy). */
  entries(): Waiting[] {
    return [...this.byHash.values()];
  }

  /** Every entry, for settling them all when this ledger closes. */
  drain(): Waiting[] {
    const all = [...this.byHash.values()];
    this.byHash.clear();
    this.bySigner.clear();
    this.reserved.clear();
    return all;
  }

  /** The status record of a waiting extrinsic ('Ready'). */
  statusOf(hash: string): ExtrinsicRecord | undefined {
    const entry = this.byHash.get(hash);
    return entry ? readyRecord(entry) : undefined;
  }

  /** Refuse (429 with a retry time) when the pool has no room for one more of `signer` now. */
  private checkRoom(signer: Address, waiting: { total: number; ofSigner: number }): void {
    const refusal = roomFor(this.limits, waiting);
    if (!refusal) return;
    const { size, perAccount } = this.limits;
    const retryAfter = retryAfterSeconds(this.blockMode());
    const fill = `${waiting.total} of ${size} waiting`;
    if (refusal === 'full') {
      throw new TransactionError('PoolBusy', `The transaction pool is full (${fill}); try again after the next block`, {
        reason: 'PoolFull',
        poolWaiting: waiting.total,
        poolSize: size,
        retryAfter
      });
    }
    throw new TransactionError(
      'PoolBusy',
      `Too many extrinsics of ${signer} waiting: it has ${waiting.ofSigner}, its guaranteed share of the pool is ${perAccount}, ` +
        `and beyond its share an account waits only while the pool is less than half full (${fill}); try again after the next block`,
      { reason: 'PoolShareExceeded', waiting: waiting.ofSigner, share: perAccount, poolWaiting: waiting.total, poolSize: size, retryAfter }
    );
  }

  /** Rows other contexts added to a shared store (none where this pool is the store's only writer). */
  private async othersRows(tx: QueryTx): Promise<PoolRecord[]> {
    if (!this.shared) return [];
    return (await tx.pooled()).filter((r) => !this.byHash.has(r.hash));
  }

  private reservedOn(account: Address): bigint {
    return this.reserved.get(account) ?? 0n;
  }

  private index(entry: Waiting): void {
    this.byHash.set(entry.hash, entry);
    let mine = this.bySigner.get(entry.signer);
    if (!mine) this.bySigner.set(entry.signer, (mine = new Map()));
    mine.set(entry.nonce, entry);
    const payer = entry.reservedBy ?? entry.signer;
    this.reserved.set(payer, this.reservedOn(payer) + entry.fee);
  }

  /** Group commit: everything queued while the previous write ran goes into the next one. */
  private async flush(): Promise<void> {
    while (this.queued.length > 0) {
      const batch = this.queued;
      this.queued = [];
      try {
        await this.write(async (tx) => {
          for (const { row } of batch) await tx.put('pool', row);
        });
        for (const { done } of batch) done();
      } catch (e) {
        for (const { done } of batch) done(e ?? new Error('The pool could not be written'));
      }
    }
    this.flushing = false;
  }
}

function lowestNonceOf(ready: Waiting[], of: Waiting): Waiting {
  let lowest = of;
  for (const e of ready) if (e.signer === of.signer && e.nonce < lowest.nonce) lowest = e;
  return lowest;
}

function sealable(e: Waiting): boolean {
  return (e.committed || e.rowDeferred === true) && !e.sealing;
}

/** The status record of a pool row in no block: `Ready` while it waits, `Invalid` once refused. */
export function recordOutsideBlock(
  row: PoolRecord,
  outcome: Pick<ExtrinsicRecord, 'status' | 'isCompleted' | 'isError' | 'error' | 'fee' | 'feePayer'>
): ExtrinsicRecord {
  const [section, method] = row.call.name.split('.');
  return {
    hash: row.hash,
    signer: row.signer,
    nonce: row.nonce,
    callMethod: { section, method },
    call: row.call,
    ...outcome,
    blockNumber: null,
    blockHash: null,
    blockIndex: null,
    events: [],
    createdAt: row.createdAt,
    ...(row.callbackUrl ? { callbackUrl: row.callbackUrl } : {}),
    ...(row.impersonated ? { impersonated: true as const } : {})
  };
}

/** The status a waiting extrinsic answers once its ledger was closed or replaced under it: Invalid, Dropped, no fee. */
export function droppedRecord(entry: Waiting, message: string): ExtrinsicRecord {
  const row = rowOf(entry);
  return recordOutsideBlock(row, { status: 'Invalid', isCompleted: true, isError: true, error: { section: 'system', name: 'Dropped', message }, fee: '0', feePayer: row.reservedBy ?? row.signer });
}

/** A stored pool row as a status record. */
export function readyRecord(row: PoolRecord): ExtrinsicRecord {
  return recordOutsideBlock(row, { status: 'Ready', isCompleted: false, isError: false, error: null, fee: row.fee.toString(), feePayer: row.reservedBy ?? row.signer });
}
