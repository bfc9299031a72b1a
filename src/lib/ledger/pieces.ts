// What Fungible and ReFungible token calls share (chain: pallets/fungible and pallets/refungible):
// u128 amounts, the transfer preconditions, and `check_allowed` for amounts.
import { effectiveLimits, ensureAllowListed, isOwnerOrAdmin } from './access';
import type { DispatchContext } from './context';
import { DispatchError } from './errors';
import type { StateTx } from './store';
import { isEthereumZero, parseNestingAddress } from './tokens/addresses';
import { walkToTopmostOwner } from './tokens/nesting';
import type { Address, CollectionRecord } from './types';

export const U128_MAX = (1n << 128n) - 1n;

export function ownerCanTransfer(ctx: DispatchContext, collection: CollectionRecord): boolean {
  return effectiveLimits(collection.limits, ctx.rules).ownerCanTransfer;
}

/** The chain's `ignores_owned_amount` and `ignores_token_restrictions`: owner and admins with ownerCanTransfer. */
export function ignoresOwnedAmount(ctx: DispatchContext, collection: CollectionRecord, who: Address): boolean {
  return ownerCanTransfer(ctx, collection) && isOwnerOrAdmin(collection, who);
}

/** `common.TransferNotAllowed` while transfers are disabled. */
export function transfersEnabled(ctx: DispatchContext, collection: CollectionRecord): void {
  if (!effectiveLimits(collection.limits, ctx.rules).transfersEnabled) {
    throw new DispatchError('common.TransferNotAllowed', `Transfers are disabled in collection ${collection.id}`);
  }
}

/** With access AllowList, every address must be listed (`common.AddressNotInAllowlist`). */
export async function ensureListedIfRestricted(state: StateTx, collection: CollectionRecord, ...addresses: Address[]): Promise<void> {
  if (collection.permissions.access === 'AllowList') await ensureAllowListed(state, collection.id, ...addresses);
}

/** The chain's `ensure_correct_receiver`: nothing goes to the Ethereum zero address. */
export function ensureCorrectReceiver(to: Address, where: string): void {
  if (isEthereumZero(to)) throw new DispatchError('common.AddressIsZero', `Cannot send ${where} to the zero address ${to}`);
}

/**
 * The chain's `check_allowed` for amounts: may `spender` move `amount` of `from`'s? Returns the
 * allowance left after it (to be written), or null when the allowance is not touched: the spender
 * is `from`; an owner or admin with ownerCanTransfer whose allowance does not cover it; the topmost
 * owner of the token `from` (spends the nesting budget); an operator of `from`'s (setAllowanceForAll)
 * whose allowance does not cover it. Otherwise the allowance must cover it
 * (`common.ApprovedValueTooLow`). With access AllowList the spender must be listed.
 */
export async function checkAllowedAmount(
  ctx: DispatchContext,
  collection: CollectionRecord,
  spender: Address,
  from: Address,
  amount: bigint,
  readAllowance: () => Promise<bigint>,
  what: string,
  /** An amount in words (a fungible collection's in its decimals); pieces are whole numbers. */
  amountText: (amount: bigint) => string = String,
  /** Whether `spender` is `from`'s operator for all tokens (never in a Fungible collection). */
  isOperator: () => Promise<boolean> = async () => false
): Promise<bigint | null> {
  if (spender === from) return null;
  await ensureListedIfRestricted(ctx.state, collection, spender);
  if (ignoresOwnedAmount(ctx, collection, spender)) {
    const allowance = await readAllowance();
    return allowance >= amount ? allowance - amount : null;
  }
  const source = parseNestingAddress(from);
  if (source) {
    const topmost = await walkToTopmostOwner(ctx.state, source, ctx.nestingBudget);
    if (topmost !== spender) {
      throw new DispatchError('common.ApprovedValueTooLow', `${spender} cannot take ${what} out of token ${source.collectionId}/${source.tokenId}: only its topmost owner (${topmost}) can`);
    }
    return null;
  }
  const allowance = await readAllowance();
  if (allowance >= amount) return allowance - amount;
  // The chain reduces an allowance that covers the amount first, and only then asks for the operator.
  if (await isOperator()) return null;
  throw new DispatchError('common.ApprovedValueTooLow', `${spender} may spend ${amountText(allowance)} of ${from}'s ${what}, less than ${amountText(amount)}`);
}

/** The chain's `token_exists`: a Fungible collection's one token (id 0) always exists; else a token row. */
export async function tokenExists(state: StateTx, collectionId: number, tokenId: number): Promise<boolean> {
  const collection = await state.get('collections', collectionId);
  if (!collection) return false;
  if (collection.mode === 'Fungible') return tokenId === 0;
  return (await state.get('tokens', [collectionId, tokenId])) !== undefined;
}
