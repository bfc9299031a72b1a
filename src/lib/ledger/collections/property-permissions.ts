// Token property permissions (set on the collection): who may write which token property key.
import { MAX_PROPERTIES_PER_ITEM } from '../constants';
import type { CallHandler } from '../context';
import { DispatchError } from '../errors';
import { checkEntryCount, checkPropertyKey, compareKeys } from '../properties';
import type { PropertyKeyPermission, PropertyPermission } from '../types';
import { ensureOwnerOrAdmin, loadMutableCollection, saveCollection } from './shared';

/** Omitted booleans are false (as polkadot.js fills them). */
export function normalizePermission(permission: Partial<PropertyPermission> | undefined): PropertyPermission {
  return {
    mutable: permission?.mutable === true,
    collectionAdmin: permission?.collectionAdmin === true,
    tokenOwner: permission?.tokenOwner === true
  };
}

/**
 * `list` (sorted by key) with `key` given `permission`: key checks, then
 * `common.PropertyLimitReached` when a 65th key would be added. No immutability check (creation
 * overwrites duplicates freely; the set call checks immutability itself).
 */
export function withPropertyPermission(
  list: readonly PropertyKeyPermission[],
  key: string,
  permission: Partial<PropertyPermission> | undefined,
  where: string
): PropertyKeyPermission[] {
  checkPropertyKey(key);
  const exists = list.some((p) => p.key === key);
  if (!exists && list.length >= MAX_PROPERTIES_PER_ITEM) {
    throw new DispatchError(
      'common.PropertyLimitReached',
      `${where} already has token property permissions for ${MAX_PROPERTIES_PER_ITEM} keys; cannot add "${key}"`
    );
  }
  const next = list.filter((p) => p.key !== key);
  next.push({ key, permission: normalizePermission(permission) });
  return next.sort((a, b) => compareKeys(a.key, b.key));
}

/**
 * The chain's `set_token_property_permissions`: `unique.EmptyArgument` first, then the
 * collection, then per entry in order: owner or admin, the key's existing permission must be
 * mutable (an immutable one is frozen forever, even for an identical value), key checks, 64 keys
 * (and a list of more than 64 entries fails at once, DECISIONS 5).
 * One `common.PropertyPermissionSet` per entry; all or nothing.
 */
export const setTokenPropertyPermissions: CallHandler<'unique.setTokenPropertyPermissions'> = async (
  ctx,
  { collectionId, propertyPermissions }
) => {
  if (!propertyPermissions || propertyPermissions.length === 0) {
    throw new DispatchError('unique.EmptyArgument', `The list of token property permissions for collection ${collectionId} is empty`);
  }
  checkEntryCount(propertyPermissions.length, 'token property permissions');
  const collection = await loadMutableCollection(ctx, collectionId);
  let list = collection.tokenPropertyPermissions;
  for (const { key, permission } of propertyPermissions) {
    ensureOwnerOrAdmin(collection, ctx.signer);
    const current = list.find((p) => p.key === key);
    if (current && !current.permission.mutable) {
      throw new DispatchError(
        'common.NoPermission',
        `The permission of token property key "${key}" in collection ${collectionId} is immutable and cannot be changed`
      );
    }
    list = withPropertyPermission(list, key, permission, `Collection ${collectionId}`);
    ctx.emit('common', 'PropertyPermissionSet', { collectionId, propertyKey: key });
  }
  collection.tokenPropertyPermissions = list;
  await saveCollection(ctx, collection);
};
