// Keeps each collection's gallery index in step with the ledger: built from the collection's token
// rows the first time it is asked (or when it cannot follow: a revert, an import, pruned history,
// a schema change), then brought forward by the token rows each new block changed (the history's
// row changes), so a query after a block decodes only the tokens that block touched.
import { LruCache } from '../../codec/lru';
import type { QueryTx } from '../../ledger/store';
import type { CollectionRecord, TokenRecord } from '../../ledger/types';
import { galleryEntry } from './entry';
import { GalleryIndex } from './gallery-index';

/** Collections whose index a ledger keeps at once (each about 1 KB per token). */
const INDEXES_KEPT = 8;

interface Kept {
  index: GalleryIndex;
  /** The block the index is of. */
  block: { number: number; hash: string };
  /** The collection's properties (its schema) the entries were decoded with. */
  schema: string;
}

/** What one read transaction found: rows to decode outside it (decoding awaits no store). */
type Plan =
  | { kind: 'same'; block: Kept['block'] }
  | { kind: 'rebuild'; block: Kept['block']; collection: CollectionRecord; rows: TokenRecord[] }
  | { kind: 'forward'; block: Kept['block']; collection: CollectionRecord; changed: { tokenId: number; row: TokenRecord | undefined }[] };

/** Per ledger (or other owner of a store), per collection and image gateway. */
const kept = new WeakMap<object, LruCache<string, Promise<Kept>>>();

export class GalleryCollectionMissing extends Error {}

/**
 * The gallery index of `collectionId` as of the head, and that block. `read` runs one read transaction; `owner`
 * is what the indexes are kept per (the ledger). Concurrent calls for one collection queue up.
 */
export async function galleryIndex(
  owner: object,
  read: <T>(fn: (tx: QueryTx) => Promise<T>) => Promise<T>,
  collectionId: number,
  ipfsGateway: string
): Promise<{ index: GalleryIndex; block: { number: number; hash: string } }> {
  const cache = kept.get(owner) ?? new LruCache<string, Promise<Kept>>(INDEXES_KEPT);
  kept.set(owner, cache);
  const key = `${collectionId} ${ipfsGateway}`;
  const previous = cache.get(key);
  const next = (async () => {
    const before = await previous?.catch(() => undefined);
    const plan = await read((tx) => planOf(tx, collectionId, before));
    return apply(plan, before, ipfsGateway);
  })();
  cache.set(key, next);
  // A failed build is not kept: the next query starts again from the last good one.
  next.catch(() => {
    if (cache.get(key) === next && previous) cache.set(key, previous);
  });
  const { index, block } = await next;
  return { index, block };
}

async function planOf(tx: QueryTx, collectionId: number, before: Kept | undefined): Promise<Plan> {
  const [head, collection] = await Promise.all([tx.headBlock(), tx.get('collections', collectionId)]);
  if (!collection) throw new GalleryCollectionMissing(`Collection ${collectionId} not found`);
  const block = { number: head?.number ?? 0, hash: head?.hash ?? '' };
  if (before && before.block.hash === block.hash && before.block.number === block.number) return { kind: 'same', block };
  if (before && (await canFollow(tx, before, block, collection))) {
    const changes = await tx.history.firstChangesAfter(before.block.number, 'tokens');
    const ids = [...new Set(changes.map((c) => c.key as [number, number]).filter(([c]) => c === collectionId).map(([, t]) => t))];
    const rows = await Promise.all(ids.map((tokenId) => tx.get('tokens', [collectionId, tokenId])));
    return { kind: 'forward', block, collection, changed: ids.map((tokenId, i) => ({ tokenId, row: rows[i] })) };
  }
  const ids = await tx.tokenIdsOfCollection(collectionId);
  const rows = await Promise.all(ids.map((tokenId) => tx.get('tokens', [collectionId, tokenId])));
  return { kind: 'rebuild', block, collection, rows: rows.filter((r): r is TokenRecord => r !== undefined) };
}

/** The kept index is of a block still on the chain, history reaches back to it, and the schema is the same. */
async function canFollow(tx: QueryTx, before: Kept, head: Kept['block'], collection: CollectionRecord): Promise<boolean> {
  if (head.number <= before.block.number || before.schema !== schemaOf(collection)) return false;
  const [then, start] = await Promise.all([tx.get('blocks', before.block.number), tx.history.start()]);
  return then?.hash === before.block.hash && start <= before.block.number;
}

function schemaOf(collection: CollectionRecord): string {
  return JSON.stringify(collection.properties);
}

async function apply(plan: Plan, before: Kept | undefined, ipfsGateway: string): Promise<Kept> {
  if (plan.kind === 'same') return before!;
  const index = plan.kind === 'forward' ? before!.index : new GalleryIndex();
  const rows = plan.kind === 'forward' ? plan.changed : plan.rows.map((row) => ({ tokenId: row.tokenId, row }));
  for (const { tokenId, row } of rows) {
    if (row) index.set(await galleryEntry(row, plan.collection, ipfsGateway));
    else index.delete(tokenId);
  }
  return { index, block: plan.block, schema: schemaOf(plan.collection) };
}
