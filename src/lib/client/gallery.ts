// The gallery of a collection's tokens: search by name, filter by attribute values, sort by id,
// name or rarity, and how many tokens carry each attribute value. Pure: works on the tokens read.
import { attributeText, localized } from './format';
import type { Token } from './types';

export type GallerySort = 'id' | 'name' | 'rarity';

export interface GalleryQuery {
  search: string;
  /** Attribute name → the value text wanted ('' or absent = any). */
  filters: Record<string, string>;
  sort: GallerySort;
}

/** How many tokens carry each value of one attribute, most common first. */
export interface AttributeCounts {
  name: string;
  values: { value: string; count: number }[];
}

/** The most characters of a search that are read. */
export const MAX_SEARCH_CHARS = 100;

export function tokenName(token: Token): string {
  return localized(token.name) || `Token ${token.tokenId}`;
}

/** A token's attributes as name → value texts (a list gives each of its values). */
export function attributeValues(token: Token): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const attribute of Object.values(token.attributes ?? {})) {
    const name = localized(attribute.name);
    if (!name) continue;
    const values = Array.isArray(attribute.value) ? attribute.value.map(attributeText) : [attributeText(attribute.value)];
    out.set(name, values.filter((v) => v !== ''));
  }
  return out;
}

/** Per attribute (in order of first appearance), the count of tokens with each value. */
export function attributeCounts(tokens: readonly Token[]): AttributeCounts[] {
  const counts = new Map<string, Map<string, number>>();
  for (const token of tokens) {
    for (const [name, values] of attributeValues(token)) {
      const byValue = counts.get(name) ?? new Map<string, number>();
      counts.set(name, byValue);
      for (const value of new Set(values)) byValue.set(value, (byValue.get(value) ?? 0) + 1);
    }
  }
  return [...counts].map(([name, byValue]) => ({
    name,
    values: [...byValue].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || a.value.localeCompare(b.value))
  }));
}

/** "Rarity: epic (3), common (40)". */
export function countsText(counts: AttributeCounts): string {
  return `${counts.name}: ${counts.values.map((v) => `${v.value} (${v.count})`).join(', ')}`;
}

/**
 * Rarity score of each token (statistical rarity): the sum over its attribute values of
 * tokens ÷ tokens with that value, so a rare value weighs more; higher is rarer.
 */
export function rarityScores(tokens: readonly Token[]): Map<number, number> {
  const counts = new Map(attributeCounts(tokens).map((c) => [c.name, new Map(c.values.map((v) => [v.value, v.count]))]));
  const scores = new Map<number, number>();
  for (const token of tokens) {
    let score = 0;
    for (const [name, values] of attributeValues(token)) {
      for (const value of new Set(values)) score += tokens.length / (counts.get(name)?.get(value) ?? tokens.length);
    }
    scores.set(token.tokenId, score);
  }
  return scores;
}

/** The tokens the query selects, in its order (ties by token id). */
export function galleryTokens(tokens: readonly Token[], query: GalleryQuery): Token[] {
  const search = query.search.trim().slice(0, MAX_SEARCH_CHARS).toLowerCase();
  const filters = Object.entries(query.filters).filter(([, value]) => value !== '');
  const selected = tokens.filter((token) => {
    if (search && !tokenName(token).toLowerCase().includes(search)) return false;
    const values = attributeValues(token);
    return filters.every(([name, value]) => values.get(name)?.includes(value));
  });
  const byId = (a: Token, b: Token) => a.tokenId - b.tokenId;
  if (query.sort === 'name') return selected.sort((a, b) => tokenName(a).localeCompare(tokenName(b), undefined, { numeric: true }) || byId(a, b));
  if (query.sort === 'rarity') {
    // Scored against every token read, not only the ones shown: rarity belongs to the collection.
    const scores = rarityScores(tokens);
    return selected.sort((a, b) => (scores.get(b.tokenId) ?? 0) - (scores.get(a.tokenId) ?? 0) || byId(a, b));
  }
  return selected.sort(byId);
}

/** One token of a gallery page (GET /tokens/gallery, an Opalite extension). */
export interface GalleryItem {
  tokenId: number;
  name: string;
  image: string | null;
  /** null: a ReFungible token split between several holders. */
  owner: string | null;
  rarity: number;
}

/** A page of the gallery, with counts and totals over the whole collection. */
export interface GalleryPage {
  collectionId: number;
  blockNumber: number;
  total: number;
  matching: number;
  offset: number;
  tokens: GalleryItem[];
  attributes: (AttributeCounts & { numeric: boolean; more: number })[];
}

/** What the gallery asks: `sort` is id, name, rarity or `attr:<name>`. */
export interface GalleryRequest {
  search?: string;
  /** Attribute name → the value wanted. */
  filters?: Record<string, string>;
  owner?: string;
  sort?: string;
  order?: 'asc' | 'desc';
  offset?: number;
  limit?: number;
  values?: number;
}

/** The query string values of GET /tokens/gallery. */
export function galleryParams(collectionId: number, request: GalleryRequest): Record<string, string | number | string[] | undefined> {
  const attr = Object.entries(request.filters ?? {})
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}:${value}`);
  return {
    collectionId,
    search: request.search?.trim() ? request.search.trim().slice(0, MAX_SEARCH_CHARS) : undefined,
    attr: attr.length ? attr : undefined,
    owner: request.owner,
    sort: request.sort,
    order: request.order,
    offset: request.offset,
    limit: request.limit,
    values: request.values
  };
}
