// What an account holds across collections, a page at a time, as a wallet lists it: its NFTs (the
// tokens index by owner), its pieces of refungible tokens and its fungible balances (one meta row
// per collection, read while walking the collection ids handed out, a bounded stretch per page).
import { fungibleBalance, fungibleSupply } from './fungible/state';
import { META, readMeta } from './meta';
import { ownedTokens, readPieces } from './refungible/state';
import type { QueryTx } from './store';
import type { Address, CollectionRecord, TokenRecord } from './types';

export type HoldingKind = 'nft' | 'pieces' | 'fungible';
export const HOLDING_KINDS: readonly HoldingKind[] = ['nft', 'pieces', 'fungible'];

export interface Holding {
  collection: CollectionRecord;
  /** 0 for a fungible balance. */
  tokenId: number;
  /** The token row (NFT, refungible); absent for a fungible balance. */
  token?: TokenRecord;
  /** 1 for an NFT, pieces held, or the balance in the smallest unit. */
  amount: bigint;
  /** The token's pieces in all (refungible), the collection's supply (fungible), 1 (NFT). */
  total: bigint;
}

/** A place in the list, (collection, token) ascending; a page starts after it. */
export interface HoldingPlace {
  collectionId: number;
  tokenId: number;
}

export interface HoldingsPage {
  holdings: Holding[];
  /** Where the next page starts; null at the end. */
  next: HoldingPlace | null;
}

/** Holdings one page lists at most. */
export const MAX_HOLDINGS_PAGE = 100;
/** Collections one page of pieces or fungible balances walks at most (the rest come with `next`). */
export const COLLECTIONS_PER_PAGE = 1_000;

const after = (a: HoldingPlace, b: HoldingPlace) => a.collectionId > b.collectionId || (a.collectionId === b.collectionId && a.tokenId > b.tokenId);

/** The account's NFTs after `from`, by (collection, token): the owner index's keys, then one row per token shown. */
async function nftPage(tx: QueryTx, owner: Address, from: HoldingPlace, limit: number): Promise<HoldingsPage> {
  const refs = (await tx.tokensOfOwner(owner)).filter((ref) => after(ref, from)).sort((a, b) => a.collectionId - b.collectionId || a.tokenId - b.tokenId);
  const collections = new Map<number, CollectionRecord | undefined>();
  const holdings: Holding[] = [];
  for (const ref of refs) {
    if (!collections.has(ref.collectionId)) collections.set(ref.collectionId, await tx.get('collections', ref.collectionId));
    const collection = collections.get(ref.collectionId);
    // A refungible token held whole is listed with the pieces.
    if (collection?.mode !== 'NFT') continue;
    if (holdings.length === limit) return { holdings, next: placeOf(holdings[holdings.length - 1]) };
    const token = await tx.get('tokens', [ref.collectionId, ref.tokenId]);
    if (token) holdings.push({ collection, tokenId: ref.tokenId, token, amount: 1n, total: 1n });
  }
  return { holdings, next: null };
}

const placeOf = (h: Holding): HoldingPlace => ({ collectionId: h.collection.id, tokenId: h.tokenId });

/** The account's refungible pieces or fungible balances after `from`, walking collection ids upward. */
async function walkPage(tx: QueryTx, owner: Address, kind: 'pieces' | 'fungible', from: HoldingPlace, limit: number): Promise<HoldingsPage> {
  const created = await readMeta<number>(tx, META.createdCollectionCount, 0);
  const holdings: Holding[] = [];
  const first = Math.max(1, from.collectionId);
  const last = Math.min(created, first + COLLECTIONS_PER_PAGE - 1);
  for (let id = first; id <= last; id++) {
    const collection = await tx.get('collections', id);
    if (!collection) continue;
    if (kind === 'fungible' && collection.mode === 'Fungible') {
      if (id === from.collectionId) continue;
      const amount = await fungibleBalance(tx, id, owner);
      if (amount === 0n) continue;
      if (holdings.length === limit) return { holdings, next: placeOf(holdings[holdings.length - 1]) };
      holdings.push({ collection, tokenId: 0, amount, total: await fungibleSupply(tx, id) });
    } else if (kind === 'pieces' && collection.mode === 'ReFungible') {
      for (const tokenId of await ownedTokens(tx, id, owner)) {
        if (!after({ collectionId: id, tokenId }, from)) continue;
        if (holdings.length === limit) return { holdings, next: placeOf(holdings[holdings.length - 1]) };
        const [pieces, token] = await Promise.all([readPieces(tx, id, tokenId), tx.get('tokens', [id, tokenId])]);
        if (pieces && token) holdings.push({ collection, tokenId, token, amount: pieces.balances[owner] ?? 0n, total: pieces.total });
      }
    }
  }
  // The walk stopped at its bound before the last collection: the next page walks on from there.
  return { holdings, next: last < created ? { collectionId: last, tokenId: Number.MAX_SAFE_INTEGER } : null };
}

/** A page of what `owner` holds of one kind, after `from` (from the start when absent), at most `limit`. */
export function holdingsOf(tx: QueryTx, owner: Address, kind: HoldingKind, from: HoldingPlace | undefined, limit: number): Promise<HoldingsPage> {
  const start = from ?? { collectionId: 0, tokenId: 0 };
  const size = Math.max(1, Math.min(limit, MAX_HOLDINGS_PAGE));
  return kind === 'nft' ? nftPage(tx, owner, start, size) : walkPage(tx, owner, kind, start, size);
}
