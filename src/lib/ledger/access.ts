// Lookups every call needs: the collection or token (or the chain error), roles, allow-list,
// and the effective limits.
import {
  ACCOUNT_TOKEN_OWNERSHIP_LIMIT,
  COLLECTION_TOKEN_LIMIT,
  CUSTOM_DATA_LIMIT,
  MAX_SPONSOR_TIMEOUT,
  SPONSOR_APPROVE_TIMEOUT,
  SPONSOR_TRANSFER_TIMEOUT
} from './constants';
import { DispatchError } from './errors';
import type { RuleSet } from './rules';
import type { StateTx } from './store';
import type { Address, CollectionLimits, CollectionRecord, TokenRecord } from './types';

export async function loadCollection(state: StateTx, collectionId: number): Promise<CollectionRecord> {
  if (collectionId === 0) throw new DispatchError('common.UnsupportedOperation', 'Collection 0 is the native currency');
  const collection = await state.get('collections', collectionId);
  if (!collection) throw new DispatchError('common.CollectionNotFound', `Collection not found: ${collectionId}`);
  return collection;
}

export async function loadToken(state: StateTx, collectionId: number, tokenId: number, error = 'common.TokenNotFound'): Promise<TokenRecord> {
  const token = await state.get('tokens', [collectionId, tokenId]);
  if (!token) throw new DispatchError(error, `Token not found: collection ${collectionId}, token ${tokenId}`);
  return token;
}

export function isOwner(collection: CollectionRecord, address: Address): boolean {
  return collection.owner === address;
}

export function isAdmin(collection: CollectionRecord, address: Address): boolean {
  return collection.admins.includes(address);
}

export function isOwnerOrAdmin(collection: CollectionRecord, address: Address): boolean {
  return isOwner(collection, address) || isAdmin(collection, address);
}

export async function isAllowListed(state: StateTx, collectionId: number, address: Address): Promise<boolean> {
  return (await state.get('allowList', [collectionId, address])) !== undefined;
}

/** Throws `common.AddressNotInAllowlist` unless every address is listed. */
export async function ensureAllowListed(state: StateTx, collectionId: number, ...addresses: Address[]): Promise<void> {
  for (const address of addresses) {
    if (!(await isAllowListed(state, collectionId, address))) {
      throw new DispatchError('common.AddressNotInAllowlist', `Address is not in the allow list of collection ${collectionId}: ${address}`);
    }
  }
}

export type EffectiveLimits = { [K in keyof CollectionLimits]: NonNullable<CollectionLimits[K]> };

/** Stored limits with every unset field replaced by the default that actually applies. */
export function effectiveLimits(limits: CollectionLimits, rules: RuleSet): EffectiveLimits {
  return {
    accountTokenOwnershipLimit: Math.min(limits.accountTokenOwnershipLimit ?? ACCOUNT_TOKEN_OWNERSHIP_LIMIT, ACCOUNT_TOKEN_OWNERSHIP_LIMIT),
    sponsoredDataSize: Math.min(limits.sponsoredDataSize ?? CUSTOM_DATA_LIMIT, CUSTOM_DATA_LIMIT),
    sponsoredDataRateLimit: limits.sponsoredDataRateLimit ?? 0,
    tokenLimit: limits.tokenLimit ?? COLLECTION_TOKEN_LIMIT,
    sponsorTransferTimeout: Math.min(limits.sponsorTransferTimeout ?? SPONSOR_TRANSFER_TIMEOUT, MAX_SPONSOR_TIMEOUT),
    sponsorApproveTimeout: Math.min(limits.sponsorApproveTimeout ?? SPONSOR_APPROVE_TIMEOUT, MAX_SPONSOR_TIMEOUT),
    ownerCanTransfer: limits.ownerCanTransfer ?? rules.ownerCanTransferDefault,
    ownerCanDestroy: limits.ownerCanDestroy ?? true,
    transfersEnabled: limits.transfersEnabled ?? true
  };
}

export const EMPTY_LIMITS: CollectionLimits = {
  accountTokenOwnershipLimit: null,
  sponsoredDataSize: null,
  sponsoredDataRateLimit: null,
  tokenLimit: null,
  sponsorTransferTimeout: null,
  sponsorApproveTimeout: null,
  ownerCanTransfer: null,
  ownerCanDestroy: null,
  transfersEnabled: null
};
