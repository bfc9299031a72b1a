// What the fungible and refungible routes share: amounts in and out (the real service's
// `Decimals.encode`/`decode` and `formatBalance`), the collection-mode checks made at build and on
// reads, and the `parsed` results of their extrinsics, which depend on the collection's mode.
import { z } from 'zod';
import type { QueryTx } from '../../ledger/store';
import type { CollectionMode, CollectionRecord, ExtrinsicRecord, LedgerEvent } from '../../ledger/types';
import { ApiError, validationError } from '../errors';
import { feeResponse, rawUnits, toUnits } from '../fee';
import { MAX_DECIMAL_DIGITS } from '../../limits';
import { decimalString } from '../schemas';
import { requireCollection } from './lookups';

/** An amount in whole units: a JSON number (as the real client sends it) or a decimal string. */
export const unitAmount = (name: string) =>
  z.union([z.number({ error: `${name} must be a number` }).nonnegative({ error: `${name} must not be negative` }).finite(), decimalString(name)], {
    error: `${name} must be a non-negative number or a decimal string of at most ${MAX_DECIMAL_DIGITS} digits`
  });

/** A whole number of pieces: a safe integer or a string of digits. */
export const pieceAmount = (name: string) =>
  z
    .union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), decimalString(name).regex(/^\d+$/)], {
      error: `${name} must be a whole non-negative number (or a string of at most ${MAX_DECIMAL_DIGITS} digits)`
    })
    .transform((v) => BigInt(v));

/**
 * Whole units into the smallest unit of a collection with `decimals` (the real service multiplies
 * by 10^decimals; here exactly, from the number's shortest decimal form). 400 when the amount has
 * more fraction digits than the collection.
 */
export function rawAmount(amount: number | string, decimals: number, name = 'amount'): bigint {
  return rawUnits(amount, decimals, name, " (the collection's decimals)");
}

/** A smallest-unit amount as the real service's `parsed` shows it: a number of whole units. */
export function unitsNumber(raw: bigint | string, decimals: number): number {
  return Number(toUnits(BigInt(raw), decimals));
}

/** The real service's `formatBalance` of a collection amount: unit is the token prefix (or UNIT). */
export function collectionBalance(raw: bigint, collection: CollectionRecord) {
  const unit = collection.tokenPrefix || 'UNIT';
  const response = feeResponse(raw, unit, collection.decimals);
  // Below one whole unit its amount keeps every fraction digit (`0.050`), as the real one does.
  const text = raw.toString();
  if (raw !== 0n && collection.decimals >= text.length) response.amount = `0.${text.padStart(collection.decimals, '0')}`;
  return response;
}

/** The collection of a read: 404 CollectionNotFoundError when missing; 400 naming the mode when it is not `mode`. */
export async function readCollectionOfMode(tx: QueryTx, collectionId: number, mode: CollectionMode): Promise<CollectionRecord> {
  const collection = await tx.get('collections', collectionId);
  if (!collection) throw new ApiError('CollectionNotFoundError', 'Collection not found', { collectionId });
  ensureMode(collection, mode);
  return collection;
}

/** The collection a fungible or refungible mutation names: 400 when missing or of another mode. */
export async function requireCollectionOfMode(tx: QueryTx, collectionId: number, mode: CollectionMode): Promise<CollectionRecord> {
  const collection = await requireCollection(tx, collectionId);
  ensureMode(collection, mode);
  return collection;
}

/** The real service's words: `Collection 5 is NFT, not Fungible`. */
export function ensureMode(collection: CollectionRecord, mode: CollectionMode): void {
  if (collection.mode !== mode) {
    throw validationError(`Collection ${collection.id} is ${collection.mode}, not ${mode}`, { collectionId: collection.id, mode: collection.mode });
  }
}

// ---- parsed ----------------------------------------------------------------------------------------

const eventOf = (record: ExtrinsicRecord, method: string): Record<string, unknown> | undefined =>
  record.events.find((e: LedgerEvent) => e.section === 'common' && e.method === method)?.data;

/** The calls whose result has an FT/RFT shape. */
export const PIECES_SHAPED_CALLS: ReadonlySet<string> = new Set([
  'unique.createItem',
  'unique.createMultipleItems',
  'unique.createMultipleItemsEx',
  'unique.transfer',
  'unique.transferFrom',
  'unique.approve',
  'unique.burnItem',
  'unique.burnFrom'
]);

/**
 * The `parsed` result of an extrinsic in a Fungible or ReFungible collection, as the real service's
 * fungible and refungible methods derive it from the events; undefined for anything else (the
 * NFT-era results apply). Amounts are numbers: Fungible ones in whole units of the collection.
 */
export async function piecesParsed(record: ExtrinsicRecord, tx: QueryTx): Promise<unknown> {
  if (!record.isCompleted || record.isError) return undefined;
  const call = record.call;
  if (call.name === 'unique.repartition') return { success: true };
  // Any other call (an NFT's property call…) needs no collection lookup.
  if (!PIECES_SHAPED_CALLS.has(call.name)) return undefined;
  const collection = await tx.get('collections', (call.args as { collectionId: number }).collectionId);
  if (!collection || collection.mode === 'NFT') return undefined;
  const fungible = collection.mode === 'Fungible';
  const amount = (data: Record<string, unknown> | undefined) =>
    data === undefined ? 0 : fungible ? unitsNumber(String(data.amount), collection.decimals) : Number(data.amount);
  switch (call.name) {
    case 'unique.createItem':
    case 'unique.createMultipleItems':
    case 'unique.createMultipleItemsEx': {
      const created = eventOf(record, 'ItemCreated');
      if (fungible) return { collectionId: collection.id, recipient: created?.owner, amount: amount(created) };
      return { collectionId: collection.id, tokenId: created?.tokenId, owner: created?.owner, amount: amount(created) };
    }
    case 'unique.transfer':
    case 'unique.transferFrom': {
      const moved = eventOf(record, 'Transfer');
      if (fungible) return { collectionId: collection.id, sender: moved?.from, recipient: moved?.to, amount: amount(moved) };
      return { collectionId: collection.id, tokenId: call.args.tokenId, from: moved?.from, to: moved?.to, amount: amount(moved) };
    }
    case 'unique.approve': {
      const approved = eventOf(record, 'Approved');
      if (fungible) return { collectionId: collection.id, amount: amount(approved) };
      return { collectionId: collection.id, tokenId: call.args.tokenId, amount: amount(approved) };
    }
    case 'unique.burnItem':
    case 'unique.burnFrom': {
      const destroyed = eventOf(record, 'ItemDestroyed');
      const base = { address: destroyed?.owner ?? record.signer, collectionId: collection.id, amount: amount(destroyed) };
      return fungible ? base : { ...base, tokenId: call.args.tokenId };
    }
  }
  return undefined;
}
