// `POST /common/batching` (SDK `common.batch`): several mutations signed once as one
// `utility.batch`. Each item names its call as the SDK's `batchCall` does ({section, method})
// and carries the raw arguments of the route that builds that call.
import { z } from 'zod';
import type { Call } from '../../ledger/types';
import { fromZodError, validationError } from '../errors';
import { MAX_CALLS_PER_BATCH } from '../../limits';
import { mutation, type BuildContext, type MutationRoute, type Route } from '../route';
import { address, boundedString } from '../schemas';
import { balanceRoutes } from './balance';
import { BatchBuildState } from './batch-build-state';
import { collectionRoutes } from './collections';
import { tokenRoutes } from './tokens';

/** The route whose raw arguments build each batchable call (the SDK 0.7.7 methodName table). */
const ROUTE_OF_CALL: Record<string, [MutationRoute['method'], string]> = {
  'balances.transferKeepAlive': ['POST', '/balance/transfer'],
  'unique.createCollectionEx': ['POST', '/collections'],
  'unique.destroyCollection': ['DELETE', '/collections'],
  'unique.setCollectionProperties': ['POST', '/collections/properties'],
  'unique.deleteCollectionProperties': ['DELETE', '/collections/properties'],
  'unique.setTokenPropertyPermissions': ['POST', '/collections/property-permissions'],
  'unique.setCollectionLimits': ['POST', '/collections/set-limits'],
  'unique.changeCollectionOwner': ['PATCH', '/collections/transfer'],
  'unique.setTransfersEnabledFlag': ['POST', '/collections/transfers-enabled'],
  'unique.setCollectionPermissions': ['POST', '/collections/permissions'],
  'unique.addToAllowList': ['POST', '/collections/add-to-allow-list'],
  'unique.removeFromAllowList': ['POST', '/collections/remove-from-allow-list'],
  'unique.addCollectionAdmin': ['POST', '/collections/admins'],
  'unique.removeCollectionAdmin': ['DELETE', '/collections/admins'],
  'unique.setCollectionSponsor': ['POST', '/collections/sponsorship'],
  'unique.confirmSponsorship': ['POST', '/collections/sponsorship/confirm'],
  'unique.removeCollectionSponsor': ['DELETE', '/collections/sponsorship'],
  'unique.createItem': ['POST', '/tokens'],
  'unique.createMultipleItemsEx': ['POST', '/tokens/create-multiple'],
  'unique.setTokenProperties': ['POST', '/tokens/properties'],
  'unique.deleteTokenProperties': ['DELETE', '/tokens/properties'],
  'unique.transferFrom': ['PATCH', '/tokens/transfer'],
  'unique.burnFrom': ['DELETE', '/tokens'],
  'unique.approve': ['POST', '/tokens/approve']
};

/** Every route ROUTE_OF_CALL names lives in these tables (imported directly: the route table lists this module). */
const BATCHABLE_ROUTES: readonly Route[] = [...collectionRoutes, ...tokenRoutes, ...balanceRoutes];

const batchedCall = z.object({
  method: z.object({ section: boundedString('section'), method: boundedString('method') }),
  rawPayload: z.record(z.string(), z.unknown(), { error: 'rawPayload must be an object of the call arguments' })
});

const batchBody = z.object({
  address,
  calls: z
    .array(batchedCall, { error: 'calls must be an array of {method: {section, method}, rawPayload}' })
    .min(1, { error: 'calls must not be empty' })
    .max(MAX_CALLS_PER_BATCH, { error: `calls must have at most ${MAX_CALLS_PER_BATCH} items` })
});

function routeFor(section: string, method: string, index: number): MutationRoute {
  const target = ROUTE_OF_CALL[`${section}.${method}`];
  const route = target && BATCHABLE_ROUTES.find((r): r is MutationRoute => r.kind === 'mutation' && r.method === target[0] && r.path === target[1]);
  if (!route) throw validationError(`calls[${index}]: ${section}.${method} cannot be batched`);
  return route;
}

/**
 * Build every batched call with its own route, each against the state the calls before it leave;
 * all must be signed by the batch's address.
 */
async function batchedCalls(body: z.output<typeof batchBody>, ctx: BuildContext): Promise<Call[]> {
  const calls: Call[] = [];
  const state = new BatchBuildState(ctx.tx, body.address, ctx.ledger.rules);
  for (const [index, item] of body.calls.entries()) {
    const route = routeFor(item.method.section, item.method.method, index);
    const parsed = route.body.safeParse({ address: body.address, ...item.rawPayload });
    if (!parsed.success) throw fromZodError(parsed.error, 'body');
    if (route.signer(parsed.data) !== body.address) throw validationError(`calls[${index}]: every call of a batch must be signed by ${body.address}`);
    const call = await route.toCall(parsed.data, { ...ctx, tx: state.view });
    calls.push(call);
    if (index < body.calls.length - 1) await state.apply(call);
  }
  return calls;
}

export const batchRoutes = [
  mutation({
    method: 'POST',
    path: '/common/batching',
    tag: 'common',
    summary: 'Several calls signed once (utility.batch: stops at the first failure); parsed {callResults:[{method, parsed}]}',
    body: batchBody,
    signer: (b) => b.address,
    toCall: async (b, ctx) => ({ name: 'utility.batch', args: { calls: await batchedCalls(b, ctx) } })
  })
];
