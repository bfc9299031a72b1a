// Small variants of stored images for grids (`/ipfs/<cid>?thumb=<px>`): a host that can draw
// (the browser's, with createImageBitmap and OffscreenCanvas) makes one per CID and size and keeps
// the most recent in memory; a host that cannot (Node) answers the image itself.
import { LruCache } from '../../codec/lru';

/** Draw `image` no larger than `size` px on its longer side; null when it cannot be drawn. */
export type Thumbnailer = (image: Blob, size: number) => Promise<Blob | null>;

/** The sizes asked for are rounded up to one of these, so a few variants per image are made at most. */
export const THUMBNAIL_SIZES = [128, 256, 512] as const;
/** Thumbnails kept (each a few KB to a few tens of KB). */
const KEPT = 512;
/** Images larger than this are served whole rather than decoded for a thumbnail. */
const MAX_SOURCE_BYTES = 32 * 1024 * 1024;

/** The thumbnail size a `thumb` parameter asks, or undefined for none or nonsense. */
export function thumbnailSize(param: string | null): number | undefined {
  if (param === null || !/^\d{1,5}$/.test(param)) return undefined;
  const wanted = Number(param);
  return THUMBNAIL_SIZES.find((size) => size >= wanted) ?? THUMBNAIL_SIZES[THUMBNAIL_SIZES.length - 1];
}

/** A thumbnailer that remembers its recent results by CID and size, and asks once for concurrent requests. */
export function cachedThumbnails(draw: Thumbnailer): (cid: string, type: string, bytes: Uint8Array | Blob, size: number) => Promise<Blob | null> {
  const kept = new LruCache<string, Promise<Blob | null>>(KEPT);
  return (cid, type, bytes, size) => {
    const length = bytes instanceof Blob ? bytes.size : bytes.byteLength;
    // Vector images are their own thumbnails; a huge one is not decoded.
    if (!type.startsWith('image/') || type === 'image/svg+xml' || length > MAX_SOURCE_BYTES) return Promise.resolve(null);
    const key = `${cid} ${size}`;
    const hit = kept.get(key);
    if (hit) return hit;
    const blob = bytes instanceof Blob ? bytes : new Blob([bytes as Uint8Array<ArrayBuffer>], { type });
    const made = draw(blob, size).catch(() => null);
    kept.set(key, made);
    return made;
  };
}
