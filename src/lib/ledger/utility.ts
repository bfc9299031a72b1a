// pallet_utility: `batch` dispatches in order and stops at the first failure (earlier calls stay,
// the extrinsic succeeds with BatchInterrupted); `batchAll` is all or nothing (the first failure
// fails the extrinsic, so applyExtrinsic drops every call's writes with its overlay).
import { NESTING_BUDGET } from './constants';
import type { CallHandler, CallHandlers, DispatchContext } from './context';
import { DispatchError } from './errors';
import { Overlay } from './overlay';
import type { Call } from './types';

type Dispatch = (ctx: DispatchContext, call: Call) => Promise<void>;

function refuseNesting(calls: Call[]): void {
  if (calls.some((c) => c.name === 'utility.batch' || c.name === 'utility.batchAll')) {
    throw new DispatchError('common.UnsupportedOperation', 'A batch cannot contain another batch');
  }
}

/**
 * One call of a batch in its own checkpoint: its writes and events stay only if it succeeds. Each
 * call gets its own nesting budget, as each dispatchable does on the chain
 * (`structure_nesting_budget()` per call in pallets/unique).
 */
async function runCheckpointed(ctx: DispatchContext, call: Call, dispatch: Dispatch): Promise<void> {
  const overlay = new Overlay(ctx.state);
  const events: DispatchContext['events'] = [];
  const nestingBudget = { remaining: NESTING_BUDGET };
  await dispatch({ ...ctx, state: overlay, events, nestingBudget, emit: (section, method, data) => events.push({ section, method, data }) }, call);
  await overlay.commit();
  for (const event of events) ctx.emit(event.section, event.method, event.data);
}

/** The utility handlers; `dispatch` is the call table's (passed in to avoid an import cycle). */
export function utilityCalls(dispatch: Dispatch): CallHandlers {
  const batch: CallHandler<'utility.batch'> = async (ctx, { calls }) => {
    refuseNesting(calls);
    for (const [index, call] of calls.entries()) {
      try {
        await runCheckpointed(ctx, call, dispatch);
      } catch (e) {
        if (!(e instanceof DispatchError)) throw e;
        ctx.emit('utility', 'BatchInterrupted', { index, error: { module: { section: e.section, name: e.errorName } } });
        return;
      }
      ctx.emit('utility', 'ItemCompleted', {});
    }
    ctx.emit('utility', 'BatchCompleted', {});
  };
  const batchAll: CallHandler<'utility.batchAll'> = async (ctx, { calls }) => {
    refuseNesting(calls);
    for (const call of calls) {
      await runCheckpointed(ctx, call, dispatch);
      ctx.emit('utility', 'ItemCompleted', {});
    }
    ctx.emit('utility', 'BatchCompleted', {});
  };
  return { 'utility.batch': batch, 'utility.batchAll': batchAll };
}
