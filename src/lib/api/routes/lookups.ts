import { selectProperties } from '../../ledger/properties';
// Helpers shared by the routes: query schemas, the existence checks a mutation runs at build
// (inside the build's read transaction), a block named by number or hash, chain-call encoding
// checks and the mapping of ledger read errors onto the REST envelope.
import { z } from 'zod';
import { encodeCall } from '../../codec/calls';
import { DispatchError } from '../../ledger/errors';
import type { QueryTx } from '../../ledger/store';
import type { BlockRecord, Call, CallArgs, CallName, CollectionRecord, TokenRecord } from '../../ledger/types';
import { ContentError } from '../content/index';
import { ApiError, validationError } from '../errors';
import { MAX_REQUEST_PROPERTIES } from '../../limits';
import { boundedArray, boundedString, collectionId, optionalArray, propertyKey, tokenId } from '../schemas';

export const collectionQuery = z.object({ collectionId });
export const tokenQuery = z.object({ collectionId, tokenId });

/** `propertyKeys[]=a&propertyKeys[]=b`, `propertyKeys=a&propertyKeys=b` or `propertyKeys=a`. */
export const propertyKeysQuery = optionalArray(propertyKey).describe(
  'Only these keys (any of `k[]=a&k[]=b`, `k=a&k=b`, `k=a`); all keys when absent'
);

/** A list of keys in a JSON body; a single string is taken as a one-element list. */
export const propertyKeysBody = z.preprocess(
  (v) => (typeof v === 'string' ? [v] : v),
  boundedArray('propertyKeys', propertyKey, MAX_REQUEST_PROPERTIES)
);

/** Keep only the entries whose key is listed (all when no list is given). */
/** The chain's read rule: all keys sorted, or the requested keys in the order asked, missing ones skipped. */
export const onlyKeys = <T extends { key: string }>(list: readonly T[], keys: readonly string[] | undefined): T[] => selectProperties(list, keys);

// ---- reads --------------------------------------------------------------------------------------

/** 404 for a read of a collection that does not exist. */
/** The block a query names by number, or by hash in any case. */
export function blockNamed(tx: QueryTx, numberOrHash: number | string): Promise<BlockRecord | undefined> {
  return typeof numberOrHash === 'number' ? tx.get('blocks', numberOrHash) : tx.blockByHash(numberOrHash.toLowerCase());
}

export function collectionNotFound(): ApiError {
  return new ApiError('CollectionNotFoundError', 'Collection not found');
}

/** 404 for a read of a token that does not exist (or whose collection does not exist). */
export function tokenNotFound(): ApiError {
  return new ApiError('NotFoundError', 'Token not found');
}

/** Chain errors raised by the ledger's read helpers (nesting walks), as REST errors. */
export function fromReadError(error: unknown): never {
  if (error instanceof DispatchError) {
    const name = `${error.section}.${error.errorName}`;
    if (name === 'common.CollectionNotFound') throw collectionNotFound();
    if (name === 'structure.TokenNotFound' || name === 'common.TokenNotFound') throw new ApiError('NotFoundError', error.message);
    throw validationError(error.message, { section: error.section, name: error.errorName });
  }
  throw error;
}

// ---- build-time checks of mutations ---------------------------------------------------------------

/** The collection a mutation names; 400 CollectionNotFoundError when it does not exist. */
export async function requireCollection(tx: QueryTx, id: number): Promise<CollectionRecord> {
  const collection = await tx.get('collections', id);
  if (!collection) throw new ApiError('CollectionNotFoundError', 'Collection not found', { collectionId: id }, 400);
  return collection;
}

/** Where a collection's token operations live when it is not an NFT collection. */
const MODE_ROUTES: Record<string, string> = { Fungible: '/fungible', ReFungible: '/refungible' };

/**
 * 400 for an NFT token route used on a Fungible or ReFungible collection: the real service's
 * `Collection mode is invalid`, naming the routes of that mode (decision 0007).
 */
export function requireNftMode(collection: CollectionRecord): void {
  if (collection.mode !== 'NFT') {
    throw validationError(
      `Collection ${collection.id} is ${collection.mode}: the collection mode is invalid for this route; its tokens have the ${MODE_ROUTES[collection.mode]} routes`,
      { collectionId: collection.id, mode: collection.mode }
    );
  }
}

/** The collection of a token operation: it must exist and be an NFT collection. */
export async function requireNftCollection(tx: QueryTx, id: number): Promise<CollectionRecord> {
  const collection = await requireCollection(tx, id);
  requireNftMode(collection);
  return collection;
}

/** A token a mutation names; 400 NotFoundError when it does not exist. */
export async function requireToken(tx: QueryTx, collectionId: number, tokenId: number): Promise<TokenRecord> {
  const token = await tx.get('tokens', [collectionId, tokenId]);
  if (!token) {
    throw new ApiError('NotFoundError', `Token not found: collection ${collectionId}, token ${tokenId}`, { collectionId, tokenId }, 400);
  }
  return token;
}

/** Token content errors (bad `data`, bad schema) as 400 ValidationErrors. */
export function content<T>(fn: () => T, prefix = ''): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof ContentError) throw validationError(prefix + error.message);
    throw error;
  }
}

/**
 * The chain call, checked by encoding it now: an argument the wire cannot carry (a limit beyond
 * u32, a string with an unpaired surrogate...) is a 400 here rather than a failure further on.
 */
export function chainCall<N extends CallName>(name: N, args: CallArgs[N]): Call {
  const call = { name, args } as Call;
  try {
    encodeCall(call);
  } catch (error) {
    throw validationError(`Arguments of ${name} cannot be encoded: ${error instanceof Error ? error.message : String(error)}`);
  }
  return call;
}
