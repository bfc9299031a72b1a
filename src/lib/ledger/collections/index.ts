// Handlers of the collection-level calls.
import type { CallHandler } from '../context';
import type { CallName } from '../types';
import { addCollectionAdmin, changeCollectionOwner, removeCollectionAdmin } from './admins';
import { addToAllowList, removeFromAllowList } from './allow-list';
import { deleteCollectionProperties, setCollectionProperties } from './collection-properties';
import { createCollectionEx } from './create';
import { destroyCollection } from './destroy';
import { setCollectionLimits, setTransfersEnabledFlag } from './limits';
import { setCollectionPermissions } from './permissions';
import { setTokenPropertyPermissions } from './property-permissions';
import { confirmSponsorship, removeCollectionSponsor, setCollectionSponsor } from './sponsorship';

export { clampLimits } from './limits';
export { clampPermissions, normalizeNesting, DEFAULT_PERMISSIONS } from './permissions';
export { checkTokenPrefix, MODE_IDS } from './create';
export { setCollectionProperty } from './collection-properties';
export { normalizePermission, withPropertyPermission } from './property-permissions';
export { loadMutableCollection, NOT_OWNER, NOT_OWNER_OR_ADMIN, NOT_OWNER_CHANGE_OWNER } from './shared';

export const COLLECTION_CALLS: Partial<{ [N in CallName]: CallHandler<N> }> = {
  'unique.createCollectionEx': createCollectionEx,
  'unique.destroyCollection': destroyCollection,
  'unique.setCollectionProperties': setCollectionProperties,
  'unique.deleteCollectionProperties': deleteCollectionProperties,
  'unique.setCollectionLimits': setCollectionLimits,
  'unique.setCollectionPermissions': setCollectionPermissions,
  'unique.setTokenPropertyPermissions': setTokenPropertyPermissions,
  'unique.setTransfersEnabledFlag': setTransfersEnabledFlag,
  'unique.changeCollectionOwner': changeCollectionOwner,
  'unique.addCollectionAdmin': addCollectionAdmin,
  'unique.removeCollectionAdmin': removeCollectionAdmin,
  'unique.setCollectionSponsor': setCollectionSponsor,
  'unique.confirmSponsorship': confirmSponsorship,
  'unique.removeCollectionSponsor': removeCollectionSponsor,
  'unique.addToAllowList': addToAllowList,
  'unique.removeFromAllowList': removeFromAllowList
};
