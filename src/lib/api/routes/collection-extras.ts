// collection.nextSponsored (`GET /collections/next-sponsored`): the chain's `unique_nextSponsored`
// RPC. (collection.creation, the client's deprecated name of create, posts to `/collections`.)
import { z } from 'zod';
import { effectiveLimits } from '../../ledger/access';
import { readMeta, sponsoredAtKey } from '../../ledger/meta';
import { tokenSlot } from '../../ledger/chain/sponsorship';
import { read } from '../route';
import { address, collectionId, id } from '../schemas';
import { collectionNotFound } from './lookups';

const nextSponsoredQuery = z.object({
  collectionId,
  address,
  // A Fungible collection's one token is 0.
  tokenId: z.union([z.literal('0').transform(() => 0), z.literal(0), id('tokenId')])
});

export const collectionExtraRoutes = [
  read({
    path: '/collections/next-sponsored',
    tag: 'collections',
    summary:
      'Blocks until the sponsor will pay for a transfer of the token by the address again {blockNumber}: 0 now, null when the collection has no confirmed sponsor or the token does not exist',
    query: nextSponsoredQuery,
    handle: async ({ collectionId, address, tokenId }, { ledger }) =>
      ledger.read(async (tx) => {
        const collection = await tx.get('collections', collectionId);
        if (!collection) throw collectionNotFound();
        if (!collection.sponsorship?.isConfirmed) return { blockNumber: null };
        const last = await readMeta<number | null>(tx, sponsoredAtKey(collectionId, tokenSlot('transfer', tokenId, address)(collection.mode)), null);
        if (last !== null) {
          const head = await ledger.head(tx);
          const timeout = effectiveLimits(collection.limits, ledger.rules).sponsorTransferTimeout;
          return { blockNumber: Math.max(0, last + timeout - head.number) };
        }
        const exists = collection.mode === 'Fungible' ? tokenId === 0 : (await tx.get('tokens', [collectionId, tokenId])) !== undefined;
        return { blockNumber: exists ? 0 : null };
      })
  })
];
