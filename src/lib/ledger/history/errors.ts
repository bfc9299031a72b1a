// Why a read at a block, a revert or a block's changes cannot be answered.

export type HistoryErrorKind =
  /** No such block (a hash this ledger never made, or a block reverted away). */
  | 'unknown'
  /** The block is older than the kept history (`--history`), or than this ledger's upgrade. */
  | 'pruned'
  /** No such snapshot (never taken, or its block was reverted away). */
  | 'unknown-snapshot';

export class HistoryError extends Error {
  override readonly name = 'HistoryError';
  constructor(
    readonly kind: HistoryErrorKind,
    message: string
  ) {
    super(message);
  }
}
