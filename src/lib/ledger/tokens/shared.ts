// Helpers shared by the token call handlers: resolving the collection, NFT amounts, events.
import { ensureAllowListed, isOwnerOrAdmin, loadCollection } from '../access';
import type { DispatchContext } from '../context';
import { DispatchError } from '../errors';
import type { StateTx } from '../store';
import type { Address, CollectionMode, CollectionRecord } from '../types';

/** `collection 3, token 7`, for messages. */
export function tokenLabel(collectionId: number, tokenId: number): string {
  return `collection ${collectionId}, token ${tokenId}`;
}

/**
 * The collection of a token call: `common.CollectionNotFound` (and `common.UnsupportedOperation`
 * for id 0), `common.CollectionIsExternal` for a read-only collection, then
 * `unique.ModeNotSupported` unless its mode is one of `modes` (NFT by default).
 */
export async function loadNftCollection(state: StateTx, collectionId: number, modes: readonly CollectionMode[] = ['NFT']): Promise<CollectionRecord> {
  const collection = await loadTokenCollection(state, collectionId);
  if (!modes.includes(collection.mode)) {
    throw new DispatchError('unique.ModeNotSupported', `Collection mode ${collection.mode} does not support this operation yet`);
  }
  return collection;
}

/** The collection of a token call of any mode: `common.CollectionNotFound`, then `common.CollectionIsExternal`. */
export async function loadTokenCollection(state: StateTx, collectionId: number): Promise<CollectionRecord> {
  const collection = await loadCollection(state, collectionId);
  if (collection.readOnly) {
    throw new DispatchError('common.CollectionIsExternal', `Collection ${collectionId} is read-only: its tokens cannot be changed`);
  }
  return collection;
}

/**
 * Minting by someone who is neither owner nor admin: mintMode must be on
 * (`common.PublicMintingNotAllowed`); `spec` then needs a listed signer when access is AllowList,
 * `unique` a listed signer and listed recipients always.
 */
export async function ensureMayMint(ctx: DispatchContext, collection: CollectionRecord, recipients: readonly Address[]): Promise<void> {
  const { state, signer, rules } = ctx;
  if (isOwnerOrAdmin(collection, signer)) return;
  if (!collection.permissions.mintMode) {
    throw new DispatchError(
      'common.PublicMintingNotAllowed',
      `${signer} cannot mint in collection ${collection.id}: only its owner and admins can mint while public minting (mintMode) is off`
    );
  }
  if (rules.publicMint === 'mint-mode-and-list-always') {
    await ensureAllowListed(state, collection.id, signer, ...recipients);
  } else if (collection.permissions.access === 'AllowList') {
    await ensureAllowListed(state, collection.id, signer);
  }
}

/** An NFT amount is 0 (probe only) or 1; anything else is `nonfungible.NonfungibleItemsHaveNoAmount`. */
export function nftAmount(amount: bigint | number, what = 'amount'): 0 | 1 {
  const n = BigInt(amount);
  if (n === 0n) return 0;
  if (n === 1n) return 1;
  throw new DispatchError('nonfungible.NonfungibleItemsHaveNoAmount', `An NFT ${what} can only be 0 or 1, got ${n}`);
}

export function emitApproved(ctx: DispatchContext, collectionId: number, tokenId: number, owner: Address, spender: Address, amount: 0 | 1): void {
  ctx.emit('common', 'Approved', { collectionId, tokenId, owner, spender, amount });
}

/** The unique pallet's `createMultipleItems` check, made before the collection is read. */
export function ensureItems(items: readonly unknown[]): void {
  if (items.length === 0) throw new DispatchError('unique.EmptyArgument', 'createMultipleItems needs at least one item');
}
