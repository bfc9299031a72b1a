// `/fungible/*`: a Fungible collection's one token (id 0) and its balances, as the real client's
// `sdk.fungible.*` calls them. Amounts are in whole units of the collection (its `decimals`).
import { z } from 'zod';
import { fungibleAllowance, fungibleBalance, fungibleSupply } from '../../ledger/fungible/state';
import { collectionJson } from '../present/collection';
import { mutation, read } from '../route';
import { address, collectionId } from '../schemas';
import { balanceTransfer } from './balance';
import { createCollectionRoute } from './collections-write';
import { chainCall } from './lookups';
import { collectionBalance, ensureMode, rawAmount, readCollectionOfMode, requireCollectionOfMode, unitAmount, unitsNumber } from './pieces';

const TAG = 'fungible';
const FT_TOKEN_ID = 0;

const collectionQuery = z.object({ collectionId });

export const fungibleRoutes = [
  read({
    path: '/fungible/collection',
    tag: TAG,
    summary: 'A Fungible collection (the collection object with `decimals`); null (200) when it does not exist, 400 for another mode',
    query: collectionQuery,
    handle: async ({ collectionId }, { ledger, ipfsGateway }) => {
      const collection = await ledger.read((tx) => tx.get('collections', collectionId));
      if (!collection) return null;
      ensureMode(collection, 'Fungible');
      return collectionJson(collection, ipfsGateway);
    }
  }),
  read({
    path: '/fungible/balance',
    tag: TAG,
    summary: 'Balance of an address in a Fungible collection {raw, amount, formatted, unit (the token prefix), decimals}',
    query: z.object({ collectionId, address }),
    handle: async ({ collectionId, address }, { ledger }) =>
      ledger.read(async (tx) => {
        const collection = await readCollectionOfMode(tx, collectionId, 'Fungible');
        return collectionBalance(await fungibleBalance(tx, collectionId, address), collection);
      })
  }),
  read({
    path: '/fungible/tokens/allowance',
    tag: TAG,
    summary: 'How much `to` may spend of `from`’s balance {raw, amount, formatted, unit, decimals}',
    query: z.object({ collectionId, from: address, to: address }),
    handle: async ({ collectionId, from, to }, { ledger }) =>
      ledger.read(async (tx) => {
        const collection = await readCollectionOfMode(tx, collectionId, 'Fungible');
        return collectionBalance(await fungibleAllowance(tx, collectionId, from, to), collection);
      })
  }),
  read({
    path: '/fungible/total-pieces',
    tag: TAG,
    summary: 'Total supply of a Fungible collection in whole units {collectionId, amount}',
    query: collectionQuery,
    handle: async ({ collectionId }, { ledger }) =>
      ledger.read(async (tx) => {
        const collection = await readCollectionOfMode(tx, collectionId, 'Fungible');
        return { collectionId, amount: unitsNumber(await fungibleSupply(tx, collectionId), collection.decimals) };
      })
  }),
  createCollectionRoute('/fungible/collection', TAG, 'Fungible'),
  mutation({
    method: 'POST',
    path: '/fungible/tokens',
    tag: TAG,
    summary: 'Mint `amount` whole units to `recipient` (default the signer) (unique.createItem); parsed {collectionId, recipient, amount}',
    body: z.object({ address, recipient: address.optional(), collectionId, amount: unitAmount('amount') }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      const collection = await requireCollectionOfMode(tx, b.collectionId, 'Fungible');
      const amount = rawAmount(b.amount, collection.decimals);
      return chainCall('unique.createItem', { collectionId: b.collectionId, owner: b.recipient ?? b.address, properties: [], kind: 'Fungible', amount });
    }
  }),
  mutation({
    method: 'POST',
    path: '/fungible/tokens/transfer',
    tag: TAG,
    summary: 'Move `amount` from `from` (default the signer) to `recipient` (unique.transferFrom); parsed {collectionId, sender, recipient, amount}',
    body: z.object({ address, from: address.optional(), recipient: address, collectionId, amount: unitAmount('amount') }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      const collection = await requireCollectionOfMode(tx, b.collectionId, 'Fungible');
      const value = rawAmount(b.amount, collection.decimals);
      return chainCall('unique.transferFrom', { from: b.from ?? b.address, to: b.recipient, collectionId: b.collectionId, tokenId: FT_TOKEN_ID, value });
    }
  }),
  mutation({
    method: 'POST',
    path: '/fungible/tokens/approve',
    tag: TAG,
    summary: 'Let `spender` spend up to `amount` of the signer’s balance (0 revokes) (unique.approve); parsed {collectionId, amount}',
    body: z.object({ address, spender: address, collectionId, amount: unitAmount('amount') }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      const collection = await requireCollectionOfMode(tx, b.collectionId, 'Fungible');
      const amount = rawAmount(b.amount, collection.decimals);
      return chainCall('unique.approve', { spender: b.spender, collectionId: b.collectionId, tokenId: FT_TOKEN_ID, amount });
    }
  }),
  mutation({
    method: 'DELETE',
    path: '/fungible',
    tag: TAG,
    summary: 'Burn `amount` of `from`’s balance (default the signer) (unique.burnFrom); parsed {address, collectionId, amount}',
    body: z.object({ address, collectionId, from: address.optional(), amount: unitAmount('amount') }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      const collection = await requireCollectionOfMode(tx, b.collectionId, 'Fungible');
      const value = rawAmount(b.amount, collection.decimals);
      return chainCall('unique.burnFrom', { collectionId: b.collectionId, from: b.from ?? b.address, tokenId: FT_TOKEN_ID, value });
    }
  }),
  { ...balanceTransfer, path: '/fungible/transfer', tag: TAG, summary: 'Transfer native tokens, as POST /balance/transfer (balances.transferKeepAlive); parsed {from, to, amount}' }
];
