// Collection limits: the chain's `clamp_limits` (merge and validate), set limits, and the
// separate transfers-enabled switch.
import {
  ACCOUNT_TOKEN_OWNERSHIP_LIMIT,
  COLLECTION_TOKEN_LIMIT,
  CUSTOM_DATA_LIMIT,
  MAX_SPONSOR_TIMEOUT
} from '../constants';
import type { CallHandler } from '../context';
import { DispatchError } from '../errors';
import type { CollectionLimits, CollectionLimitsInput } from '../types';
import { NOT_OWNER, ensureOwner, ensureOwnerOrAdmin, loadMutableCollection, saveCollection } from './shared';

const U32_MAX = 4_294_967_295;

/** Field order of the chain's `clamp_limits`: the first failing field decides the error. */
const LIMIT_FIELDS = [
  'accountTokenOwnershipLimit',
  'sponsoredDataSize',
  'sponsoredDataRateLimit',
  'tokenLimit',
  'sponsorTransferTimeout',
  'sponsorApproveTimeout',
  'ownerCanTransfer',
  'ownerCanDestroy',
  'transfersEnabled'
] as const satisfies readonly (keyof CollectionLimits)[];

function ensureU32(field: string, value: number, where: string): void {
  if (!Number.isInteger(value) || value < 0 || value > U32_MAX) {
    throw new DispatchError('common.CollectionLimitBoundsExceeded', `${field} of ${where} must be a whole number from 0 to ${U32_MAX}, got ${value}`);
  }
}

function ensureBoolean(field: string, value: unknown, where: string): asserts value is boolean {
  if (typeof value !== 'boolean') {
    throw new DispatchError('common.CollectionLimitBoundsExceeded', `${field} of ${where} must be true or false, got ${String(value)}`);
  }
}

/**
 * The chain's `clamp_limits`: merge `update` into `old` (an absent or null field keeps the old
 * value; there is no way back to null) and validate every given field in the chain's field order:
 * - `accountTokenOwnershipLimit` ≤ 100 000 000, `sponsoredDataSize` ≤ 2 048,
 *   `sponsorTransferTimeout` ≤ 10 368 000 → `common.CollectionLimitBoundsExceeded`;
 * - `tokenLimit`: 0 < new ≤ old effective (u32::MAX when unset) → `common.CollectionTokenLimitExceeded`;
 * - `ownerCanTransfer`: once explicitly false it cannot become true; `ownerCanDestroy`: once false
 *   (effective, default true) it cannot become true → `common.OwnerPermissionsCantBeReverted`;
 * - `sponsoredDataRateLimit`, `sponsorApproveTimeout`, `transfersEnabled`: no check.
 * Collection creation runs it against `EMPTY_LIMITS`. `collectionId` only names the collection in
 * messages. Returns the new stored limits (nulls where still unset); `old` is not modified.
 */
export function clampLimits(old: CollectionLimits, update: CollectionLimitsInput, collectionId?: number): CollectionLimits {
  const where = collectionId === undefined ? 'the new collection' : `collection ${collectionId}`;
  const next: CollectionLimits = { ...old };
  for (const field of LIMIT_FIELDS) {
    const value = update[field];
    if (value === undefined || value === null) continue;
    switch (field) {
      case 'accountTokenOwnershipLimit':
      case 'sponsoredDataSize':
      case 'sponsorTransferTimeout': {
        const v = value as number;
        ensureU32(field, v, where);
        const max =
          field === 'accountTokenOwnershipLimit' ? ACCOUNT_TOKEN_OWNERSHIP_LIMIT : field === 'sponsoredDataSize' ? CUSTOM_DATA_LIMIT : MAX_SPONSOR_TIMEOUT;
        if (v > max) {
          throw new DispatchError('common.CollectionLimitBoundsExceeded', `${field} of ${where} may be at most ${max}, got ${v}`);
        }
        next[field] = v;
        break;
      }
      case 'sponsoredDataRateLimit':
      case 'sponsorApproveTimeout': {
        const v = value as number;
        ensureU32(field, v, where);
        next[field] = v;
        break;
      }
      case 'tokenLimit': {
        const v = value as number;
        const current = old.tokenLimit ?? COLLECTION_TOKEN_LIMIT;
        if (!Number.isInteger(v) || v <= 0 || v > current) {
          throw new DispatchError(
            'common.CollectionTokenLimitExceeded',
            `tokenLimit of ${where} can only be lowered: it must be from 1 to ${current}, got ${v}`
          );
        }
        next.tokenLimit = v;
        break;
      }
      case 'ownerCanTransfer': {
        ensureBoolean(field, value, where);
        if (old.ownerCanTransfer === false && value) {
          throw new DispatchError(
            'common.OwnerPermissionsCantBeReverted',
            `ownerCanTransfer of ${where} was set to false and cannot be switched back to true`
          );
        }
        next.ownerCanTransfer = value;
        break;
      }
      case 'ownerCanDestroy': {
        ensureBoolean(field, value, where);
        if ((old.ownerCanDestroy ?? true) === false && value) {
          throw new DispatchError(
            'common.OwnerPermissionsCantBeReverted',
            `ownerCanDestroy of ${where} was set to false and cannot be switched back to true`
          );
        }
        next.ownerCanDestroy = value;
        break;
      }
      case 'transfersEnabled': {
        ensureBoolean(field, value, where);
        next.transfersEnabled = value;
        break;
      }
    }
  }
  return next;
}

export const setCollectionLimits: CallHandler<'unique.setCollectionLimits'> = async (ctx, { collectionId, limits }) => {
  const collection = await loadMutableCollection(ctx, collectionId);
  if (ctx.rules.setLimits === 'owner') ensureOwner(collection, ctx.signer, NOT_OWNER);
  else ensureOwnerOrAdmin(collection, ctx.signer);
  collection.limits = clampLimits(collection.limits, limits ?? {}, collectionId);
  await saveCollection(ctx, collection);
  ctx.emit('common', 'CollectionLimitSet', { collectionId });
};

/** Owner only; writes `limits.transfersEnabled`; the chain emits no event for it. */
export const setTransfersEnabledFlag: CallHandler<'unique.setTransfersEnabledFlag'> = async (ctx, { collectionId, value }) => {
  const collection = await loadMutableCollection(ctx, collectionId);
  ensureOwner(collection, ctx.signer, NOT_OWNER);
  collection.limits = { ...collection.limits, transfersEnabled: value };
  await saveCollection(ctx, collection);
};
