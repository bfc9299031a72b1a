// Destroy collection (`unique.destroyCollection`).
import { effectiveLimits } from '../access';
import type { CallHandler } from '../context';
import { DispatchError } from '../errors';
import { fungibleSupply } from '../fungible/state';
import { META, readMeta, writeMeta } from '../meta';
import { collectionUnits } from '../units';
import { NOT_OWNER, ensureOwner, loadMutableCollection } from './shared';

/**
 * The chain's order: `CollectionNotFound` → (`CollectionIsExternal`) →
 * `CantDestroyNotEmptyCollection` (any live token, or a Fungible supply above 0, whoever asks) → `NoPermission` when
 * `ownerCanDestroy` is off → `NoPermission` unless the owner.
 *
 * Removes the collection row (its admins, properties and token property permissions live in it)
 * and counts it destroyed. Allow-list rows are left: a StateTx cannot enumerate them, and ids are
 * never reused, so they are unreachable.
 */
export const destroyCollection: CallHandler<'unique.destroyCollection'> = async (ctx, { collectionId }) => {
  const collection = await loadMutableCollection(ctx, collectionId);
  if (collection.mode === 'Fungible') {
    const supply = await fungibleSupply(ctx.state, collectionId);
    if (supply > 0n) {
      throw new DispatchError('common.CantDestroyNotEmptyCollection', `Collection ${collectionId} still has a total supply of ${collectionUnits(collection, supply)} and cannot be destroyed`);
    }
  }
  const live = collection.tokensMinted - collection.tokensBurnt;
  if (live > 0) {
    throw new DispatchError(
      'common.CantDestroyNotEmptyCollection',
      `Collection ${collectionId} still has ${live} token${live === 1 ? '' : 's'} and cannot be destroyed`
    );
  }
  if (!effectiveLimits(collection.limits, ctx.rules).ownerCanDestroy) {
    throw new DispatchError('common.NoPermission', `Collection ${collectionId} cannot be destroyed: its ownerCanDestroy limit is false`);
  }
  ensureOwner(collection, ctx.signer, NOT_OWNER);

  await ctx.state.delete('collections', collectionId);
  const destroyed = await readMeta<number>(ctx.state, META.destroyedCollectionCount, 0);
  await writeMeta(ctx.state, META.destroyedCollectionCount, destroyed + 1);
  ctx.emit('common', 'CollectionDestroyed', { collectionId });
};
