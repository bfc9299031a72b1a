// Collection owner and admins: change owner, add and remove admins.
import { COLLECTION_ADMINS_LIMIT } from '../constants';
import type { CallHandler, DispatchContext } from '../context';
import { DispatchError } from '../errors';
import type { Address, CollectionRecord } from '../types';
import { NOT_OWNER, NOT_OWNER_CHANGE_OWNER, NOT_OWNER_OR_ADMIN, ensureOwner, isAdmin, isOwner, loadMutableCollection, saveCollection } from './shared';

/** Owner only (the specification names its message); the admin list is left as it is. */
export const changeCollectionOwner: CallHandler<'unique.changeCollectionOwner'> = async (ctx, { collectionId, newOwner }) => {
  const collection = await loadMutableCollection(ctx, collectionId);
  ensureOwner(collection, ctx.signer, NOT_OWNER_CHANGE_OWNER);
  collection.owner = newOwner;
  await saveCollection(ctx, collection);
  ctx.emit('common', 'CollectionOwnerChanged', { collectionId, owner: newOwner });
};

/**
 * Who may add or remove admins, per rule set: `spec` owner or admin (an admin may also remove
 * itself); `unique` the owner only (the chain's `toggle_admin`).
 */
function ensureMayManageAdmins(ctx: DispatchContext, collection: CollectionRecord, removing?: Address): void {
  const signer = ctx.signer;
  if (isOwner(collection, signer)) return;
  const signerIsAdmin = isAdmin(collection, signer);
  if (ctx.rules.adminManagers === 'owner-or-admin' && signerIsAdmin) return;
  if (removing !== undefined && removing === signer && signerIsAdmin && ctx.rules.adminMayRemoveSelf) return;
  throw new DispatchError('common.NoPermission', ctx.rules.adminManagers === 'owner' ? NOT_OWNER : NOT_OWNER_OR_ADMIN);
}

/** Adding an existing admin is a silent no-op (no event); a sixth admin is refused. */
export const addCollectionAdmin: CallHandler<'unique.addCollectionAdmin'> = async (ctx, { collectionId, newAdmin }) => {
  const collection = await loadMutableCollection(ctx, collectionId);
  ensureMayManageAdmins(ctx, collection);
  if (isAdmin(collection, newAdmin)) return;
  if (collection.admins.length + 1 > COLLECTION_ADMINS_LIMIT) {
    throw new DispatchError(
      'common.CollectionAdminCountExceeded',
      `Collection ${collectionId} already has ${COLLECTION_ADMINS_LIMIT} admins; cannot add ${newAdmin}`
    );
  }
  collection.admins = [...collection.admins, newAdmin];
  await saveCollection(ctx, collection);
  ctx.emit('common', 'CollectionAdminAdded', { collectionId, account: newAdmin });
};

/** Removing an address that is not an admin fails; the list may become empty. */
export const removeCollectionAdmin: CallHandler<'unique.removeCollectionAdmin'> = async (ctx, { collectionId, account }) => {
  const collection = await loadMutableCollection(ctx, collectionId);
  ensureMayManageAdmins(ctx, collection, account);
  if (!isAdmin(collection, account)) {
    throw new DispatchError('common.UserIsNotCollectionAdmin', `${account} is not an admin of collection ${collectionId}`);
  }
  collection.admins = collection.admins.filter((a) => a !== account);
  await saveCollection(ctx, collection);
  ctx.emit('common', 'CollectionAdminRemoved', { collectionId, account });
};
