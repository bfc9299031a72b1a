// The collection allow-list: rows `{collectionId, address}` in the `allowList` table.
import type { CallHandler } from '../context';
import { ensureOwnerOrAdmin, loadMutableCollection } from './shared';

/** Owner or admin; idempotent (adding twice succeeds and emits again); works with any access. */
export const addToAllowList: CallHandler<'unique.addToAllowList'> = async (ctx, { collectionId, address }) => {
  const collection = await loadMutableCollection(ctx, collectionId);
  ensureOwnerOrAdmin(collection, ctx.signer);
  await ctx.state.put('allowList', { collectionId, address });
  ctx.emit('common', 'AllowListAddressAdded', { collectionId, address });
};

/** Owner or admin; removing an address that is not listed succeeds and emits. */
export const removeFromAllowList: CallHandler<'unique.removeFromAllowList'> = async (ctx, { collectionId, address }) => {
  const collection = await loadMutableCollection(ctx, collectionId);
  ensureOwnerOrAdmin(collection, ctx.signer);
  await ctx.state.delete('allowList', [collectionId, address]);
  ctx.emit('common', 'AllowListAddressRemoved', { collectionId, address });
};
