// Reading a ZIP archive for `upload-zip`, bounded before and during inflation: the central
// directory is read first (entry count, names, declared sizes: all checked before any byte is
// inflated), then each entry is inflated in small steps by fflate's streaming Inflate and
// stopped as soon as it passes its declared size, so a zip bomb never grows past the budget.
import { Inflate, strFromU8 } from 'fflate';
import { ApiError, payloadTooLarge, validationError } from '../errors';
import { quote } from '../../limits';
import { checkedPath } from './tree-paths';

export interface ZipLimits {
  /** Largest entry, unpacked. */
  maxFileBytes: number;
  /** All entries together, unpacked. */
  maxTotalBytes: number;
  /** Entries (files and folders). */
  maxEntries: number;
}

export type ZipEntry = { kind: 'file'; path: string; bytes: Uint8Array } | { kind: 'folder'; path: string };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const EOCD_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const ZIP64_MARK = 0xffffffff;
/** Compressed bytes pushed to the inflater at a time: deflate expands at most ~1032×, so one step yields at most ~4 MiB. */
const INFLATE_STEP = 4096;
const FLAG_ENCRYPTED = 0x1;
const FLAG_UTF8 = 0x800;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

const corrupt = (why: string) => validationError(`The file is not a ZIP archive this service reads: ${why}`);

const u16 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u32 = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

interface CentralEntry {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  symlink: boolean;
}

/** The end-of-central-directory record: the last signature whose comment runs exactly to the end. */
function endRecord(zip: Uint8Array): { count: number; offset: number; size: number } {
  const lowest = Math.max(0, zip.length - EOCD_SIZE - 0xffff);
  for (let at = zip.length - EOCD_SIZE; at >= lowest; at--) {
    if (u32(zip, at) !== EOCD || at + EOCD_SIZE + u16(zip, at + 20) !== zip.length) continue;
    if (u16(zip, at + 4) !== 0 || u16(zip, at + 6) !== 0) throw corrupt('it spans several disks');
    const count = u16(zip, at + 10);
    const size = u32(zip, at + 12);
    const offset = u32(zip, at + 16);
    if (count === 0xffff || size === ZIP64_MARK || offset === ZIP64_MARK) throw corrupt('ZIP64 archives are not supported');
    if (u16(zip, at + 8) !== count) throw corrupt('its entry counts disagree');
    if (offset + size > at) throw corrupt('its central directory lies outside the file');
    return { count, offset, size };
  }
  throw corrupt('no end-of-central-directory record');
}

/** The central directory's entries and where it starts (the end of the entries' data). */
function centralDirectory(zip: Uint8Array, limits: ZipLimits): { entries: CentralEntry[]; offset: number } {
  const { count, offset, size } = endRecord(zip);
  if (count > limits.maxEntries) throw validationError(`The archive has ${count} entries; at most ${limits.maxEntries} are taken`);
  const end = offset + size;
  const entries: CentralEntry[] = [];
  let declared = 0;
  for (let at = offset, i = 0; i < count; i++) {
    if (at + CENTRAL_SIZE > end || u32(zip, at) !== CENTRAL) throw corrupt('a central directory entry is missing');
    const nameLength = u16(zip, at + 28);
    const next = at + CENTRAL_SIZE + nameLength + u16(zip, at + 30) + u16(zip, at + 32);
    if (next > end) throw corrupt('a central directory entry runs past its end');
    const flags = u16(zip, at + 8);
    const entry: CentralEntry = {
      name: strFromU8(zip.subarray(at + CENTRAL_SIZE, at + CENTRAL_SIZE + nameLength), !(flags & FLAG_UTF8)),
      flags,
      method: u16(zip, at + 10),
      crc: u32(zip, at + 16),
      compressedSize: u32(zip, at + 20),
      size: u32(zip, at + 24),
      localOffset: u32(zip, at + 42),
      // Made on Unix (high byte 3) with a symbolic link's mode in the high half of the external attributes.
      symlink: zip[at + 5] === 3 && ((u32(zip, at + 38) >>> 16) & S_IFMT) === S_IFLNK
    };
    if (entry.size === ZIP64_MARK || entry.compressedSize === ZIP64_MARK || entry.localOffset === ZIP64_MARK) throw corrupt('ZIP64 archives are not supported');
    if (entry.size > limits.maxFileBytes) throw payloadTooLarge(limits.maxFileBytes, `The archive entry "${quote(entry.name)}" unpacked`);
    declared += entry.size;
    // Declared sizes first: an archive announcing more than the budget is refused before any inflation.
    if (declared > limits.maxTotalBytes) throw payloadTooLarge(limits.maxTotalBytes, 'The archive unpacked');
    entries.push(entry);
    at = next;
  }
  return { entries, offset };
}

/** Where an entry's compressed bytes are: after its local header, inside the archive, before the central directory. */
function dataOf(zip: Uint8Array, entry: CentralEntry, centralOffset: number): Uint8Array {
  const at = entry.localOffset;
  if (at + LOCAL_SIZE > centralOffset || u32(zip, at) !== LOCAL) throw corrupt(`the entry "${quote(entry.name)}" has no local header`);
  const start = at + LOCAL_SIZE + u16(zip, at + 26) + u16(zip, at + 28);
  if (start + entry.compressedSize > centralOffset) throw corrupt(`the entry "${quote(entry.name)}" runs past the archive's data`);
  return zip.subarray(start, start + entry.compressedSize);
}

/** Inflate `data` into exactly `size` bytes, stopping the moment the output passes `size`. */
function inflateBounded(data: Uint8Array, size: number, name: string): Uint8Array {
  const out = new Uint8Array(size);
  let filled = 0;
  const inflater = new Inflate((chunk) => {
    if (filled + chunk.length > size) throw corrupt(`the entry "${quote(name)}" unpacks to more than its declared ${size} bytes`);
    out.set(chunk, filled);
    filled += chunk.length;
  });
  try {
    for (let at = 0; at < data.length; at += INFLATE_STEP) inflater.push(data.subarray(at, at + INFLATE_STEP), at + INFLATE_STEP >= data.length);
    if (data.length === 0) inflater.push(data, true);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw corrupt(`the entry "${quote(name)}" is not valid deflate data`);
  }
  if (filled !== size) throw corrupt(`the entry "${quote(name)}" unpacks to ${filled} bytes, not its declared ${size}`);
  return out;
}

let crcTable: Uint32Array | undefined;

/** CRC-32 (the ZIP polynomial), to tell a damaged entry from a good one. */
function crc32(bytes: Uint8Array): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c;
  });
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function contentOf(zip: Uint8Array, entry: CentralEntry, centralOffset: number): Uint8Array {
  const data = dataOf(zip, entry, centralOffset);
  let bytes: Uint8Array;
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) throw corrupt(`the stored entry "${quote(entry.name)}" has two sizes`);
    bytes = data.slice();
  } else bytes = inflateBounded(data, entry.size, entry.name);
  if (crc32(bytes) !== entry.crc) throw corrupt(`the entry "${quote(entry.name)}" fails its CRC-32 check`);
  return bytes;
}

/**
 * The files and folders of a ZIP archive, at their paths inside it (checked as tree paths).
 * Stored and deflated entries only; encrypted entries, symbolic links and ZIP64 are refused.
 */
export function readZip(zip: Uint8Array, limits: ZipLimits): ZipEntry[] {
  const { entries, offset } = centralDirectory(zip, limits);
  // Every entry is checked before the first is inflated.
  const checked = entries.map((entry) => {
    const what = `The archive entry "${quote(entry.name)}"`;
    if (entry.flags & FLAG_ENCRYPTED) throw validationError(`${what} is encrypted`);
    if (entry.symlink) throw validationError(`${what} is a symbolic link, which is not taken`);
    if (entry.method !== 0 && entry.method !== 8) throw validationError(`${what} uses compression method ${entry.method}; only stored (0) and deflate (8) are read`);
    const folder = entry.name.endsWith('/');
    if (folder && entry.size !== 0) throw corrupt(`the folder entry "${quote(entry.name)}" has content`);
    return { entry, folder, path: checkedPath(folder ? entry.name.slice(0, -1) : entry.name, 'The archive entry') };
  });
  return checked.map(({ entry, folder, path }): ZipEntry =>
    folder ? { kind: 'folder', path } : { kind: 'file', path, bytes: contentOf(zip, entry, offset) }
  );
}
