// `unique.approve` (chain §5.11): one approved spender per token; amount 0 revokes.
import { effectiveLimits, ensureAllowListed, isOwnerOrAdmin } from '../access';
import type { CallHandler } from '../context';
import { DispatchError } from '../errors';
import { canonicalAddress, isEthereumZero } from './addresses';
import { emitApproved, loadNftCollection, nftAmount, tokenLabel } from './shared';

export const approve: CallHandler<'unique.approve'> = async (ctx, { spender: rawSpender, collectionId, tokenId, amount }) => {
  const { state, signer } = ctx;
  const collection = await loadNftCollection(state, collectionId);
  const grant = nftAmount(amount) === 1;
  const spender = canonicalAddress(rawSpender);
  const label = tokenLabel(collectionId, tokenId);

  if (collection.permissions.access === 'AllowList') {
    await ensureAllowListed(state, collectionId, signer);
    if (grant) await ensureAllowListed(state, collectionId, spender);
  }
  if (grant && isEthereumZero(spender)) throw new DispatchError('common.AddressIsZero', `Cannot approve the zero address ${spender} for ${label}`);
  const token = await state.get('tokens', [collectionId, tokenId]);
  if (!token) throw new DispatchError('common.TokenNotFound', `Token not found: ${label}`);
  if (token.owner !== signer && !(effectiveLimits(collection.limits, ctx.rules).ownerCanTransfer && isOwnerOrAdmin(collection, signer))) {
    throw new DispatchError('common.CantApproveMoreThanOwned', `${signer} cannot approve a spender for ${label}: only its owner (${token.owner}) can`);
  }

  const old = token.approved;
  if (grant) {
    if (old === spender) return;
    await state.put('tokens', { ...token, approved: spender });
    if (old !== undefined) emitApproved(ctx, collectionId, tokenId, signer, old, 0);
    emitApproved(ctx, collectionId, tokenId, signer, spender, 1);
  } else if (old !== undefined) {
    const { approved: _, ...rest } = token;
    await state.put('tokens', rest);
    emitApproved(ctx, collectionId, tokenId, signer, old, 0);
  }
};
