// A collection's gallery index, in memory: every token's entry and, per attribute, how many tokens
// carry each value. Queries (search, attribute filters, owner, sort, page) read only this; sorted
// orders and rarity are computed once per change of the index and reused by every page.
import { LruCache } from '../../codec/lru';
import type { GalleryEntry } from './entry';

export type GallerySortKey = 'id' | 'name' | 'rarity' | { attribute: string };

export interface GalleryQuery {
  /** Lower-cased by the index; matched as a substring of the name. */
  search: string;
  /** Attribute name → values wanted (any of them); every named attribute must match. */
  attributes: Map<string, Set<string>>;
  owner?: string;
  sort: GallerySortKey;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
  /** Values listed per attribute in the counts (the rest are counted in `more`). */
  values: number;
}

export interface AttributeCounts {
  name: string;
  /** Every value of the attribute is a number: it sorts by number. */
  numeric: boolean;
  /** Most common first. */
  values: { value: string; count: number }[];
  /** Distinct values not listed. */
  more: number;
}

export interface GalleryPage {
  total: number;
  matching: number;
  tokens: (GalleryEntry & { rarity: number })[];
  attributes: AttributeCounts[];
}

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;

/** The number a value text stands for, or undefined when it is no plain number. */
export function numberOf(text: string): number | undefined {
  if (!NUMBER.test(text.trim())) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Filtered orders remembered per index version (one per recent query). */
const FILTERED_KEPT = 16;

export class GalleryIndex {
  readonly #entries = new Map<number, GalleryEntry>();
  /** Attribute name → value → tokens carrying it. */
  readonly #counts = new Map<string, Map<string, number>>();
  /** Bumped on every change: derived orders are of one version. */
  #version = 0;
  #rarity: { version: number; scores: Map<number, number> } | undefined;
  #sorted = new Map<string, { version: number; order: GalleryEntry[] }>();
  #filtered = new LruCache<string, GalleryEntry[]>(FILTERED_KEPT);

  get size(): number {
    return this.#entries.size;
  }

  get version(): number {
    return this.#version;
  }

  /** Put a token's entry (minted or changed). */
  set(entry: GalleryEntry): void {
    this.delete(entry.tokenId);
    this.#entries.set(entry.tokenId, entry);
    this.#count(entry, 1);
    this.#version++;
  }

  /** Forget a token (burned). */
  delete(tokenId: number): void {
    const old = this.#entries.get(tokenId);
    if (!old) return;
    this.#entries.delete(tokenId);
    this.#count(old, -1);
    this.#version++;
  }

  #count(entry: GalleryEntry, delta: 1 | -1): void {
    for (const [name, values] of entry.attributes) {
      const byValue = this.#counts.get(name) ?? new Map<string, number>();
      this.#counts.set(name, byValue);
      for (const value of values) {
        const count = (byValue.get(value) ?? 0) + delta;
        if (count > 0) byValue.set(value, count);
        else byValue.delete(value);
      }
      if (byValue.size === 0) this.#counts.delete(name);
    }
  }

  /** Statistical rarity: the sum over a token's values of tokens ÷ tokens with that value; higher is rarer. */
  rarity(): Map<number, number> {
    if (this.#rarity?.version === this.#version) return this.#rarity.scores;
    const total = this.#entries.size;
    const scores = new Map<number, number>();
    for (const entry of this.#entries.values()) {
      let score = 0;
      for (const [name, values] of entry.attributes) {
        const byValue = this.#counts.get(name);
        for (const value of values) score += total / (byValue?.get(value) ?? total);
      }
      scores.set(entry.tokenId, score);
    }
    this.#rarity = { version: this.#version, scores };
    return scores;
  }

  attributeCounts(listed: number): AttributeCounts[] {
    return [...this.#counts].map(([name, byValue]) => {
      const values = [...byValue].map(([value, count]) => ({ value, count }));
      const numeric = values.every((v) => numberOf(v.value) !== undefined);
      values.sort((a, b) => b.count - a.count || collator.compare(a.value, b.value));
      return { name, numeric, values: values.slice(0, listed), more: Math.max(0, values.length - listed) };
    });
  }

  /** Every entry in one sort order (ties by token id, ascending); remembered until the index changes. */
  #order(sort: GallerySortKey, order: 'asc' | 'desc'): GalleryEntry[] {
    const key = `${typeof sort === 'string' ? sort : `attr:${sort.attribute}`}:${order}`;
    const kept = this.#sorted.get(key);
    if (kept?.version === this.#version) return kept.order;
    const sign = order === 'asc' ? 1 : -1;
    const byId = (a: GalleryEntry, b: GalleryEntry) => a.tokenId - b.tokenId;
    const entries = [...this.#entries.values()];
    let compare: (a: GalleryEntry, b: GalleryEntry) => number;
    if (sort === 'id') compare = (a, b) => sign * byId(a, b);
    else if (sort === 'name') compare = (a, b) => sign * collator.compare(a.name, b.name) || byId(a, b);
    else if (sort === 'rarity') {
      const scores = this.rarity();
      compare = (a, b) => sign * ((scores.get(a.tokenId) ?? 0) - (scores.get(b.tokenId) ?? 0)) || byId(a, b);
    } else {
      // Numbers as numbers, before texts; tokens without the attribute last whatever the order.
      const sortValue = new Map(entries.map((e) => [e.tokenId, sortable(e.attributes.get(sort.attribute)?.[0])]));
      compare = (a, b) => {
        const [x, y] = [sortValue.get(a.tokenId)!, sortValue.get(b.tokenId)!];
        if (x.rank !== y.rank) return x.rank - y.rank;
        if (x.rank === 0) return sign * (x.number - y.number) || byId(a, b);
        if (x.rank === 1) return sign * collator.compare(x.text, y.text) || byId(a, b);
        return byId(a, b);
      };
    }
    const sorted = entries.sort(compare);
    this.#sorted.set(key, { version: this.#version, order: sorted });
    return sorted;
  }

  query(q: GalleryQuery): GalleryPage {
    const search = q.search.trim().toLowerCase();
    const ordered = this.#order(q.sort, q.order);
    let selected = ordered;
    if (search || q.attributes.size || q.owner !== undefined) {
      const key = JSON.stringify([this.#version, q.sort, q.order, search, q.owner ?? null, [...q.attributes].map(([n, v]) => [n, [...v].sort()]).sort()]);
      const kept = this.#filtered.get(key);
      selected = kept ?? ordered.filter((entry) => matches(entry, search, q.attributes, q.owner));
      if (!kept) this.#filtered.set(key, selected);
    }
    const scores = this.rarity();
    return {
      total: this.#entries.size,
      matching: selected.length,
      tokens: selected.slice(q.offset, q.offset + q.limit).map((entry) => ({ ...entry, rarity: scores.get(entry.tokenId) ?? 0 })),
      attributes: this.attributeCounts(q.values)
    };
  }
}

function matches(entry: GalleryEntry, search: string, attributes: Map<string, Set<string>>, owner: string | undefined): boolean {
  if (search && !entry.searchText.includes(search)) return false;
  if (owner !== undefined && entry.owner !== owner) return false;
  for (const [name, wanted] of attributes) {
    const values = entry.attributes.get(name);
    if (!values?.some((v) => wanted.has(v))) return false;
  }
  return true;
}

/** A value's place in an attribute sort: 0 a number, 1 a text, 2 none. */
function sortable(text: string | undefined): { rank: 0 | 1 | 2; number: number; text: string } {
  if (text === undefined) return { rank: 2, number: 0, text: '' };
  const number = numberOf(text);
  return number === undefined ? { rank: 1, number: 0, text } : { rank: 0, number, text };
}
