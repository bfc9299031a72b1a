// Where a ReFungible token's pieces live: one `meta` row per token with its total pieces and every
// holder's balance (the chain's TotalSupply and Balance prefix of the token), one row per account
// and collection listing the tokens it holds pieces of (the chain's Owned and AccountBalance), and
// one row per allowance. The token row in `tokens` keeps the properties and, as `owner`, the sole
// holder, or PARTIAL_OWNER while the pieces are spread (the chain's "multiple owners").
import { readMeta } from '../meta';
import type { StateTx } from '../store';
import type { Address } from '../types';
import { putAmount, readAmount } from '../fungible/state';

/** The owner recorded for a token whose pieces are not all held by one account (chain: 0xff…ff). */
export const PARTIAL_OWNER: Address = '0xffffffffffffffffffffffffffffffffffffffff';

export interface RefungiblePieces {
  /** The token's total pieces. */
  total: bigint;
  /** Pieces per holder; holders with none are absent. */
  balances: Record<Address, bigint>;
}

export const RFT_KEYS = {
  pieces: (collectionId: number, tokenId: number) => `rft:pieces:${collectionId}:${tokenId}`,
  owned: (collectionId: number, owner: Address) => `rft:owned:${collectionId}:${owner}`,
  allowance: (collectionId: number, tokenId: number, owner: Address, spender: Address) =>
    `rft:allowance:${collectionId}:${tokenId}:${owner}:${spender}`
} as const;

/** The token's pieces, or undefined when the token does not exist. */
export function readPieces(state: StateTx, collectionId: number, tokenId: number): Promise<RefungiblePieces | undefined> {
  return readMeta<RefungiblePieces | undefined>(state, RFT_KEYS.pieces(collectionId, tokenId), undefined);
}

export async function writePieces(state: StateTx, collectionId: number, tokenId: number, pieces: RefungiblePieces | null): Promise<void> {
  const key = RFT_KEYS.pieces(collectionId, tokenId);
  if (pieces) await state.put('meta', { key, value: pieces });
  else await state.delete('meta', key);
}

export async function pieceBalance(state: StateTx, collectionId: number, tokenId: number, owner: Address): Promise<bigint> {
  return (await readPieces(state, collectionId, tokenId))?.balances[owner] ?? 0n;
}

/** The sole holder of every piece, or PARTIAL_OWNER (the chain's `token_owner`). */
export function ownerOfPieces(pieces: RefungiblePieces): Address {
  const holders = Object.keys(pieces.balances);
  return holders.length === 1 ? holders[0] : PARTIAL_OWNER;
}

/** Ids of the tokens of a collection an account holds pieces of, ascending. */
export function ownedTokens(state: StateTx, collectionId: number, owner: Address): Promise<number[]> {
  return readMeta<number[]>(state, RFT_KEYS.owned(collectionId, owner), []);
}

/** Record that `owner` now holds (or no longer holds) pieces of `tokenId`. */
export async function setOwned(state: StateTx, collectionId: number, owner: Address, tokenId: number, holds: boolean): Promise<void> {
  const key = RFT_KEYS.owned(collectionId, owner);
  const list = (await ownedTokens(state, collectionId, owner)).filter((id) => id !== tokenId);
  if (holds) list.push(tokenId);
  list.sort((a, b) => a - b);
  if (list.length > 0) await state.put('meta', { key, value: list });
  else if ((await state.get('meta', key)) !== undefined) await state.delete('meta', key);
}

/** An allowance; zero once the token is gone (the chain clears them with the token). */
export async function pieceAllowance(state: StateTx, collectionId: number, tokenId: number, owner: Address, spender: Address): Promise<bigint> {
  if (!(await readPieces(state, collectionId, tokenId))) return 0n;
  return readAmount(state, RFT_KEYS.allowance(collectionId, tokenId, owner, spender));
}

export function writePieceAllowance(state: StateTx, collectionId: number, tokenId: number, owner: Address, spender: Address, amount: bigint): Promise<void> {
  return putAmount(state, RFT_KEYS.allowance(collectionId, tokenId, owner, spender), amount);
}
