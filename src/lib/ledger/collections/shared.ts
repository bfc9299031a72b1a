// What every collection-level call shares: loading a collection it may change, the role checks
// with the messages the specification names, and saving.
import { isAdmin, isOwner, isOwnerOrAdmin, loadCollection } from '../access';
import type { DispatchContext } from '../context';
import { DispatchError } from '../errors';
import type { Address, CollectionRecord } from '../types';

/** The specification's message for "owner only" operations (set limits, set transfers enabled). */
export const NOT_OWNER = 'Signer is not Collection Owner';
/** The specification's message for "owner or admin" operations. */
export const NOT_OWNER_OR_ADMIN = 'Signer is not Collection Owner or Collection Admin';
/** The specification's message for change collection owner (its own wording, kept as given). */
export const NOT_OWNER_CHANGE_OWNER = 'From address is not the collection admin address';

/**
 * Load a collection a call is about to change: `common.UnsupportedOperation` for id 0,
 * `common.CollectionNotFound`, then `common.CollectionIsExternal` for a read-only collection
 * (the chain's `check_is_internal`: a read-only collection is an external one, which no user
 * extrinsic may change).
 */
export async function loadMutableCollection(ctx: DispatchContext, collectionId: number): Promise<CollectionRecord> {
  const collection = await loadCollection(ctx.state, collectionId);
  if (collection.readOnly) {
    throw new DispatchError('common.CollectionIsExternal', `Collection ${collectionId} is read-only and cannot be changed by an extrinsic`);
  }
  return collection;
}

/** `common.NoPermission` unless `signer` owns the collection. */
export function ensureOwner(collection: CollectionRecord, signer: Address, message = NOT_OWNER): void {
  if (!isOwner(collection, signer)) throw new DispatchError('common.NoPermission', message);
}

/** `common.NoPermission` unless `signer` owns or administers the collection. */
export function ensureOwnerOrAdmin(collection: CollectionRecord, signer: Address, message = NOT_OWNER_OR_ADMIN): void {
  if (!isOwnerOrAdmin(collection, signer)) throw new DispatchError('common.NoPermission', message);
}

export { isAdmin, isOwner, isOwnerOrAdmin };

export async function saveCollection(ctx: DispatchContext, collection: CollectionRecord): Promise<void> {
  await ctx.state.put('collections', collection);
}
