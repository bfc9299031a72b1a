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
  /** `compute`'s result, remembered while the state it read cannot change (or computed again). */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T>;
  /** The block the state is of (read in `tx` when given, so it agrees with the rows read there). */
  head(tx?: QueryTx): Promise<Head>;
  /** The account's next nonce (counting what waits in the pool, at the head). */
  nextNonce(address: Address, tx?: QueryTx): Promise<number>;
}
