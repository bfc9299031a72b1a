// The explorer's search: what a person typed (a block number or hash, an extrinsic hash, an
// address, a collection `12` or a token `12/3`), read as what it can be, then looked up. A number
// can be a block and a collection, a hash a block or an extrinsic: every match is answered, and
// the page goes straight to the one when there is one.
import { isValidAddress, normalizeAddress } from '../codec/address';
import { quote } from '../limits';
import type { RestClient } from './client';
import { ApiError } from './errors';
import { ExplorerUnsupportedError, blockDetail } from './explorer';

/** Longer input is refused before anything is parsed (the longest query is a 66-character hash). */
export const MAX_SEARCH_LENGTH = 128;
const MAX_ID = 4_294_967_295;

export type SearchQuery =
  /** A block number, or a collection id. */
  | { kind: 'number'; value: number }
  | { kind: 'token'; collectionId: number; tokenId: number }
  /** A block or extrinsic hash (or an account's public key). */
  | { kind: 'hash'; hash: string }
  | { kind: 'address'; address: string }
  | { kind: 'invalid'; reason: string };

export type SearchTarget =
  | { kind: 'block'; number: number; hash: string }
  | { kind: 'extrinsic'; hash: string; section: string | null; method: string | null }
  | { kind: 'account'; address: string }
  | { kind: 'collection'; collectionId: number; name: string }
  | { kind: 'token'; collectionId: number; tokenId: number };

const id = (text: string): number | null => {
  const n = Number(text);
  return /^\d{1,10}$/.test(text) && n <= MAX_ID ? n : null;
};

/** What the text can be, before anything is asked of the service. */
export function readSearch(input: string): SearchQuery {
  if (input.length > MAX_SEARCH_LENGTH) return { kind: 'invalid', reason: `A search is at most ${MAX_SEARCH_LENGTH} characters: a hash, an address or a number` };
  const text = input.trim().replace(/^#/, '');
  if (text === '') return { kind: 'invalid', reason: 'Type a block number or hash, an extrinsic hash, an address, or a collection (12) or token (12/3)' };
  const token = /^(\d+)\s*\/\s*(\d+)$/.exec(text);
  if (token) {
    const [collectionId, tokenId] = [id(token[1]), id(token[2])];
    if (collectionId !== null && tokenId !== null) return { kind: 'token', collectionId, tokenId };
    return { kind: 'invalid', reason: `“${quote(text)}”: collection and token ids are whole numbers up to ${MAX_ID}` };
  }
  if (/^\d+$/.test(text)) {
    const value = id(text);
    return value === null ? { kind: 'invalid', reason: `“${quote(text)}”: block numbers and collection ids go up to ${MAX_ID}` } : { kind: 'number', value };
  }
  if (/^0x[0-9a-fA-F]{64}$/.test(text)) return { kind: 'hash', hash: text.toLowerCase() };
  if (isValidAddress(text)) return { kind: 'address', address: text };
  return { kind: 'invalid', reason: `“${quote(text)}” is not a block number or hash, an extrinsic hash, an address, or a collection or token (12 or 12/3)` };
}

/** What `read` answers; null when it finds nothing (or the service has no explorer to ask). */
async function orNull<T>(read: Promise<T>, missing: (error: ApiError) => boolean): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ExplorerUnsupportedError || (error instanceof ApiError && missing(error))) return null;
    throw error;
  }
}

const notFound = (error: ApiError) => error.status === 404;

/** Every page the query can mean on this service, most specific first; [] when nothing matches. */
export async function searchTargets(client: RestClient, query: SearchQuery): Promise<SearchTarget[]> {
  switch (query.kind) {
    case 'invalid':
      return [];
    case 'token':
      return [{ kind: 'token', collectionId: query.collectionId, tokenId: query.tokenId }];
    case 'address':
      return [{ kind: 'account', address: query.address }];
    case 'number': {
      // Collection ids start at 1; block 0 is the genesis.
      const [block, collection] = await Promise.all([
        orNull(blockDetail(client, { number: query.value }), notFound),
        query.value > 0 ? orNull(client.collection(query.value), notFound) : null
      ]);
      const found: SearchTarget[] = [];
      if (block) found.push({ kind: 'block', number: block.block.number, hash: block.block.hash });
      if (collection) found.push({ kind: 'collection', collectionId: query.value, name: collection.name });
      return found;
    }
    case 'hash': {
      const [block, extrinsic] = await Promise.all([orNull(blockDetail(client, { hash: query.hash }), notFound), orNull(client.extrinsicStatus(query.hash), notFound)]);
      const found: SearchTarget[] = [];
      if (block) found.push({ kind: 'block', number: block.block.number, hash: block.block.hash });
      if (extrinsic) found.push({ kind: 'extrinsic', hash: query.hash, section: extrinsic.callMethod?.section ?? null, method: extrinsic.callMethod?.method ?? null });
      // 32 bytes that are no block's or extrinsic's hash may be an account's public key.
      if (found.length === 0) found.push({ kind: 'account', address: normalizeAddress(query.hash) });
      return found;
    }
  }
}
