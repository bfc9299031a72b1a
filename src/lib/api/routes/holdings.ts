// Opalite extension: what an account holds across collections, a page of one kind at a time (the
// wallet's "My tokens"): its NFTs, its pieces of refungible tokens, its fungible balances.
import { z } from 'zod';
import { HOLDING_KINDS, MAX_HOLDINGS_PAGE, holdingsOf, type Holding } from '../../ledger/holdings';
import { tokenJson } from '../present/token';
import { read } from '../route';
import { address } from '../schemas';

/** A place in the list, `<collectionId>:<tokenId>` (the `next` of the previous page). */
const afterPlace = z
  .string({ error: 'after must be a string' })
  .max(40, { error: 'after must be at most 40 characters long' })
  .regex(/^\d{1,10}:\d{1,16}$/, { error: 'after must be <collectionId>:<tokenId>, as the previous page’s next' })
  .transform((text) => {
    const [collectionId, tokenId] = text.split(':').map(Number);
    return { collectionId, tokenId };
  });

const holdingsQuery = z.object({
  address,
  kind: z.enum(HOLDING_KINDS, { error: `kind must be one of ${HOLDING_KINDS.join(', ')}` }).default('nft'),
  after: afterPlace.optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be an integer number' })
    .positive({ error: 'limit must be a positive number' })
    .max(MAX_HOLDINGS_PAGE, { error: `limit must be at most ${MAX_HOLDINGS_PAGE}` })
    .default(24)
});

async function holdingJson(holding: Holding, ipfsGateway: string) {
  const { collection } = holding;
  return {
    collectionId: collection.id,
    tokenId: holding.tokenId,
    collection: { mode: collection.mode, name: collection.name, tokenPrefix: collection.tokenPrefix, decimals: collection.decimals },
    amount: holding.amount.toString(),
    total: holding.total.toString(),
    token: holding.token ? await tokenJson(holding.token, collection, ipfsGateway) : null
  };
}

export const holdingRoutes = [
  read({
    path: '/tokens/holdings',
    tag: 'tokens',
    summary:
      `Opalite extension: what an address holds across collections, one kind a page, by (collection, token): kind nft (tokens it owns directly), pieces (of refungible tokens: amount of total), fungible (balances: amount of the supply, smallest unit) {holdings: [{collectionId, tokenId, collection: {mode, name, tokenPrefix, decimals}, amount, total, token}], next} (pass next as after; at most ${MAX_HOLDINGS_PAGE}; next may come with an empty page while collections remain to be walked)`,
    query: holdingsQuery,
    handle: async ({ address: owner, kind, after, limit }, { ledger, ipfsGateway }) => {
      const page = await ledger.read((tx) => holdingsOf(tx, owner, kind, after, limit));
      return {
        holdings: await Promise.all(page.holdings.map((h) => holdingJson(h, ipfsGateway))),
        next: page.next ? `${page.next.collectionId}:${page.next.tokenId}` : null
      };
    }
  })
];
