// Helpers shared by the token call handlers: resolving the collection, NFT amounts, events.
import { loadCollection } from '../access';
import type { DispatchContext } from '../context';
import { DispatchError } from '../errors';
import type { StateTx } from '../store';
import type { Address, CollectionRecord } from '../types';

/** `collection 3, token 7`, for messages. */
export function tokenLabel(collectionId: number, tokenId: number): string {
  return `collection ${collectionId}, token ${tokenId}`;
}

/**
 * The collection of a token call: `common.CollectionNotFound` (and `common.UnsupportedOperation`
 * for id 0), `common.CollectionIsExternal` for a read-only collection, then
 * `unique.ModeNotSupported` unless it is an NFT collection.
 */
export async function loadNftCollection(state: StateTx, collectionId: number): Promise<CollectionRecord> {
  const collection = await loadCollection(state, collectionId);
  if (collection.readOnly) {
    throw new DispatchError('common.CollectionIsExternal', `Collection ${collectionId} is read-only: its tokens cannot be changed`);
  }
  if (collection.mode !== 'NFT') {
    throw new DispatchError('unique.ModeNotSupported', `Collection mode ${collection.mode} does not support this operation yet`);
  }
  return collection;
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
