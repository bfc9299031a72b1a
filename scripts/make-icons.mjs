#!/usr/bin/env node
// Writes the app icons (static/icon-192.png, static/icon-512.png): an opal-like diagonal gradient
// with a lighter gem facet, as plain PNGs made with zlib, so no image tool is needed.
// Run again only to change the icons; the PNGs are committed.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

function icon(size) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const t = (x + y) / (2 * size);
      // Indigo (#4f46e5) to pink (#db2777), the app's accent colours.
      let [r, g, b] = [0x4f + (0xdb - 0x4f) * t, 0x46 + (0x27 - 0x46) * t, 0xe5 + (0x77 - 0xe5) * t];
      // A diamond facet in the middle, lighter.
      const dx = Math.abs(x - size / 2) / size;
      const dy = Math.abs(y - size / 2) / size;
      if (dx + dy < 0.28) [r, g, b] = [r + (255 - r) * 0.55, g + (255 - g) * 0.55, b + (255 - b) * 0.55];
      const o = y * (size * 4 + 1) + 1 + x * 4;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
      raw[o + 3] = 255;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

for (const size of [192, 512]) writeFileSync(new URL(`../static/icon-${size}.png`, import.meta.url), icon(size));
