// What a call handler gets: its checkpointed state, the signer, the rules and an event sink.
import type { RuleSet } from './rules';
import type { StateTx } from './store';
import type { Address, CallArgs, CallName, LedgerEvent } from './types';

export interface DispatchContext {
  /** The extrinsic's overlay: writes are dropped if the call fails. */
  state: StateTx;
  /** Who signed the extrinsic. */
  signer: Address;
  rules: RuleSet;
  /** Number of the block the extrinsic is being included in. */
  blockNumber: number;
  /** Nesting budget of this extrinsic, shared by every parent walk in it (chain: 5). */
  nestingBudget: { remaining: number };
  /** Record an event of the call (dropped with the call on failure). */
  emit(section: string, method: string, data: Record<string, unknown>): void;
  /** Events emitted so far by the call. */
  readonly events: LedgerEvent[];
}

export type CallHandler<N extends CallName> = (ctx: DispatchContext, args: CallArgs[N]) => Promise<void>;

/** Handlers by call name. */
export type CallHandlers = Partial<{ [N in CallName]: CallHandler<N> }>;
