// The gallery's place in the URL query (search, filters, sort, order, first visible token), so
// Back from a token returns to the same view. Other query parameters of the page are kept.
import { MAX_SEARCH_CHARS } from './gallery';

export interface GalleryView {
  search: string;
  /** Attribute name → the value wanted. */
  filters: Record<string, string>;
  /** id, name, rarity or attr:<name>. */
  sort: string;
  order: 'asc' | 'desc';
  /** Index of the first visible token in the view's order. */
  from: number;
}

/** Filters read from a URL at most (the route takes as many). */
const MAX_FILTERS = 32;
const MAX_PARAM = 400;
const MAX_FROM = 10_000_000;
const PARAMS = ['search', 'attr', 'sort', 'order', 'from'];

export function defaultOrder(sort: string): 'asc' | 'desc' {
  return sort === 'rarity' ? 'desc' : 'asc';
}

/** The view a URL names; anything unreadable falls back to the default (a URL is typed by people). */
export function readGalleryView(params: URLSearchParams): GalleryView {
  const filters: Record<string, string> = {};
  for (const text of params.getAll('attr').slice(0, MAX_FILTERS)) {
    const colon = text.indexOf(':');
    if (colon > 0 && text.length <= MAX_PARAM) filters[text.slice(0, colon)] = text.slice(colon + 1);
  }
  const rawSort = params.get('sort') ?? '';
  const sort = ['id', 'name', 'rarity'].includes(rawSort) || (rawSort.startsWith('attr:') && rawSort.length > 5 && rawSort.length <= MAX_PARAM) ? rawSort : 'id';
  const rawOrder = params.get('order');
  const from = Number(params.get('from') ?? 0);
  return {
    search: (params.get('search') ?? '').slice(0, MAX_SEARCH_CHARS),
    filters,
    sort,
    order: rawOrder === 'asc' || rawOrder === 'desc' ? rawOrder : defaultOrder(sort),
    from: Number.isInteger(from) && from > 0 ? Math.min(from, MAX_FROM) : 0
  };
}

/** `params` with the view written in (defaults left out), every other parameter kept. */
export function writeGalleryView(params: URLSearchParams, view: GalleryView): URLSearchParams {
  const out = new URLSearchParams(params);
  for (const name of PARAMS) out.delete(name);
  if (view.search.trim()) out.set('search', view.search.trim());
  for (const [name, value] of Object.entries(view.filters)) if (value !== '') out.append('attr', `${name}:${value}`);
  if (view.sort !== 'id') out.set('sort', view.sort);
  if (view.order !== defaultOrder(view.sort)) out.set('order', view.order);
  if (view.from > 0) out.set('from', String(view.from));
  return out;
}
