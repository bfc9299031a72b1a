// Burning (chain §5.12): `unique.burnItem` (direct owner) and `unique.burnFrom` (allowance check,
// then burn on behalf of `from`; the topmost owner burns a nested token with from = its parent).
import { ensureAllowListed } from '../access';
import type { CallHandler, DispatchContext } from '../context';
import { DispatchError } from '../errors';
import type { Address, CollectionRecord } from '../types';
import { canonicalAddress } from './addresses';
import { pieceChildrenOf } from './piece-children';
import { checkAllowed, loadOwnedToken } from './transfer';
import { emitApproved, loadNftCollection, nftAmount, tokenLabel } from './shared';

/** The chain's `nonfungible::burn`: `owner` must own the token directly; no children allowed. */
export async function burnToken(ctx: DispatchContext, collection: CollectionRecord, owner: Address, tokenId: number): Promise<void> {
  const { state } = ctx;
  const collectionId = collection.id;
  const token = await loadOwnedToken(ctx, collectionId, tokenId, owner);
  if (collection.permissions.access === 'AllowList') await ensureAllowListed(state, collectionId, owner);
  const children = [...(await state.childrenOf(collectionId, tokenId)), ...(await pieceChildrenOf(state, { collectionId, tokenId }))];
  if (children.length > 0) {
    throw new DispatchError(
      'nonfungible.CantBurnNftWithChildren',
      `Cannot burn ${tokenLabel(collectionId, tokenId)}: ${children.length} token(s) are nested in it; unnest them first`
    );
  }
  await state.delete('tokens', [collectionId, tokenId]);
  await state.put('collections', { ...collection, tokensBurnt: collection.tokensBurnt + 1 });
  if (token.approved !== undefined) emitApproved(ctx, collectionId, tokenId, owner, token.approved, 0);
  ctx.emit('common', 'ItemDestroyed', { collectionId, tokenId, owner, amount: 1 });
}

export const burnItem: CallHandler<'unique.burnItem'> = async (ctx, { collectionId, tokenId, value }) => {
  const collection = await loadNftCollection(ctx.state, collectionId);
  if (nftAmount(value, 'burn value') === 0) {
    await loadOwnedToken(ctx, collectionId, tokenId, ctx.signer);
    return;
  }
  await burnToken(ctx, collection, ctx.signer, tokenId);
};

export const burnFrom: CallHandler<'unique.burnFrom'> = async (ctx, { collectionId, from, tokenId, value }) => {
  const collection = await loadNftCollection(ctx.state, collectionId);
  const amount = nftAmount(value, 'burn value');
  const owner = canonicalAddress(from);
  await checkAllowed(ctx, collection, ctx.signer, owner, tokenId);
  if (amount === 0) return;
  await burnToken(ctx, collection, owner, tokenId);
};
