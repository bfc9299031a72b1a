// What earlier bulk runs minted into a collection, so a list loaded again is recognised before it
// is signed: each row gets a content fingerprint (name, description, attributes and image — a
// picked file by the hash of its bytes — normalised), and the fingerprints of minted rows are kept
// per (service, collection) in the browser's storage, bounded, beside the token each became.
import { countText, dayText, idRanges, localized } from './format';
import type { MintItem } from './mint-list';

/** Fingerprints kept per collection (the newest; a 10,000-token drop fits). */
export const MAX_FINGERPRINTS = 10_000;
/** Collections whose history is kept (the most recently minted into). */
export const MAX_COLLECTIONS = 20;
/** Fingerprints kept in all (about 40 bytes each: the browser's storage holds a few MB per site). */
export const MAX_ROWS_IN_ALL = 20_000;
const STORAGE_KEY = 'opalite.mint-history';

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

/** One minted row: its fingerprint, the token it became, when (ms since epoch). */
export type MintedRow = [fingerprint: string, tokenId: number, at: number];

interface CollectionHistory {
  baseUrl: string;
  collectionId: number;
  rows: MintedRow[];
}

/** Text compared as a person reads it: surrounding and repeated spaces do not count, nor case. */
export const norm = (text: string) => text.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

async function sha256Hex(bytes: BufferSource): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The hash of a picked image file's bytes (the same picture under another name is the same image). */
export async function fileHash(file: Blob): Promise<string> {
  return sha256Hex(await file.arrayBuffer());
}

/** A row's content, normalised, as one stable string (what the fingerprint hashes). */
export function rowContent(item: MintItem, fileHashes: ReadonlyMap<string, string>): string {
  const { name, description, image, attributes } = item.data;
  let picture = '';
  if (item.imageFile) picture = `file:${fileHashes.get(item.imageFile) ?? `name:${item.imageFile}`}`;
  else if (image) picture = 'ipfsCid' in image ? `cid:${image.ipfsCid.trim()}` : `url:${image.url.trim()}`;
  const attrs = Object.entries(attributes ?? {})
    .map(([key, value]) => [key, norm(Array.isArray(value) ? value.map(localized).join('\u0001') : localized(value))])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([norm(localized(name)), norm(localized(description)), picture, attrs]);
}

/** Fingerprints of `items` (64 bits of SHA-256 of each row's content: enough to tell 10,000 rows apart). */
export async function fingerprints(items: readonly MintItem[], fileHashes: ReadonlyMap<string, string>): Promise<string[]> {
  const encoder = new TextEncoder();
  return Promise.all(items.map(async (item) => (await sha256Hex(encoder.encode(rowContent(item, fileHashes)))).slice(0, 16)));
}

function isHistory(value: unknown): value is CollectionHistory {
  const h = value as CollectionHistory;
  return !!h && typeof h.baseUrl === 'string' && Number.isInteger(h.collectionId) && Array.isArray(h.rows);
}

function readAll(storage: StorageLike): CollectionHistory[] {
  try {
    const parsed = JSON.parse(storage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isHistory) : [];
  } catch {
    return [];
  }
}

const validRow = (row: unknown): row is MintedRow =>
  Array.isArray(row) && typeof row[0] === 'string' && Number.isInteger(row[1]) && typeof row[2] === 'number';

/** The rows minted into `collectionId` on `baseUrl` that this browser remembers. */
export function mintedRows(storage: StorageLike, baseUrl: string, collectionId: number): MintedRow[] {
  return readAll(storage).find((h) => h.baseUrl === baseUrl && h.collectionId === collectionId)?.rows.filter(validRow) ?? [];
}

/** Remembers `rows` as minted into the collection (the newest MAX_FINGERPRINTS per collection, MAX_COLLECTIONS in all). */
export function rememberMinted(storage: StorageLike, baseUrl: string, collectionId: number, rows: readonly MintedRow[]): void {
  if (rows.length === 0) return;
  const all = readAll(storage);
  const earlier = all.find((h) => h.baseUrl === baseUrl && h.collectionId === collectionId)?.rows.filter(validRow) ?? [];
  const merged = [...earlier, ...rows].slice(-MAX_FINGERPRINTS);
  const others = all.filter((h) => !(h.baseUrl === baseUrl && h.collectionId === collectionId));
  let total = 0;
  const kept = [{ baseUrl, collectionId, rows: merged }, ...others].slice(0, MAX_COLLECTIONS).filter((h) => (total += h.rows.length) <= MAX_ROWS_IN_ALL);
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(kept));
  } catch {
    // Storage full or refused: the mint stands; only the warning on a later load is lost.
  }
}

/** A row of the list found among the minted ones: its index in the list, the token, when (null: found in the ledger, not in this browser's memory). */
export interface AlreadyMinted {
  index: number;
  tokenId: number;
  at: number | null;
}

/** The rows this browser remembers, then those the ledger has that it does not (each row once, in list order). */
export function withLedgerMatches(remembered: readonly AlreadyMinted[], inLedger: readonly { index: number; tokenId: number }[]): AlreadyMinted[] {
  const known = new Set(remembered.map((r) => r.index));
  const taken = new Set(remembered.map((r) => r.tokenId));
  const extra = inLedger.filter((m) => !known.has(m.index) && !taken.has(m.tokenId)).map((m) => ({ ...m, at: null }));
  return [...remembered, ...extra].sort((a, b) => a.index - b.index);
}

/**
 * The rows of the list (by fingerprint) minted before, each with the newest token it became;
 * tokens not in `existing` (burnt, or a ledger started again) do not count.
 */
export function alreadyMinted(prints: readonly string[], history: readonly MintedRow[], existing: ReadonlySet<number> | null): AlreadyMinted[] {
  const byPrint = new Map<string, MintedRow>();
  for (const row of history) if (!existing || existing.has(row[1])) byPrint.set(row[0], row);
  const found: AlreadyMinted[] = [];
  prints.forEach((print, index) => {
    const row = byPrint.get(print);
    if (row) found.push({ index, tokenId: row[1], at: row[2] });
  });
  return found;
}

/** "Lines 2–4" for rows whose places are "Line 2" … "Line 4"; otherwise the first and last place. */
function placesText(items: readonly MintItem[], from: number, to: number): string {
  const first = items[from].where ?? `Row ${from + 1}`;
  if (from === to) return first;
  const last = items[to].where ?? `Row ${to + 1}`;
  const a = /^(Line|Token|Row) (\d+)$/.exec(first);
  const b = /^(Line|Token|Row) (\d+)$/.exec(last);
  if (a && b && a[1] === b[1]) return `${a[1]}s ${a[2]}–${b[2]}`;
  return `${first} to ${last}`;
}

/**
 * The found rows as sentences, runs of neighbouring rows minted the same day together:
 * "Lines 2–41 were minted on 26 Nov 2026 as tokens 1–40".
 */
export function alreadyMintedText(items: readonly MintItem[], found: readonly AlreadyMinted[], limit = 5): string[] {
  const groups: AlreadyMinted[][] = [];
  for (const row of found) {
    const group = groups[groups.length - 1];
    const last = group?.[group.length - 1];
    const sameDay = row.at === null || last?.at == null ? row.at === last?.at : dayText(row.at) === dayText(last.at);
    if (last && row.index === last.index + 1 && sameDay) group.push(row);
    else groups.push([row]);
  }
  const lines = groups.slice(0, limit).map((group) => {
    const ids = group.map((r) => r.tokenId);
    const one = group.length === 1;
    const places = placesText(items, group[0].index, group[group.length - 1].index);
    const at = group[0].at;
    if (at === null) return `${places} ${one ? 'matches' : 'match'} ${one ? 'token' : 'tokens'} ${idRanges(ids)} already in this collection (same ${one ? 'name' : 'names'})`;
    return `${places} ${one ? 'was' : 'were'} minted on ${dayText(at)} as ${one ? 'token' : 'tokens'} ${idRanges(ids)}`;
  });
  if (groups.length > limit) {
    const rest = groups.slice(limit).reduce((n, g) => n + g.length, 0);
    lines.push(`…and ${countText(rest, 'more row')}`);
  }
  return lines;
}
