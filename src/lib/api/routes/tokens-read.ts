// Token reads (reference sections 8, 9.2, 9.3). Each answers the head's state, or the state as of
// the block `at` / `blockHashAt` names (api/at-block.ts). A read about one token answers 404 NotFoundError when
// the token does not exist, 404 CollectionNotFoundError when its collection does not; list reads (properties, children) answer an empty
// list; predicates and amounts the chain answers for any id (exists, allowance, balance) answer
// false / 0 for a missing token, and 404 CollectionNotFoundError for a missing collection.
import { z } from 'zod';
import { checksumAddress, tokenNestingAddress } from '../../codec/nesting';
import { fungibleBalance } from '../../ledger/fungible/state';
import { ownedTokens, pieceBalance } from '../../ledger/refungible/state';
import { bundleRoot, bundleTree, childRefsOf, childrenOf, isBundle, parentOf, topmostOwner } from '../../ledger/tokens/nesting';
import type { QueryTx } from '../../ledger/store';
import type { CollectionRecord, TokenRecord } from '../../ledger/types';
import { propertyJson } from '../present/collection';
import { bundleTokens, gatherCollections, nestedTokenJson, tokenWithChildrenJson } from '../present/nested';
import { jsonText } from '../json';
import { read } from '../route';
import { address, collectionId, tokenId } from '../schemas';
import {
  collectionNotFound,
  fromReadError,
  onlyKeys,
  propertyKeysQuery,
  requireNftMode,
  tokenNotFound,
  tokenQuery
} from './lookups';

const TAG = 'tokens';

const keysQuery = z.object({ collectionId, tokenId, propertyKeys: propertyKeysQuery });
const accountTokensQuery = z.object({
  address,
  collectionId: collectionId.optional().describe('Only tokens of this collection (Opalite: optional)')
});
const allowanceQuery = z.object({ collectionId, tokenId, from: address, to: address });
const balanceQuery = z.object({ collectionId, tokenId, address });

/** The token, or 404: CollectionNotFoundError when its collection is missing (DECISIONS 2), else NotFoundError. */
async function existingToken(tx: QueryTx, collectionId: number, tokenId: number): Promise<TokenRecord> {
  const token = await tx.get('tokens', [collectionId, tokenId]);
  if (token) return token;
  throw (await tx.get('collections', collectionId)) ? tokenNotFound() : collectionNotFound();
}

/** The collection, or 404 CollectionNotFoundError. */
async function existingCollection(tx: QueryTx, collectionId: number): Promise<CollectionRecord> {
  const collection = await tx.get('collections', collectionId);
  if (!collection) throw collectionNotFound();
  return collection;
}

export const tokenReadRoutes = [
  read({
    path: '/tokens',
    tag: TAG,
    summary: 'Get a token: owner, decoded data, properties, nestingParentToken, nestingChildTokens (direct children)',
    query: tokenQuery,
    handle: ({ collectionId, tokenId }, { ledger, ipfsGateway }) =>
      ledger.memo(
        `token:${collectionId}:${tokenId}:${ipfsGateway}`,
        async (tx) => {
          // The three lookups are independent: issue them together in the one transaction.
          const [token, children, collection] = await Promise.all([
            existingToken(tx, collectionId, tokenId),
            childrenOf(tx, { collectionId, tokenId }),
            tx.get('collections', collectionId)
          ]);
          const known = new Map(collection ? [[collectionId, collection]] : []);
          return { token, children, collections: await gatherCollections(tx, [token, ...children], known) };
        },
        // Kept serialised: a token read again answers the same text (its collection embedded makes it kilobytes).
        async ({ token, children, collections }) => jsonText(await tokenWithChildrenJson(token, children, collections, ipfsGateway))
      )
  }),
  read({
    path: '/tokens/properties',
    tag: TAG,
    summary: 'Token properties {properties: [{key, value, valueHex}]}, optionally only some keys; empty when none or missing',
    query: keysQuery,
    handle: async ({ collectionId, tokenId, propertyKeys }, { ledger }) => {
      const token = await ledger.read((tx) => tx.get('tokens', [collectionId, tokenId]));
      return { properties: onlyKeys(token?.properties ?? [], propertyKeys).map(propertyJson) };
    }
  }),
  read({
    path: '/tokens/exists',
    tag: TAG,
    summary: 'Whether a token exists {isExists}',
    query: tokenQuery,
    handle: async ({ collectionId, tokenId }, { ledger }) => ({
      // A predicate about any id of a collection that exists; a missing collection is 404 (DECISIONS 2).
      isExists: await ledger.read(async (tx) => {
        const [token] = await Promise.all([tx.get('tokens', [collectionId, tokenId]), existingCollection(tx, collectionId)]);
        return token !== undefined;
      })
    })
  }),
  read({
    path: '/tokens/owner',
    tag: TAG,
    summary: 'Direct owner of a token {owner} (a nesting address when the token is nested)',
    query: tokenQuery,
    handle: async ({ collectionId, tokenId }, { ledger }) => ({
      owner: (await ledger.read((tx) => existingToken(tx, collectionId, tokenId))).owner
    })
  }),
  read({
    path: '/tokens/children',
    tag: TAG,
    summary: 'Tokens nested directly in a token {children: [{collectionId, tokenId}]} (NFTs, ReFungible tokens it holds pieces of, Fungible collections it holds a balance of as token 0); empty when none or missing',
    query: tokenQuery,
    handle: async ({ collectionId, tokenId }, { ledger }) => ({ children: await ledger.read((tx) => childRefsOf(tx, { collectionId, tokenId })) })
  }),
  read({
    path: '/tokens/parent',
    tag: TAG,
    summary: 'Parent token {collectionId, tokenId, address (checksummed nesting address)}; null (200) when the token is not nested',
    query: tokenQuery,
    handle: async ({ collectionId, tokenId }, { ledger }) => {
      const token = await ledger.read((tx) => existingToken(tx, collectionId, tokenId));
      const parent = parentOf(token);
      if (!parent) return null;
      return { ...parent, address: checksumAddress(tokenNestingAddress(parent.collectionId, parent.tokenId)) };
    }
  }),
  read({
    path: '/tokens/topmost-owner',
    tag: TAG,
    summary: 'The account at the top of the chain of owners of a token {topmostOwner}; null for a ReFungible token split between holders',
    query: tokenQuery,
    handle: async ({ collectionId, tokenId }, { ledger }) =>
      ledger.read(async (tx) => {
        await existingToken(tx, collectionId, tokenId);
        return { topmostOwner: await topmostOwner(tx, collectionId, tokenId).catch(fromReadError) };
      })
  }),
  read({
    path: '/tokens/is-bundle',
    tag: TAG,
    summary: 'Whether a token is part of a bundle (nested, or has nested tokens) {isBundle}',
    query: tokenQuery,
    handle: async ({ collectionId, tokenId }, { ledger }) =>
      ledger.read(async (tx) => {
        await existingToken(tx, collectionId, tokenId);
        return { isBundle: await isBundle(tx, { collectionId, tokenId }) };
      })
  }),
  read({
    path: '/tokens/get-bundle',
    tag: TAG,
    summary: 'The whole bundle a token belongs to, from its topmost token: NestedToken tree (token objects with nestingChildTokens)',
    query: tokenQuery,
    handle: async ({ collectionId, tokenId }, { ledger, ipfsGateway }) => {
      const { tree, collections } = await ledger.read(async (tx) => {
        await existingToken(tx, collectionId, tokenId);
        const tree = await bundleRoot(tx, { collectionId, tokenId })
          .then((root) => bundleTree(tx, root, 5))
          .catch(fromReadError);
        return { tree, collections: await gatherCollections(tx, bundleTokens(tree)) };
      });
      return nestedTokenJson(tree, collections, ipfsGateway);
    }
  }),
  read({
    path: '/tokens/account-tokens',
    tag: TAG,
    summary:
      'Tokens an address owns directly {tokens: [{collectionId, tokenId}]}, optionally of one collection (of a ReFungible one: those it holds pieces of; of a Fungible one: token 0 while it holds a balance)',
    query: accountTokensQuery,
    handle: async ({ address, collectionId }, { ledger }) =>
      ledger.read(async (tx) => {
        const collection = collectionId === undefined ? undefined : await existingCollection(tx, collectionId);
        if (collection?.mode === 'ReFungible') return { tokens: (await ownedTokens(tx, collection.id, address)).map((tokenId) => ({ collectionId: collection.id, tokenId })) };
        if (collection?.mode === 'Fungible') return { tokens: (await fungibleBalance(tx, collection.id, address)) > 0n ? [{ collectionId: collection.id, tokenId: 0 }] : [] };
        const tokens = await tx.tokensOfOwner(address, collectionId);
        return { tokens: tokens.map((t) => ({ collectionId: t.collectionId, tokenId: t.tokenId })) };
      })
  }),
  read({
    path: '/tokens/allowance',
    tag: TAG,
    summary: 'Whether `to` is approved to move the token on behalf of its owner `from` {isAllowed}',
    query: allowanceQuery,
    handle: async ({ collectionId, tokenId, from, to }, { ledger }) =>
      ledger.read(async (tx) => {
        requireNftMode(await existingCollection(tx, collectionId));
        const token = await tx.get('tokens', [collectionId, tokenId]);
        return { isAllowed: token !== undefined && token.owner === from && token.approved === to };
      })
  }),
  read({
    path: '/tokens/balance',
    tag: TAG,
    summary: 'How much of a token an address owns {amount}: 1 or 0 for an NFT, its pieces of a ReFungible token, 0 in a Fungible collection (see /fungible/balance)',
    query: balanceQuery,
    handle: async ({ collectionId, tokenId, address }, { ledger }) =>
      ledger.read(async (tx) => {
        const collection = await existingCollection(tx, collectionId);
        if (collection.mode === 'ReFungible') return { amount: Number(await pieceBalance(tx, collectionId, tokenId, address)) };
        // Token ids here are positive: a Fungible collection's one token (0) is read at /fungible/balance.
        if (collection.mode === 'Fungible') return { amount: 0 };
        const token = await tx.get('tokens', [collectionId, tokenId]);
        return { amount: token?.owner === address ? 1 : 0 };
      })
  })
];
