// `/refungible/*`: ReFungible tokens and their pieces, as the real client's `sdk.refungible.*`
// calls them. Pieces are whole numbers (a token has at most 10^21).
import { z } from 'zod';
import { ownedTokens, pieceAllowance, readPieces } from '../../ledger/refungible/state';
import { ApiError } from '../errors';
import { collectionJson } from '../present/collection';
import { mutation, read } from '../route';
import { address, collectionId, tokenId } from '../schemas';
import { createCollectionRoute } from './collections-write';
import { chainCall, requireToken } from './lookups';
import { ensureMode, pieceAmount, readCollectionOfMode, requireCollectionOfMode } from './pieces';
import { mintItem, mintProperties } from './tokens-write';

const TAG = 'refungible';

const tokenQuery = z.object({ collectionId, tokenId });
const amount = pieceAmount('amount');

/** The ReFungible collection and the token a mutation names (400 when either is missing). */
async function requireRefungibleToken(tx: Parameters<typeof requireToken>[0], collectionId: number, tokenId: number) {
  await requireCollectionOfMode(tx, collectionId, 'ReFungible');
  await requireToken(tx, collectionId, tokenId);
}

export const refungibleRoutes = [
  read({
    path: '/refungible/collection',
    tag: TAG,
    summary: 'A ReFungible collection; null (200) when it does not exist, 400 for another mode',
    query: z.object({ collectionId }),
    handle: async ({ collectionId }, { ledger, ipfsGateway }) => {
      const collection = await ledger.read((tx) => tx.get('collections', collectionId));
      if (!collection) return null;
      ensureMode(collection, 'ReFungible');
      return collectionJson(collection, ipfsGateway);
    }
  }),
  read({
    path: '/refungible/tokens/balance',
    tag: TAG,
    summary: 'Pieces of a token an address holds {collectionId, tokenId, amount}',
    query: z.object({ collectionId, tokenId, address }),
    handle: async ({ collectionId, tokenId, address }, { ledger }) =>
      ledger.read(async (tx) => {
        await readCollectionOfMode(tx, collectionId, 'ReFungible');
        const pieces = await readPieces(tx, collectionId, tokenId);
        return { collectionId, tokenId, amount: Number(pieces?.balances[address] ?? 0n) };
      })
  }),
  read({
    path: '/refungible/tokens/allowance',
    tag: TAG,
    summary: 'Pieces of `from`’s that `to` may spend {amount}; 0 for a missing token',
    query: z.object({ collectionId, tokenId, from: address, to: address }),
    handle: async ({ collectionId, tokenId, from, to }, { ledger }) => ({
      amount: Number(await ledger.read((tx) => pieceAllowance(tx, collectionId, tokenId, from, to)))
    })
  }),
  read({
    path: '/refungible/tokens/total-pieces',
    tag: TAG,
    summary: 'Pieces a token is split into {collectionId, tokenId, amount}; 404 for a missing token',
    query: tokenQuery,
    handle: async ({ collectionId, tokenId }, { ledger }) => {
      const pieces = await ledger.read((tx) => readPieces(tx, collectionId, tokenId));
      if (!pieces) throw new ApiError('NotFoundError', 'Token not found', { collectionId, tokenId });
      return { collectionId, tokenId, amount: Number(pieces.total) };
    }
  }),
  read({
    path: '/refungible/tokens/account-tokens',
    tag: TAG,
    summary: 'Tokens of a collection an address holds pieces of {tokens: [{collectionId, tokenId, amount}]}',
    query: z.object({ collectionId, address }),
    handle: async ({ collectionId, address }, { ledger }) =>
      ledger.read(async (tx) => {
        await readCollectionOfMode(tx, collectionId, 'ReFungible');
        const tokens = [];
        for (const tokenId of await ownedTokens(tx, collectionId, address)) {
          const pieces = await readPieces(tx, collectionId, tokenId);
          tokens.push({ collectionId, tokenId, amount: Number(pieces?.balances[address] ?? 0n) });
        }
        return { tokens };
      })
  }),
  createCollectionRoute('/refungible/collection', TAG, 'ReFungible'),
  mutation({
    method: 'POST',
    path: '/refungible/tokens',
    tag: TAG,
    summary: 'Mint a token of `amount` pieces (default 1) to `owner` (default the signer) from `data` and/or `properties` (unique.createItem); parsed {collectionId, tokenId, owner, amount}',
    body: mintItem.extend({ address, collectionId, amount: amount.optional().describe('Pieces (default 1)') }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      const collection = await requireCollectionOfMode(tx, b.collectionId, 'ReFungible');
      const pieces = b.amount || 1n;
      return chainCall('unique.createItem', { collectionId: b.collectionId, owner: b.owner ?? b.address, properties: mintProperties(b, collection), kind: 'ReFungible', amount: pieces });
    }
  }),
  mutation({
    method: 'POST',
    path: '/refungible/tokens/transfer',
    tag: TAG,
    summary: 'Move `amount` pieces (default 1) from `from` (default the signer) to `to` (unique.transferFrom); parsed {collectionId, tokenId, from, to, amount}',
    body: z.object({ collectionId, tokenId, address, from: address.optional(), to: address, amount: amount.optional() }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireRefungibleToken(tx, b.collectionId, b.tokenId);
      return chainCall('unique.transferFrom', { from: b.from ?? b.address, to: b.to, collectionId: b.collectionId, tokenId: b.tokenId, value: b.amount ?? 1n });
    }
  }),
  mutation({
    method: 'POST',
    path: '/refungible/tokens/approve',
    tag: TAG,
    summary: 'Let `spender` spend up to `amount` pieces (default 1; 0 revokes) of the signer’s (unique.approve); parsed {collectionId, tokenId, amount}',
    body: z.object({ address, spender: address, collectionId, tokenId, amount: amount.optional() }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireRefungibleToken(tx, b.collectionId, b.tokenId);
      return chainCall('unique.approve', { spender: b.spender, collectionId: b.collectionId, tokenId: b.tokenId, amount: b.amount ?? 1n });
    }
  }),
  mutation({
    method: 'POST',
    path: '/refungible/tokens/repartition',
    tag: TAG,
    summary: 'Split a token the signer holds whole into `amount` pieces (unique.repartition); parsed {success}',
    body: z.object({ collectionId, tokenId, address, amount }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireRefungibleToken(tx, b.collectionId, b.tokenId);
      return chainCall('unique.repartition', { collectionId: b.collectionId, tokenId: b.tokenId, amount: b.amount });
    }
  }),
  mutation({
    method: 'DELETE',
    path: '/refungible',
    tag: TAG,
    summary: 'Burn `amount` pieces of `from`’s (default the signer) (unique.burnFrom); parsed {address, collectionId, tokenId, amount}',
    body: z.object({ collectionId, tokenId, address, from: address.optional(), amount }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireCollectionOfMode(tx, b.collectionId, 'ReFungible');
      return chainCall('unique.burnFrom', { collectionId: b.collectionId, from: b.from ?? b.address, tokenId: b.tokenId, value: b.amount });
    }
  })
];
