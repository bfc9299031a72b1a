// A fork source over another ledger's store, read at its head: the reference the REST source
// (src/lib/fork) is checked against, and the source of forks within one process (tests).
import { fungibleAllowance, fungibleBalance, fungibleSupply } from '../fungible/state';
import { ownedTokens, pieceAllowance, readPieces, type RefungiblePieces } from '../refungible/state';
import type { QueryTx, Store } from '../store';
import type { AccountRecord, Address, CollectionRecord, TokenRecord, TokenRef } from '../types';
import type { ForkOrigin, ForkSource } from './source';

export class StoreForkSource implements ForkSource {
  constructor(
    private readonly store: Store,
    readonly origin: ForkOrigin
  ) {}

  private read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    return this.store.read(fn);
  }

  async collection(collectionId: number): Promise<CollectionRecord | null> {
    return (await this.read((tx) => tx.get('collections', collectionId))) ?? null;
  }
  async token(collectionId: number, tokenId: number): Promise<TokenRecord | null> {
    return (await this.read((tx) => tx.get('tokens', [collectionId, tokenId]))) ?? null;
  }
  async account(address: Address): Promise<AccountRecord | null> {
    return (await this.read((tx) => tx.get('accounts', address))) ?? null;
  }
  allowList(collectionId: number): Promise<Address[]> {
    return this.read((tx) => tx.allowListOf(collectionId));
  }
  tokenIdsOfCollection(collectionId: number): Promise<number[]> {
    return this.read((tx) => tx.tokenIdsOfCollection(collectionId));
  }
  tokensOfOwner(owner: Address, collectionId?: number): Promise<TokenRef[]> {
    return this.read((tx) => tx.tokensOfOwner(owner, collectionId));
  }
  async childrenOf(collectionId: number, tokenId: number): Promise<TokenRef[]> {
    const rows = await this.read((tx) => tx.childrenOf(collectionId, tokenId));
    return rows.map((t) => ({ collectionId: t.collectionId, tokenId: t.tokenId }));
  }
  fungibleSupply(collectionId: number): Promise<bigint> {
    return this.read((tx) => fungibleSupply(tx, collectionId));
  }
  fungibleBalance(collectionId: number, owner: Address): Promise<bigint> {
    return this.read((tx) => fungibleBalance(tx, collectionId, owner));
  }
  fungibleAllowance(collectionId: number, owner: Address, spender: Address): Promise<bigint> {
    return this.read((tx) => fungibleAllowance(tx, collectionId, owner, spender));
  }
  async refungiblePieces(collectionId: number, tokenId: number): Promise<RefungiblePieces | null> {
    return (await this.read((tx) => readPieces(tx, collectionId, tokenId))) ?? null;
  }
  refungibleOwned(collectionId: number, owner: Address): Promise<number[]> {
    return this.read((tx) => ownedTokens(tx, collectionId, owner));
  }
  pieceAllowance(collectionId: number, tokenId: number, owner: Address, spender: Address): Promise<bigint> {
    return this.read((tx) => pieceAllowance(tx, collectionId, tokenId, owner, spender));
  }
}
