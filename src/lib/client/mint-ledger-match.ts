// Rows of a mint list that the collection already has, found in the ledger itself, so a list minted
// from another browser (or before this one remembered) is recognised too: the gallery's pages of
// names and pictures, read once per list, compared with each row by name and, where the row names
// a picture by URL or CID, by that picture. A picked file's CID is known only once it is uploaded,
// so such a row is compared by name alone.
import type { RestClient } from './client';
import { localized } from './format';
import type { GalleryPage } from './gallery';
import { norm } from './mint-history';
import type { MintItem } from './mint-list';

/** Tokens per gallery page read (the route's own bound). */
const PAGE = 200;
/** The most tokens compared; a larger collection is not read whole for a warning (said as `skipped`). */
export const MAX_COMPARED_TOKENS = 20_000;

/** A row of the list found in the collection: its index in the list and the token. */
export interface LedgerMatch {
  index: number;
  tokenId: number;
}

export interface LedgerMatches {
  matches: LedgerMatch[];
  /** The collection was too large to compare (more than MAX_COMPARED_TOKENS). */
  skipped: boolean;
}


/** What the comparison reads of a token (a gallery item's fields). */
type TokenSeen = { tokenId: number; name: string; image: string | null };

/** Whether `token` shows the picture the row names (a URL as written, a CID anywhere in its URL). */
function samePicture(item: MintItem, token: TokenSeen): boolean {
  const image = item.imageFile ? undefined : item.data.image;
  if (!image) return true;
  if (!token.image) return false;
  return 'ipfsCid' in image ? token.image.includes(image.ipfsCid.trim()) : token.image === image.url.trim();
}

/** The rows of `items` matched one to one with tokens of `tokens` (by name, then picture; the lowest token id first). */
export function matchRows(items: readonly MintItem[], tokens: readonly TokenSeen[]): LedgerMatch[] {
  const byName = new Map<string, TokenSeen[]>();
  for (const token of tokens) {
    const key = norm(token.name);
    if (!key) continue;
    const list = byName.get(key) ?? [];
    list.push(token);
    byName.set(key, list);
  }
  const used = new Set<number>();
  const matches: LedgerMatch[] = [];
  items.forEach((item, index) => {
    const key = norm(localized(item.data.name));
    const token = key ? byName.get(key)?.find((t) => !used.has(t.tokenId) && samePicture(item, t)) : undefined;
    if (!token) return;
    used.add(token.tokenId);
    matches.push({ index, tokenId: token.tokenId });
  });
  return matches;
}

/** Reads the collection's names and pictures a gallery page at a time and matches the list's rows with them. */
export async function rowsInLedger(client: RestClient, collectionId: number, items: readonly MintItem[], signal?: AbortSignal): Promise<LedgerMatches> {
  if (items.length === 0) return { matches: [], skipped: false };
  const seen: TokenSeen[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page: GalleryPage = await client.gallery(collectionId, { sort: 'id', offset, limit: PAGE, values: 0 }, signal);
    if (page.total > MAX_COMPARED_TOKENS) return { matches: [], skipped: true };
    for (const t of page.tokens) seen.push({ tokenId: t.tokenId, name: t.name, image: t.image });
    if (page.tokens.length < PAGE || offset + PAGE >= page.matching) break;
  }
  return { matches: matchRows(items, seen), skipped: false };
}
