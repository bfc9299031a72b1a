// Token objects with their nesting: Get token (direct children, one level) and the NestedToken
// tree of Get bundle (reference 9.3, DECISIONS 2). The records are gathered inside a read
// transaction (`gatherCollections`); presenting decodes token data and runs after it.
import type { BundleNode } from '../../ledger/tokens/nesting';
import type { QueryTx } from '../../ledger/store';
import type { CollectionRecord, TokenRecord } from '../../ledger/types';
import { collectionJson } from './collection';
import { tokenJson } from './token';

/** Collections by id, as read for presenting a set of tokens. */
export type CollectionsById = Map<number, CollectionRecord>;

/** Read the collection of every token once. */
export async function gatherCollections(tx: QueryTx, tokens: Iterable<TokenRecord>, known: CollectionsById = new Map()): Promise<CollectionsById> {
  const byId: CollectionsById = new Map(known);
  for (const token of tokens) {
    if (byId.has(token.collectionId)) continue;
    const collection = await tx.get('collections', token.collectionId);
    if (collection) byId.set(token.collectionId, collection);
  }
  return byId;
}

/** Every token of a bundle tree, root first. */
export function bundleTokens(node: BundleNode): TokenRecord[] {
  return [node.token, ...node.children.flatMap(bundleTokens)];
}

function present(token: TokenRecord, collections: CollectionsById, ipfsGateway: string) {
  // A token always has its collection (a collection is destroyed only when empty); without one
  // there is no schema, and the token shows as undecoded.
  const collection = collections.get(token.collectionId) ?? ({ properties: [] } as unknown as CollectionRecord);
  return tokenJson(token, collection, ipfsGateway);
}

/**
 * Get token: the token object with `nestingChildTokens`, its direct children as token objects, and
 * its `collection` as Get collection answers it (reference 9.2, the later real service's shape).
 */
export async function tokenWithChildrenJson(token: TokenRecord, children: TokenRecord[], collections: CollectionsById, ipfsGateway: string) {
  const collection = collections.get(token.collectionId);
  return {
    ...(await present(token, collections, ipfsGateway)),
    nestingChildTokens: await Promise.all(children.map((child) => present(child, collections, ipfsGateway))),
    collection: collection ? await collectionJson(collection, ipfsGateway) : null
  };
}

export interface NestedTokenJson extends Awaited<ReturnType<typeof tokenJson>> {
  nestingChildTokens: NestedTokenJson[];
}

/** Get bundle: every node the token object plus `nestingChildTokens` (empty for a leaf). */
export async function nestedTokenJson(node: BundleNode, collections: CollectionsById, ipfsGateway: string): Promise<NestedTokenJson> {
  return {
    ...(await present(node.token, collections, ipfsGateway)),
    nestingChildTokens: await Promise.all(node.children.map((child) => nestedTokenJson(child, collections, ipfsGateway)))
  };
}
