// Fungible balances and ReFungible pieces held by an NFT's nesting address: the chain's
// TokenChildren entries of those tokens (an FT collection's token is id 0). NFT children are found
// through the tokens' parent index; these, which have no single owner, are listed in one `meta`
// row per parent token, an entry while the parent holds a non-zero amount.
import { readMeta } from '../meta';
import type { StateTx } from '../store';
import type { Address, TokenRef } from '../types';
import { parseNestingAddress } from './addresses';

const childrenKey = (parent: TokenRef) => `children:${parent.collectionId}:${parent.tokenId}`;
const sameRef = (a: TokenRef, b: TokenRef) => a.collectionId === b.collectionId && a.tokenId === b.tokenId;
const byRef = (a: TokenRef, b: TokenRef) => a.collectionId - b.collectionId || a.tokenId - b.tokenId;

/** The fungible and refungible tokens an NFT holds, sorted by collection id then token id. */
export function pieceChildrenOf(state: StateTx, parent: TokenRef): Promise<TokenRef[]> {
  return readMeta<TokenRef[]>(state, childrenKey(parent), []);
}

async function update(state: StateTx, holder: Address, child: TokenRef, present: boolean): Promise<void> {
  const parent = parseNestingAddress(holder);
  if (!parent) return;
  const key = childrenKey(parent);
  const list = (await pieceChildrenOf(state, parent)).filter((c) => !sameRef(c, child));
  if (present) list.push({ collectionId: child.collectionId, tokenId: child.tokenId });
  list.sort(byRef);
  if (list.length > 0) await state.put('meta', { key, value: list });
  else if ((await state.get('meta', key)) !== undefined) await state.delete('meta', key);
}

/** `holder` now holds some of `child`: when it is a token address, that token has it nested (chain: `nest`). */
export function nestPieces(state: StateTx, holder: Address, child: TokenRef): Promise<void> {
  return update(state, holder, child, true);
}

/** `holder` no longer holds any of `child` (chain: `unnest_if_nested`). */
export function unnestPieces(state: StateTx, holder: Address, child: TokenRef): Promise<void> {
  return update(state, holder, child, false);
}
