// Thumbnails drawn in the browser (service worker or page): the image decoded at the size wanted
// by createImageBitmap and encoded as WebP on an OffscreenCanvas; null where either is missing.
import type { Thumbnailer } from '../api/ipfs/thumbnails';

// The source's size comes from its header (checked against a pixel bound before this is called), so
// the image is decoded once, straight to the thumbnail's size.
export const drawThumbnail: Thumbnailer = async (image, size, source) => {
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function') return null;
  const scale = Math.min(1, size / Math.max(source.width, source.height));
  // Already small: the original is the thumbnail.
  if (scale === 1) return null;
  const width = Math.max(1, Math.round(source.width * scale));
  const height = Math.max(1, Math.round(source.height * scale));
  const bitmap = await createImageBitmap(image, { resizeWidth: width, resizeHeight: height, resizeQuality: 'medium' });
  const canvas = new OffscreenCanvas(width, height);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
  bitmap.close();
  return canvas.convertToBlob({ type: 'image/webp', quality: 0.8 });
};
