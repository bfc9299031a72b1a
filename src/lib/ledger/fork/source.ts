// The port a fork reads its source through: the source chain's state at the fork block, as the
// ledger's own rows. The host wires it to a REST client (src/lib/fork); the ledger sees no HTTP.
import type { RefungiblePieces } from '../refungible/state';
import type { AccountRecord, Address, CollectionRecord, TokenRecord, TokenRef } from '../types';

/** Where a fork comes from: named in the chain properties and /dev/status. */
export interface ForkOrigin {
  /** The source's REST base url (`…/v1`). */
  source: string;
  /** The source's block the fork is pinned at. */
  blockHash: string;
  blockNumber: number | null;
  /** The source's own genesis hash (a fork of a fork names its parent's). */
  sourceGenesisHash: string;
  /** Collections created and destroyed on the source up to the fork block: the fork's ids continue after them. */
  collections: { created: number; destroyed: number };
  /** Reads the source cannot answer at the fork block (the real service ignores `at` on some). */
  unpinned: string[];
}

/** Every read answers the state at the fork block; null / undefined / [] = nothing there then. */
export interface ForkSource {
  readonly origin: ForkOrigin;
  collection(collectionId: number): Promise<CollectionRecord | null>;
  token(collectionId: number, tokenId: number): Promise<TokenRecord | null>;
  /** null when the account has nothing (no balance, nonce 0): the chain keeps no row then. */
  account(address: Address): Promise<AccountRecord | null>;
  allowList(collectionId: number): Promise<Address[]>;
  tokenIdsOfCollection(collectionId: number): Promise<number[]>;
  /** Tokens an address owns directly, of one collection or of every one. */
  tokensOfOwner(owner: Address, collectionId?: number): Promise<TokenRef[]>;
  childrenOf(collectionId: number, tokenId: number): Promise<TokenRef[]>;
  fungibleSupply(collectionId: number): Promise<bigint>;
  fungibleBalance(collectionId: number, owner: Address): Promise<bigint>;
  fungibleAllowance(collectionId: number, owner: Address, spender: Address): Promise<bigint>;
  refungiblePieces(collectionId: number, tokenId: number): Promise<RefungiblePieces | null>;
  refungibleOwned(collectionId: number, owner: Address): Promise<number[]>;
  pieceAllowance(collectionId: number, tokenId: number, owner: Address, spender: Address): Promise<bigint>;
}

export type ForkSourceErrorKind =
  /** Could not connect, or the source answered 5xx/429 after every retry. */
  | 'unreachable'
  /** No answer within the timeout. */
  | 'timeout'
  /** The answer was not what a REST v1 service answers (malformed, too large, hostile). */
  | 'invalid'
  /** The source cannot answer this read at all (for example holders of a split ReFungible token). */
  | 'unsupported';

/** The source could not give what the fork never copied: answered 502 (504 for a timeout), naming the source. */
export class ForkSourceError extends Error {
  override readonly name = 'ForkSourceError';
  constructor(
    readonly kind: ForkSourceErrorKind,
    message: string,
    readonly source: string
  ) {
    super(message);
  }
}
