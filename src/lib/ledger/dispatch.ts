// The call table: every call name to its handler.
import { transferKeepAlive } from './balances';
import { COLLECTION_CALLS } from './collections/index';
import type { CallHandler, DispatchContext } from './context';
import { DispatchError } from './errors';
import { TOKEN_CALLS } from './tokens/index';
import type { Call, CallName } from './types';

const HANDLERS: Partial<{ [N in CallName]: CallHandler<N> }> = {
  ...COLLECTION_CALLS,
  ...TOKEN_CALLS,
  'balances.transferKeepAlive': transferKeepAlive
};

/** Run one call against the context's state; throws DispatchError on a chain error. */
export async function dispatchCall(ctx: DispatchContext, call: Call): Promise<void> {
  const handler = HANDLERS[call.name] as CallHandler<CallName> | undefined;
  if (!handler) throw new DispatchError('common.UnsupportedOperation', `Call ${call.name} is not supported`);
  await handler(ctx, call.args as never);
}
