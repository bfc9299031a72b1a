// Collection reads (reference sections 7, 9.1, 9.4 and 11). Each answers the head's state, or the
// state as of the block `at` / `blockHashAt` names (api/at-block.ts). Records are read inside one transaction and
// presented after it (presenting decodes schemas, which must not hold an IndexedDB transaction open).
import { z } from 'zod';
import { effectiveLimits } from '../../ledger/access';
import { META, readMeta } from '../../ledger/meta';
import type { CollectionRecord } from '../../ledger/types';
import { collectionJson, limitsJson, propertyJson } from '../present/collection';
import { jsonText } from '../json';
import { read } from '../route';
import { address, collectionId } from '../schemas';
import { collectionNotFound, collectionQuery, onlyKeys, propertyKeysQuery } from './lookups';

const TAG = 'collections';

const keysQuery = z.object({ collectionId, propertyKeys: propertyKeysQuery });
// The real client sends `account`; `address` is accepted too.
const allowedQuery = z
  .object({ collectionId, account: address.optional(), address: address.optional() })
  .refine((q) => q.account ?? q.address, { error: 'account (or address) is required', path: ['account'] })
  .transform(({ account, address, ...rest }) => ({ ...rest, address: (account ?? address)! }));
const listQuery = z.object({
  owner: address.optional().describe('Only collections owned by this address'),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be an integer number' })
    .positive({ error: 'limit must be a positive number' })
    .max(500, { error: 'limit must be at most 500' })
    .default(50),
  before: collectionId.optional().describe('Only collections with an id below this one (paging: pass the last id of the previous page)')
});

/** The collection, or a 404 CollectionNotFoundError. */
function found(collection: CollectionRecord | undefined): CollectionRecord {
  if (!collection) throw collectionNotFound();
  return collection;
}

export const collectionReadRoutes = [
  read({
    path: '/collections',
    tag: TAG,
    summary: 'Get a collection by id; answers null (200) when it does not exist',
    query: collectionQuery,
    handle: ({ collectionId }, { ledger, ipfsGateway }) =>
      ledger.memo(
        `collection:${collectionId}:${ipfsGateway}`,
        (tx) => tx.get('collections', collectionId),
        async (collection) => jsonText(collection ? await collectionJson(collection, ipfsGateway) : null)
      )
  }),
  read({
    path: '/collections/properties',
    tag: TAG,
    summary: 'Collection properties {properties: [{key, value, valueHex}]}, optionally only some keys; empty for an unknown collection',
    query: keysQuery,
    handle: async ({ collectionId, propertyKeys }, { ledger }) => {
      const collection = await ledger.read((tx) => tx.get('collections', collectionId));
      return { properties: onlyKeys(collection?.properties ?? [], propertyKeys).map(propertyJson) };
    }
  }),
  read({
    path: '/collections/limits',
    tag: TAG,
    summary: 'Effective limits of a collection (defaults filled in): {collectionId, limits}',
    query: collectionQuery,
    handle: async ({ collectionId }, { ledger }) => {
      const collection = found(await ledger.read((tx) => tx.get('collections', collectionId)));
      return { collectionId, limits: limitsJson(effectiveLimits(collection.limits, ledger.rules)) };
    }
  }),
  read({
    path: '/collections/property-permissions',
    tag: TAG,
    summary: 'Token property permissions of a collection {propertyPermissions: [{key, permission}]}; empty for an unknown collection',
    query: keysQuery,
    handle: async ({ collectionId, propertyKeys }, { ledger }) => {
      const collection = await ledger.read((tx) => tx.get('collections', collectionId));
      const list = onlyKeys(collection?.tokenPropertyPermissions ?? [], propertyKeys);
      return { propertyPermissions: list.map(({ key, permission }) => ({ key, permission: { ...permission } })) };
    }
  }),
  read({
    path: '/collections/admins',
    tag: TAG,
    summary: 'Admins of a collection {admins: [address]}; empty for an unknown collection',
    query: collectionQuery,
    handle: async ({ collectionId }, { ledger }) => {
      const collection = await ledger.read((tx) => tx.get('collections', collectionId));
      return { admins: collection?.admins ?? [] };
    }
  }),
  read({
    path: '/collections/tokens',
    tag: TAG,
    summary: 'Ids of the existing tokens of a collection {ids}',
    query: collectionQuery,
    handle: async ({ collectionId }, { ledger }) =>
      ledger.read(async (tx) => {
        found(await tx.get('collections', collectionId));
        return { ids: await tx.tokenIdsOfCollection(collectionId) };
      })
  }),
  read({
    path: '/collections/last-token-id',
    tag: TAG,
    summary: 'Last token id handed out in a collection (burned tokens count) {tokenId}',
    query: collectionQuery,
    handle: async ({ collectionId }, { ledger }) => {
      const collection = found(await ledger.read((tx) => tx.get('collections', collectionId)));
      return { tokenId: collection.tokensMinted };
    }
  }),
  read({
    path: '/collections/total-supply',
    tag: TAG,
    summary: 'Number of existing tokens of a collection {totalSupply}',
    query: collectionQuery,
    handle: async ({ collectionId }, { ledger }) => {
      const collection = found(await ledger.read((tx) => tx.get('collections', collectionId)));
      return { totalSupply: collection.tokensMinted - collection.tokensBurnt };
    }
  }),
  read({
    path: '/collections/stats',
    tag: TAG,
    summary: 'Collection counts of the chain {created, destroyed, alive}',
    query: z.object({}),
    handle: async (_q, { ledger }) =>
      ledger.read(async (tx) => {
        const created = await readMeta<number>(tx, META.createdCollectionCount, 0);
        const destroyed = await readMeta<number>(tx, META.destroyedCollectionCount, 0);
        return { created, destroyed, alive: created - destroyed };
      })
  }),
  read({
    path: '/collections/allow-list',
    tag: TAG,
    summary: 'Allow list of a collection {addresses}',
    query: collectionQuery,
    handle: async ({ collectionId }, { ledger }) =>
      ledger.read(async (tx) => {
        found(await tx.get('collections', collectionId));
        return { addresses: await tx.allowListOf(collectionId) };
      })
  }),
  read({
    path: '/collections/allowed',
    tag: TAG,
    summary: 'Whether an address is on the allow list of a collection {isAllowed}',
    query: allowedQuery,
    handle: async ({ collectionId, address }, { ledger }) =>
      ledger.read(async (tx) => {
        found(await tx.get('collections', collectionId));
        return { isAllowed: (await tx.get('allowList', [collectionId, address])) !== undefined };
      })
  }),
  // Opalite extension (not in the real service): the collections of the chain, newest first,
  // optionally only those of one owner, for the UI. Point lookups over the ids handed out so far
  // (the `createdCollectionCount` meta counter); no table scan.
  read({
    path: '/collections/list',
    tag: TAG,
    summary: 'Opalite extension: collections newest first {collections}, optionally of one owner; page with `before`',
    query: listQuery,
    handle: async ({ owner, limit, before }, { ledger, ipfsGateway }) => {
      const records = await ledger.read(async (tx) => {
        const created = await readMeta<number>(tx, META.createdCollectionCount, 0);
        const start = before === undefined ? created : Math.min(created, before - 1);
        const out: CollectionRecord[] = [];
        for (let id = start; id >= 1 && out.length < limit; id--) {
          const collection = await tx.get('collections', id);
          if (collection && (owner === undefined || collection.owner === owner)) out.push(collection);
        }
        return out;
      });
      return { collections: await Promise.all(records.map((c) => collectionJson(c, ipfsGateway))) };
    }
  })
];
