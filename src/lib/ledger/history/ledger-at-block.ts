// Reads of the state as of an earlier block, through the same interface as the head's reads
// (LedgerReads), so every REST read answers `at=<blockHash>` as it answered when that block was
// the head. Each read checks, in its own transaction, that the block is still there and still
// inside the kept history (a revert or the pruning of a later block may have removed it since).
import { loadAccount } from '../balances';
import type { Head } from '../chain/block';
import type { BlockMode, ChainConfig } from '../chain/config';
import type { LedgerReads } from '../chain/reads';
import { canonicalAccount } from '../chain/signature-check';
import type { RuleSet } from '../rules';
import type { QueryTx, Store } from '../store';
import type { Address } from '../types';
import { StateAtBlock } from './at-block';
import { HistoryError } from './errors';

/** Whether `block` (its number and hash) can be read in `tx`; throws HistoryError when not. */
export async function checkReadable(tx: QueryTx, block: Head): Promise<void> {
  // Both lookups at once: in IndexedDB each is a request of its own.
  const [stored, start] = await Promise.all([tx.get('blocks', block.number), tx.history.start()]);
  if (!stored || stored.hash !== block.hash) throw new HistoryError('unknown', `Block ${block.hash} is not a block of this ledger (it may have been reverted away)`);
  if (block.number < start) {
    throw new HistoryError('pruned', `The state at block ${block.number} is no longer kept: history starts at block ${start} (see --history)`);
  }
}

/** Answers at earlier blocks remembered at most; dropped whole past this. */
const MEMO_AT_BLOCK_LIMIT = 10_000;

export class LedgerAtBlock implements LedgerReads {
  constructor(
    private readonly store: Store,
    readonly block: Head,
    readonly config: ChainConfig,
    readonly rules: RuleSet,
    readonly blockMode: BlockMode,
    /** Answers remembered by block hash and key, kept by the ledger across requests (none: nothing is remembered). */
    private readonly memoised?: Map<string, Promise<unknown>>
  ) {}

  read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    return this.store.read(async (tx) => {
      // The check and the read run together (one round trip in IndexedDB); the check decides.
      const [check, result] = await Promise.allSettled([checkReadable(tx, this.block), fn(new StateAtBlock(tx, this.block.number))]);
      if (check.status === 'rejected') throw check.reason;
      if (result.status === 'rejected') throw result.reason;
      return result.value;
    });
  }

  /**
   * The state at a block never changes while the block is readable: a remembered answer is given
   * once the block is checked again (a revert or pruning may have taken it away since).
   */
  async memo<R, T>(key: string, reads: (tx: QueryTx) => Promise<R>, answer: (read: R) => T | Promise<T>): Promise<T> {
    const id = `${this.block.hash}:${key}`;
    const kept = this.memoised?.get(id);
    if (kept) {
      await this.store.read((tx) => checkReadable(tx, this.block));
      return kept as Promise<T>;
    }
    const value = Promise.resolve(answer(await this.read(reads)));
    if (this.memoised) {
      if (this.memoised.size >= MEMO_AT_BLOCK_LIMIT) this.memoised.clear();
      this.memoised.set(id, value);
      value.catch(() => this.memoised?.delete(id));
    }
    return value;
  }

  async head(): Promise<Head> {
    return this.block;
  }

  /** The nonce the account had at the block (nothing waited in a pool then, as far as state says). */
  nextNonce(address: Address, tx?: QueryTx): Promise<number> {
    const signer = canonicalAccount(address);
    const read = async (t: QueryTx) => (await loadAccount(t, signer)).nonce;
    return tx ? read(tx) : this.read(read);
  }
}
