// Collection permissions: the chain's `clamp_permissions` (field merge, nesting replaced whole)
// and set permissions.
import { MAX_NESTING_RESTRICTED } from '../constants';
import type { CallHandler } from '../context';
import { DispatchError } from '../errors';
import type { CollectionAccess, CollectionPermissions, CollectionPermissionsInput, NestingPermissions } from '../types';
import { ensureOwnerOrAdmin, loadMutableCollection, saveCollection } from './shared';

/** Permissions of a collection that never set any (the chain's defaults). */
export const DEFAULT_PERMISSIONS: CollectionPermissions = {
  access: 'Normal',
  mintMode: false,
  nesting: { tokenOwner: false, collectionAdmin: false, restricted: null }
};

/** `Normal` or `AllowList` (`WhiteList`, the pre-2022 name of the same value, is accepted too). */
export function checkAccess(access: unknown): CollectionAccess {
  if (access === 'Normal' || access === 'AllowList') return access;
  if (access === 'WhiteList') return 'AllowList';
  // Undecodable on chain (rejected before inclusion); the REST layer should have caught it.
  throw new DispatchError('common.UnsupportedOperation', `Collection access must be Normal or AllowList, got ${String(access)}`);
}

/**
 * A nesting input as the chain stores it: missing flags are false, a missing `restricted` is
 * null, a list becomes a sorted set of at most 16 collection ids (more cannot be encoded on
 * chain; here that is `common.CollectionLimitBoundsExceeded`).
 */
export function normalizeNesting(nesting: Partial<NestingPermissions>): NestingPermissions {
  let restricted: number[] | null = null;
  if (nesting.restricted !== undefined && nesting.restricted !== null) {
    for (const id of nesting.restricted) {
      if (!Number.isInteger(id) || id < 0 || id > 4_294_967_295) {
        throw new DispatchError('common.CollectionLimitBoundsExceeded', `nesting.restricted lists ${String(id)}, which is not a collection id`);
      }
    }
    restricted = [...new Set(nesting.restricted)].sort((a, b) => a - b);
    if (restricted.length > MAX_NESTING_RESTRICTED) {
      throw new DispatchError(
        'common.CollectionLimitBoundsExceeded',
        `nesting.restricted may list at most ${MAX_NESTING_RESTRICTED} collections, got ${restricted.length}`
      );
    }
  }
  return { tokenOwner: nesting.tokenOwner === true, collectionAdmin: nesting.collectionAdmin === true, restricted };
}

/**
 * The chain's `clamp_permissions`: each of `access`, `mintMode`, `nesting` that is present
 * replaces the stored one, absent ones are kept; `nesting` is replaced as a whole (a sent
 * `nesting: {}` disables nesting). No other validation, no one-way switches.
 */
export function clampPermissions(old: CollectionPermissions, update: CollectionPermissionsInput): CollectionPermissions {
  return {
    access: update.access === undefined || update.access === null ? old.access : checkAccess(update.access),
    mintMode: update.mintMode === undefined || update.mintMode === null ? old.mintMode : update.mintMode === true,
    nesting:
      update.nesting === undefined || update.nesting === null
        ? { ...old.nesting, restricted: old.nesting.restricted ? [...old.nesting.restricted] : null }
        : normalizeNesting(update.nesting)
  };
}

export const setCollectionPermissions: CallHandler<'unique.setCollectionPermissions'> = async (ctx, { collectionId, permissions }) => {
  const collection = await loadMutableCollection(ctx, collectionId);
  ensureOwnerOrAdmin(collection, ctx.signer);
  collection.permissions = clampPermissions(collection.permissions, permissions ?? {});
  await saveCollection(ctx, collection);
  ctx.emit('common', 'CollectionPermissionSet', { collectionId });
};
