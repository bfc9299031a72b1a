// Opalite extension: a collection's gallery, one page of tokens at a time, searched, filtered and
// sorted over the whole collection by the ledger's gallery index (api/gallery), with the counts of
// every attribute value. See docs/decisions/0013-gallery.md.
import { z } from 'zod';
import { quote } from '../../limits';
import { ApiError } from '../errors';
import { GalleryCollectionMissing, galleryIndex } from '../gallery/sync';
import type { GallerySortKey } from '../gallery/gallery-index';
import { plain } from '../route';
import { address, boundedString, collectionId, optionalArray } from '../schemas';
import { collectionNotFound } from './lookups';

/** Tokens in one page at most. */
export const MAX_GALLERY_PAGE = 200;
/** Attribute filters in one query at most. */
export const MAX_GALLERY_FILTERS = 32;
/** Values listed per attribute at most. */
export const MAX_GALLERY_VALUES = 500;
const MAX_OFFSET = 10_000_000;
const MAX_SEARCH = 100;
/** An attribute filter or sort: the attribute's name, a colon, the value (both bounded together). */
const MAX_ATTRIBUTE_PARAM = 400;

const count = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int({ error: `${name} must be an integer number` })
    .min(min, { error: `${name} must be at least ${min}` })
    .max(max, { error: `${name} must be at most ${max}` });

/** `name:value` → [name, value]; the name is everything before the first colon. */
function splitAttribute(text: string, param: string): [string, string] {
  const colon = text.indexOf(':');
  if (colon <= 0) throw new ApiError('ValidationError', `${param} must be "<attribute name>:<value>", got "${quote(text)}"`);
  return [text.slice(0, colon), text.slice(colon + 1)];
}

function sortKey(sort: string): GallerySortKey {
  if (sort === 'id' || sort === 'name' || sort === 'rarity') return sort;
  if (sort.startsWith('attr:') && sort.length > 5) return { attribute: sort.slice(5) };
  throw new ApiError('ValidationError', `sort must be id, name, rarity or attr:<attribute name>, got "${quote(sort)}"`);
}

export const galleryQuery = z.object({
  collectionId,
  search: boundedString('search', MAX_SEARCH).optional().describe('Only tokens whose name contains this (any case)'),
  attr: optionalArray(boundedString('attr', MAX_ATTRIBUTE_PARAM), MAX_GALLERY_FILTERS).describe(
    'Attribute filters `attr=<name>:<value>`, repeated: a token matches when, for every attribute named, it carries one of the values given for it'
  ),
  owner: address.optional().describe('Only tokens this address owns directly'),
  sort: boundedString('sort', MAX_ATTRIBUTE_PARAM).default('id').describe('`id` (default), `name`, `rarity` or `attr:<name>` (numbers as numbers, then texts, then tokens without it)'),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).optional().describe('Ascending by default; rarity: desc (rarest first) by default'),
  offset: count('offset', 0, MAX_OFFSET).default(0),
  limit: count('limit', 1, MAX_GALLERY_PAGE).default(60),
  values: count('values', 0, MAX_GALLERY_VALUES).default(100).describe('Values listed per attribute in `attributes` (most common first; `more` counts the rest)')
});

export const galleryRoutes = [
  plain({
    method: 'GET',
    path: '/tokens/gallery',
    tag: 'tokens',
    summary:
      'Opalite extension: a page of a collection’s tokens, searched, filtered and sorted over the whole collection {collectionId, blockNumber, total, matching, offset, tokens: [{tokenId, name, image, owner (null: a ReFungible token split between several holders), rarity}], attributes: [{name, numeric, values: [{value, count}], more}]}; counts and rarity are of the whole collection',
    query: galleryQuery,
    handle: async ({ query }, { ledger, ipfsGateway }) => {
      const q = query as z.output<typeof galleryQuery>;
      const sort = sortKey(q.sort);
      const attributes = new Map<string, Set<string>>();
      for (const text of q.attr ?? []) {
        const [name, value] = splitAttribute(text, 'attr');
        attributes.set(name, (attributes.get(name) ?? new Set()).add(value));
      }
      const { index, block } = await galleryIndex(ledger, (fn) => ledger.read(fn), q.collectionId, ipfsGateway).catch((error: unknown) => {
        throw error instanceof GalleryCollectionMissing ? collectionNotFound() : error;
      });
      const page = index.query({
        search: q.search ?? '',
        attributes,
        owner: q.owner,
        sort,
        order: q.order ?? (sort === 'rarity' ? 'desc' : 'asc'),
        offset: q.offset,
        limit: q.limit,
        values: q.values
      });
      return {
        status: 200,
        json: {
          collectionId: q.collectionId,
          blockNumber: block.number,
          total: page.total,
          matching: page.matching,
          offset: q.offset,
          tokens: page.tokens.map((t) => ({ tokenId: t.tokenId, name: t.name, image: t.image, owner: t.owner, rarity: Math.round(t.rarity * 1000) / 1000 })),
          attributes: page.attributes
        }
      };
    }
  })
];
