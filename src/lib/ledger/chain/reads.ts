// What a read of chain state needs of a ledger: the head's (the Ledger itself) or an earlier
// block's (history/ledger-at-block.ts). REST reads take this, so `at=<blockHash>` is one swap.
import type { RuleSet } from '../rules';
import type { QueryTx } from '../store';
import type { Address } from '../types';
import type { Head } from './block';
import type { BlockMode, ChainConfig } from './config';

export interface LedgerReads {
  readonly config: ChainConfig;
  readonly rules: RuleSet;
  readonly blockMode: BlockMode;
  /** One read transaction: one consistent state for everything `fn` reads. */
  read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T>;
  /** `answer` of what `reads` read in one transaction, remembered while that state is current (or read again). */
  memo<R, T>(key: string, reads: (tx: QueryTx) => Promise<R>, answer: (read: R) => T | Promise<T>): Promise<T>;
  /** The block the state is of (read in `tx` when given, so it agrees with the rows read there). */
  head(tx?: QueryTx): Promise<Head>;
  /** The account's next nonce (counting what waits in the pool, at the head). */
  nextNonce(address: Address, tx?: QueryTx): Promise<number>;
}
