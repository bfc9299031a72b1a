// The call table: every call name to its handler. Token calls in a Fungible or ReFungible
// collection go to that mode's handlers (the chain dispatches on the collection's mode).
import { transferKeepAlive } from './balances';
import { COLLECTION_CALLS } from './collections/index';
import type { CallHandler, CallHandlers, DispatchContext } from './context';
import { DispatchError } from './errors';
import { FUNGIBLE_CALLS } from './fungible/calls';
import { REFUNGIBLE_CALLS, repartitionUnsupported } from './refungible/calls';
import { TOKEN_CALLS } from './tokens/index';
import type { Call, CallName, CollectionMode } from './types';
import { utilityCalls } from './utility';

const HANDLERS: CallHandlers = {
  ...COLLECTION_CALLS,
  ...TOKEN_CALLS,
  'unique.repartition': repartitionUnsupported,
  'balances.transferKeepAlive': transferKeepAlive,
  ...utilityCalls((ctx, call) => dispatchCall(ctx, call))
};

const MODE_HANDLERS: Record<Exclude<CollectionMode, 'NFT'>, CallHandlers> = {
  Fungible: { ...FUNGIBLE_CALLS, 'unique.repartition': repartitionUnsupported },
  // Only Fungible refuses token property permissions (pallets/refungible/src/common.rs sets them).
  ReFungible: { ...REFUNGIBLE_CALLS, 'unique.setTokenPropertyPermissions': COLLECTION_CALLS['unique.setTokenPropertyPermissions'] }
};

/** Calls whose handler depends on the collection's mode. */
const MODE_DISPATCHED = new Set(Object.values(MODE_HANDLERS).flatMap((table) => Object.keys(table)));

async function handlerOf(ctx: DispatchContext, call: Call): Promise<CallHandler<CallName> | undefined> {
  if (MODE_DISPATCHED.has(call.name)) {
    const collectionId = (call.args as { collectionId: number }).collectionId;
    const collection = collectionId === 0 ? undefined : await ctx.state.get('collections', collectionId);
    if (collection && collection.mode !== 'NFT') {
      return MODE_HANDLERS[collection.mode][call.name] as CallHandler<CallName> | undefined;
    }
  }
  return HANDLERS[call.name] as CallHandler<CallName> | undefined;
}

/** Run one call against the context's state; throws DispatchError on a chain error. */
export async function dispatchCall(ctx: DispatchContext, call: Call): Promise<void> {
  const handler = await handlerOf(ctx, call);
  if (!handler) throw new DispatchError('common.UnsupportedOperation', `Call ${call.name} is not supported`);
  await handler(ctx, call.args as never);
}
