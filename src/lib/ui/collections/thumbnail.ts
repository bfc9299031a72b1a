// The grid asks this origin's file store for a small variant of an uploaded image (`?thumb=`):
// the browser hosts make and cache one; the Node host and other URLs answer the image itself.
import { safeMediaUrl } from '../../client/format';

/** Thumbnail edge in CSS pixels × 2 for sharp cells on high-density screens. */
export const THUMBNAIL_SIZE = 256;

export function thumbnailUrl(image: string | null): string | null {
  const url = safeMediaUrl(image);
  if (!url || typeof location === 'undefined') return url;
  const parsed = new URL(url, location.href);
  if (parsed.origin !== location.origin || !parsed.pathname.startsWith('/ipfs/')) return url;
  parsed.searchParams.set('thumb', String(THUMBNAIL_SIZE));
  return parsed.href;
}
