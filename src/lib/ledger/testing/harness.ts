// A small chain for unit tests of call handlers: runs calls as extrinsics would (each in its own
// overlay, all-or-nothing) without signatures or fees.
import { deposit } from '../balances';
import { UNIT } from '../constants';
import type { DispatchContext } from '../context';
import { dispatchCall } from '../dispatch';
import { DispatchError } from '../errors';
import { Overlay } from '../overlay';
import { RULE_SETS, type RuleSetName } from '../rules';
import type { QueryTx } from '../store';
import type { Address, Call, CallArgs, CallName, LedgerEvent } from '../types';
import { NESTING_BUDGET } from '../constants';
import { MemoryStore } from './memory-store';

// Well-known dev accounts (SS58 prefix 42).
export const ALICE: Address = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
export const BOB: Address = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
export const CHARLIE: Address = '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y';
export const DAVE: Address = '5DAAnrj7VHTznn2AWBemMuyBwZWs6FNFjdyVXUeYum3PTXFy';
export const EVE: Address = '5HGjWAeFDfFCWPsjFQdVV2Msvz2XtMktvgocEZcCj68kUMaw';

export type CallResult = { ok: true; events: LedgerEvent[] } | { ok: false; error: DispatchError; events: LedgerEvent[] };

export class TestChain {
  readonly store = new MemoryStore();
  blockNumber = 1;

  constructor(readonly rules: RuleSetName = 'spec') {}

  /** Give each address 1,000 units. */
  async fund(...addresses: Address[]): Promise<void> {
    await this.store.write(async (tx) => {
      for (const a of addresses) await deposit(tx, a, 1000n * UNIT);
    });
  }

  /** Run `name(args)` signed by `signer`; state changes only if it succeeds. */
  async call<N extends CallName>(signer: Address, name: N, args: CallArgs[N]): Promise<CallResult> {
    let outcome: CallResult | undefined;
    await this.store.write(async (tx) => {
      const overlay = new Overlay(tx);
      const events: LedgerEvent[] = [];
      const ctx: DispatchContext = {
        state: overlay,
        signer,
        rules: RULE_SETS[this.rules],
        blockNumber: this.blockNumber,
        nestingBudget: { remaining: NESTING_BUDGET },
        emit: (section, method, data) => events.push({ section, method, data }),
        events
      };
      try {
        await dispatchCall(ctx, { name, args } as Call);
        await overlay.commit();
        outcome = { ok: true, events };
      } catch (e) {
        if (!(e instanceof DispatchError)) throw e;
        outcome = { ok: false, error: e, events: [] };
      }
    });
    this.blockNumber++;
    return outcome!;
  }

  /** Like `call`, but throws if the call fails. */
  async ok<N extends CallName>(signer: Address, name: N, args: CallArgs[N]): Promise<LedgerEvent[]> {
    const r = await this.call(signer, name, args);
    if (!r.ok) throw new Error(`${name} failed: ${r.error.section}.${r.error.errorName}: ${r.error.message}`);
    return r.events;
  }

  /** The `section.Name` of the error `name(args)` fails with (throws if it succeeds). */
  async error<N extends CallName>(signer: Address, name: N, args: CallArgs[N]): Promise<string> {
    const r = await this.call(signer, name, args);
    if (r.ok) throw new Error(`${name} succeeded but was expected to fail`);
    return `${r.error.section}.${r.error.errorName}`;
  }

  read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    return this.store.read(fn);
  }
}
