// Keeps each collection's gallery index in step with the ledger: built from the collection's token
// rows the first time it is asked (or when it cannot follow: a revert, an import, pruned history,
// a schema change), then brought forward by the token rows each new block changed (the history's
// row changes), so a query after a block decodes only the tokens that block touched.
import { LruCache } from '../../codec/lru';
import { MISSES_PER_ROUND } from '../../ledger/fork/fork-store';
import type { QueryTx } from '../../ledger/store';
import type { CollectionRecord, TokenRecord } from '../../ledger/types';
import { galleryEntry } from './entry';
import { GalleryIndex } from './gallery-index';

/** Collections whose index a ledger keeps at once (each about 1 KB per token). */
const INDEXES_KEPT = 8;
/**
 * Token rows a rebuild reads per transaction. A fork copies a transaction's missing rows in rounds
 * and runs it again after each, so one transaction over a whole collection read it again per round
 * of 64 (quadratic) and failed past the round limit; a chunk of one round copies in one.
 */
const REBUILD_CHUNK = MISSES_PER_ROUND;
/** Rebuilds of one query while blocks it cannot follow keep landing; then it answers the last one. */
const MAX_REBUILDS = 3;

interface Kept {
  index: GalleryIndex;
  /** The block the index is of. */
  block: { number: number; hash: string };
  /** The collection's properties (its schema) the entries were decoded with. */
  schema: string;
}

/** What one read transaction found: rows to decode outside it (decoding awaits no store), or the ids a rebuild reads in chunks. */
type Plan =
  | { kind: 'same'; block: Kept['block'] }
  | { kind: 'rebuild'; block: Kept['block']; collection: CollectionRecord; ids: number[] }
  | { kind: 'forward'; block: Kept['block']; collection: CollectionRecord; changed: { tokenId: number; row: TokenRecord | undefined }[] };

type Read = <T>(fn: (tx: QueryTx) => Promise<T>) => Promise<T>;

/** Per ledger (or other owner of a store), per collection and image gateway. */
const kept = new WeakMap<object, LruCache<string, Promise<Kept>>>();

export class GalleryCollectionMissing extends Error {}

/**
 * The gallery index of `collectionId` as of the head, and that block. `read` runs one read transaction; `owner`
 * is what the indexes are kept per (the ledger). Concurrent calls for one collection queue up.
 */
export async function galleryIndex(
  owner: object,
  read: Read,
  collectionId: number,
  ipfsGateway: string
): Promise<{ index: GalleryIndex; block: { number: number; hash: string } }> {
  const cache = kept.get(owner) ?? new LruCache<string, Promise<Kept>>(INDEXES_KEPT);
  kept.set(owner, cache);
  const key = `${collectionId} ${ipfsGateway}`;
  const previous = cache.get(key);
  const next = (async () => bringUpToDate(read, collectionId, ipfsGateway, await previous?.catch(() => undefined)))();
  cache.set(key, next);
  // A failed build is not kept: the next query starts again from the last good one.
  next.catch(() => {
    if (cache.get(key) === next && previous) cache.set(key, previous);
  });
  const { index, block } = await next;
  return { index, block };
}

/**
 * The index as of the head. A rebuild reads its rows over several transactions while blocks may
 * land, so it is labelled with the block its ids were read at and brought forward from there like
 * any kept index: a token changed meanwhile is among that block's later changes and read again.
 */
async function bringUpToDate(read: Read, collectionId: number, ipfsGateway: string, before: Kept | undefined): Promise<Kept> {
  let current = before;
  for (let rebuilds = 0; ; ) {
    const plan = await read((tx) => planOf(tx, collectionId, current));
    if (plan.kind === 'same') return current!;
    if (plan.kind === 'forward') return forward(current!, plan, ipfsGateway);
    current = await rebuild(read, collectionId, plan, ipfsGateway);
    if (++rebuilds >= MAX_REBUILDS) return current;
  }
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
  return { kind: 'rebuild', block, collection, ids: await tx.tokenIdsOfCollection(collectionId) };
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

async function forward(before: Kept, plan: Extract<Plan, { kind: 'forward' }>, ipfsGateway: string): Promise<Kept> {
  for (const { tokenId, row } of plan.changed) {
    if (row) before.index.set(await galleryEntry(row, plan.collection, ipfsGateway));
    else before.index.delete(tokenId);
  }
  return { index: before.index, block: plan.block, schema: schemaOf(plan.collection) };
}

/** A new index of the plan's ids, their rows read a chunk per transaction (a token burnt meanwhile is left out). */
async function rebuild(read: Read, collectionId: number, plan: Extract<Plan, { kind: 'rebuild' }>, ipfsGateway: string): Promise<Kept> {
  const index = new GalleryIndex();
  for (let at = 0; at < plan.ids.length; at += REBUILD_CHUNK) {
    const chunk = plan.ids.slice(at, at + REBUILD_CHUNK);
    const rows = await read((tx) => Promise.all(chunk.map((tokenId) => tx.get('tokens', [collectionId, tokenId]))));
    for (const row of rows) if (row) index.set(await galleryEntry(row, plan.collection, ipfsGateway));
  }
  return { index, block: plan.block, schema: schemaOf(plan.collection) };
}
