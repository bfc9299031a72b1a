// Transfers (chain §5.10, §5.11): `unique.transfer`, `unique.transferFrom`, the allowance check
// they share with burnFrom, and the transfer pipeline (nesting and unnesting included).
import { effectiveLimits, ensureAllowListed, isOwnerOrAdmin } from '../access';
import type { CallHandler, DispatchContext } from '../context';
import { DispatchError } from '../errors';
import type { Address, CollectionRecord, TokenRecord } from '../types';
import { canonicalAddress, isEthereumZero, parseNestingAddress } from './addresses';
import { allowanceForAll } from './allowance-for-all';
import { checkNesting, walkToTopmostOwner, withOwner } from './nesting';
import { emitApproved, loadNftCollection, nftAmount, tokenLabel } from './shared';

/**
 * The chain's `check_allowed`: may `spender` move or burn `tokenId` on behalf of `from`?
 * Passes when the spender is `from`; else (allow-list checked for the spender) when
 * `ownerCanTransfer` and the spender is owner/admin; for a token-address `from` iff the spender is
 * that parent's topmost owner (spends the nesting budget); else when the spender is the token's
 * approved spender or `from`'s operator for all tokens (setAllowanceForAll). Otherwise `common.ApprovedValueTooLow` (also for a missing token).
 */
export async function checkAllowed(ctx: DispatchContext, collection: CollectionRecord, spender: Address, from: Address, tokenId: number): Promise<void> {
  if (spender === from) return;
  const { state } = ctx;
  if (collection.permissions.access === 'AllowList') await ensureAllowListed(state, collection.id, spender);
  if (effectiveLimits(collection.limits, ctx.rules).ownerCanTransfer && isOwnerOrAdmin(collection, spender)) return;
  const label = tokenLabel(collection.id, tokenId);
  const source = parseNestingAddress(from);
  if (source) {
    const topmost = await walkToTopmostOwner(state, source, ctx.nestingBudget);
    if (topmost !== spender) {
      throw new DispatchError(
        'common.ApprovedValueTooLow',
        `${spender} cannot take ${label} out of ${tokenLabel(source.collectionId, source.tokenId)}: only the topmost owner of that token (${topmost}) can`
      );
    }
    return;
  }
  const token = await state.get('tokens', [collection.id, tokenId]);
  if (token && token.approved === spender) return;
  if (await allowanceForAll(state, collection.id, from, spender)) return;
  throw new DispatchError(
    'common.ApprovedValueTooLow',
    `${spender} is not allowed to move ${label} on behalf of ${from}: it is not approved for it nor ${from}'s operator, and is not the collection owner or an admin with ownerCanTransfer`
  );
}

/**
 * The chain's `transfer_internal` for one NFT: `from` must be its direct owner; nesting is checked
 * with the signer as depositor. Clears the approval; moves the token (and so its whole bundle).
 */
export async function transferToken(ctx: DispatchContext, collection: CollectionRecord, from: Address, to: Address, tokenId: number): Promise<void> {
  const { state, signer } = ctx;
  const collectionId = collection.id;
  const label = tokenLabel(collectionId, tokenId);
  const limits = effectiveLimits(collection.limits, ctx.rules);
  if (!limits.transfersEnabled) {
    throw new DispatchError('common.TransferNotAllowed', `Transfers are disabled in collection ${collectionId}: ${label} cannot be transferred`);
  }
  const token = await loadOwnedToken(ctx, collectionId, tokenId, from);
  if (collection.permissions.access === 'AllowList') await ensureAllowListed(state, collectionId, from, to);
  if (isEthereumZero(to)) throw new DispatchError('common.AddressIsZero', `Cannot transfer ${label} to the zero address ${to}`);
  if (to !== from) {
    const balance = (await state.countOwned(collectionId, to)) + 1;
    if (balance > limits.accountTokenOwnershipLimit) {
      throw new DispatchError(
        'common.AccountTokenLimitExceeded',
        `${to} would own ${balance} tokens of collection ${collectionId}, more than its account token ownership limit ${limits.accountTokenOwnershipLimit}`
      );
    }
  }
  const parent = await checkNesting(ctx, signer, to, { collectionId, tokenId });

  const { approved, ...rest } = token;
  await state.put('tokens', withOwner(rest, to, parent));
  if (approved !== undefined) emitApproved(ctx, collectionId, tokenId, from, approved, 0);
  ctx.emit('common', 'Transfer', { collectionId, tokenId, from, to, amount: 1 });
}

/** The token, which must exist (`common.TokenNotFound`) and be owned directly by `owner` (`common.NoPermission`). */
export async function loadOwnedToken(ctx: DispatchContext, collectionId: number, tokenId: number, owner: Address): Promise<TokenRecord> {
  const label = tokenLabel(collectionId, tokenId);
  const token = await ctx.state.get('tokens', [collectionId, tokenId]);
  if (!token) throw new DispatchError('common.TokenNotFound', `Token not found: ${label}`);
  if (token.owner !== owner) {
    throw new DispatchError(
      'common.NoPermission',
      owner === ctx.signer
        ? `${ctx.signer} is not the direct owner of ${label} (its owner is ${token.owner})`
        : `${owner} is not the direct owner of ${label} (its owner is ${token.owner})`
    );
  }
  return token;
}

export const transfer: CallHandler<'unique.transfer'> = async (ctx, { to, collectionId, tokenId, value }) => {
  const collection = await loadNftCollection(ctx.state, collectionId);
  if (nftAmount(value) === 0) {
    await loadOwnedToken(ctx, collectionId, tokenId, ctx.signer);
    return;
  }
  await transferToken(ctx, collection, ctx.signer, canonicalAddress(to), tokenId);
};

export const transferFrom: CallHandler<'unique.transferFrom'> = async (ctx, { from, to, collectionId, tokenId, value }) => {
  const collection = await loadNftCollection(ctx.state, collectionId);
  const amount = nftAmount(value);
  const owner = canonicalAddress(from);
  await checkAllowed(ctx, collection, ctx.signer, owner, tokenId);
  if (amount === 0) return;
  await transferToken(ctx, collection, owner, canonicalAddress(to), tokenId);
};
