// Small variants of stored images for grids (`/ipfs/<cid>?thumb=<px>`): a host that can draw
// (the browser's, with createImageBitmap and OffscreenCanvas) makes one per CID and size and keeps
// the most recent in memory; a host that cannot (Node) answers the image itself.
import { BMP } from 'image-size/types/bmp';
import { GIF } from 'image-size/types/gif';
import { HEIF } from 'image-size/types/heif';
import { JPG } from 'image-size/types/jpg';
import { PNG } from 'image-size/types/png';
import { WEBP } from 'image-size/types/webp';
import { LruCache } from '../../codec/lru';

/** An image's size in pixels, as its header says. */
export interface PixelSize {
  width: number;
  height: number;
}

/** Draw `image` (of `source` pixels) no larger than `size` px on its longer side; null when it cannot be drawn. */
export type Thumbnailer = (image: Blob, size: number, source: PixelSize) => Promise<Blob | null>;

/** The sizes asked for are rounded up to one of these, so a few variants per image are made at most. */
export const THUMBNAIL_SIZES = [128, 256, 512] as const;
/** Thumbnails kept (each a few KB to a few tens of KB). */
const KEPT = 512;
/** Images larger than this are served whole rather than decoded for a thumbnail. */
const MAX_SOURCE_BYTES = 32 * 1024 * 1024;
/**
 * Images of more pixels than this are served whole rather than decoded: a small file can declare
 * 20,000 × 20,000 pixels (1.6 GB decoded), and an imported ledger brings files of other people.
 */
export const MAX_SOURCE_PIXELS = 50_000_000;
/** Bytes read for the header (a JPEG's size follows its EXIF segments, at most 64 KiB each). */
const HEADER_BYTES = 256 * 1024;
/** The formats browsers decode whose size is read from the header (image-size's readers). */
const HEADER_READERS = [PNG, JPG, GIF, WEBP, HEIF, BMP];

/** The pixel size an image's header declares; undefined for a format not read or a damaged header. */
export function declaredPixels(head: Uint8Array): PixelSize | undefined {
  const reader = HEADER_READERS.find((r) => r.validate(head));
  if (!reader) return undefined;
  try {
    const declared = reader.calculate(head);
    // EXIF orientations 5–8 turn the picture a quarter: it is drawn with its sides swapped.
    const turned = (declared.orientation ?? 1) >= 5;
    const [width, height] = turned ? [declared.height, declared.width] : [declared.width, declared.height];
    return Number.isSafeInteger(width) && Number.isSafeInteger(height) && width > 0 && height > 0 ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

async function headOf(image: Blob): Promise<Uint8Array> {
  return new Uint8Array(await image.slice(0, HEADER_BYTES).arrayBuffer());
}

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
    // Decoded only when its header says a size within bounds; otherwise the file is served as it is.
    const made = headOf(blob)
      .then(declaredPixels)
      .then((source) => (source && source.width * source.height <= MAX_SOURCE_PIXELS ? draw(blob, size, source) : null))
      .catch(() => null);
    kept.set(key, made);
    return made;
  };
}
