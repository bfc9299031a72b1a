// A ledger that travels whole: a ZIP archive of `manifest.json` (the files' CIDs, sizes, types and
// names), `ledger.json` (the plain JSON export, unchanged) and `files/<cid>` for every stored
// file. Written as a stream by fflate (entries stored, not deflated: images are compressed
// already, and the size is known before the first byte); read back by readZip's bounded reader,
// with every file's CID recomputed from its bytes. See docs/decisions/0014-ledger-export-with-files.md.
import { Zip, ZipPassThrough, strFromU8, strToU8 } from 'fflate';
import { z } from 'zod';
import { equals } from 'multiformats/bytes';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import * as dagPb from '@ipld/dag-pb';
import { payloadTooLarge, validationError } from '../errors';
import { MAX_CID_LENGTH, MAX_LEDGER_ARCHIVE_BYTES, MAX_LEDGER_ARCHIVE_FILES, MAX_NAME_BYTES, MAX_SHORT_TEXT_LENGTH, quote } from '../../limits';
import { addFile } from './unixfs';
import { readZip } from './zip';

export const ARCHIVE_FORMAT = 'opalite-ledger-archive';
export const ARCHIVE_VERSION = 1;
export const MANIFEST_ENTRY = 'manifest.json';
export const LEDGER_ENTRY = 'ledger.json';
export const FILES_FOLDER = 'files';

/** A stored file as the manifest lists it. */
export interface ArchivedFile {
  cid: string;
  size: number;
  type: string;
  name: string;
}

/** A file unpacked from an archive, its CID checked against its bytes. */
export interface UnpackedFile extends ArchivedFile {
  bytes: Uint8Array;
}

/** What an export writes: its entries' bytes (the files are read while streaming) and its exact size. */
export interface ArchivePlan {
  manifest: Uint8Array;
  ledger: Uint8Array;
  files: ArchivedFile[];
  /** Bytes of the whole archive. */
  size: number;
}

/** Bytes fflate's streaming Zip writes around a stored entry: local header, data descriptor, central header. */
const entryOverhead = (name: string) => 30 + 16 + 46 + 2 * strToU8(name).length;
/** The end-of-central-directory record. */
const END_RECORD = 22;

const filePath = (cid: string) => `${FILES_FOLDER}/${cid}`;

/**
 * The archive an export writes for this ledger text and these stored files; a ValidationError when
 * it would be larger than an import takes (MAX_LEDGER_ARCHIVE_BYTES, MAX_LEDGER_ARCHIVE_FILES).
 */
export function planArchive(ledgerText: string, files: readonly ArchivedFile[]): ArchivePlan {
  if (files.length > MAX_LEDGER_ARCHIVE_FILES) {
    throw validationError(`This ledger has ${files.length} stored files; an archive holds at most ${MAX_LEDGER_ARCHIVE_FILES}: export the ledger without files`);
  }
  const listed = files.map(({ cid, size, type, name }) => ({ cid, size, type, name }));
  const manifest = strToU8(JSON.stringify({ format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, ledger: LEDGER_ENTRY, files: listed }));
  const ledger = strToU8(ledgerText);
  let size = END_RECORD + entryOverhead(MANIFEST_ENTRY) + manifest.length + entryOverhead(LEDGER_ENTRY) + ledger.length;
  for (const file of listed) size += entryOverhead(filePath(file.cid)) + file.size;
  if (size > MAX_LEDGER_ARCHIVE_BYTES) {
    throw validationError(`The ledger with its files takes ${size} bytes; an archive holds at most ${MAX_LEDGER_ARCHIVE_BYTES}: export the ledger without files`);
  }
  return { manifest, ledger, files: listed, size };
}

/**
 * The archive as a stream: the manifest and the ledger first, then each file, read by `read` only
 * when the reader asks for more (one file in memory at a time). `mtime` dates every entry.
 */
export function archiveStream(plan: ArchivePlan, read: (cid: string) => Promise<Uint8Array>, mtime: number): ReadableStream<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else ready.push(chunk);
  });
  const add = (name: string, bytes: Uint8Array) => {
    const entry = new ZipPassThrough(name);
    entry.mtime = mtime;
    zip.add(entry);
    entry.push(bytes, true);
  };
  const pending: (() => Promise<[string, Uint8Array]>)[] = [
    async () => [MANIFEST_ENTRY, plan.manifest],
    async () => [LEDGER_ENTRY, plan.ledger],
    ...plan.files.map((file) => async (): Promise<[string, Uint8Array]> => {
      const bytes = await read(file.cid);
      // The size was promised (content-length): a file changed since is an error, not a wrong archive.
      if (bytes.byteLength !== file.size) throw new Error(`The stored file ${file.cid} changed while the ledger was exported`);
      return [filePath(file.cid), bytes];
    })
  ];
  let next = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next < pending.length) add(...(await pending[next++]()));
      else if (next++ === pending.length) zip.end();
      if (failure) throw failure;
      for (const chunk of ready.splice(0)) controller.enqueue(chunk);
      if (next > pending.length) controller.close();
    }
  });
}

/** Whether these bytes start like a ZIP archive (a local header, or the end record of an empty one). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6));
}

const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.literal(ARCHIVE_VERSION),
  ledger: z.literal(LEDGER_ENTRY),
  files: z
    .array(
      z.object({
        cid: z.string().min(1).max(MAX_CID_LENGTH),
        size: z.number().int().nonnegative(),
        type: z.string().max(MAX_SHORT_TEXT_LENGTH),
        name: z.string().max(MAX_NAME_BYTES)
      })
    )
    .max(MAX_LEDGER_ARCHIVE_FILES)
});

function manifestOf(bytes: Uint8Array | undefined): z.output<typeof manifestSchema> {
  if (!bytes) throw validationError(`This archive is not an Opalite ledger archive: it has no ${MANIFEST_ENTRY}`);
  let value: unknown;
  try {
    value = JSON.parse(strFromU8(bytes));
  } catch {
    throw validationError(`The ${MANIFEST_ENTRY} of this archive is not JSON`);
  }
  const parsed = manifestSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw validationError(`The ${MANIFEST_ENTRY} of this archive is not an Opalite ledger archive's (${issue.path.join('.') || 'the whole'}: ${issue.message})`);
  }
  return parsed.data;
}

/**
 * Whether `bytes` are the content `cid` names: a block hashing to it (a folder's block, a file
 * stored under its raw `bafkrei…` id), or a file `ipfs add` with its defaults gives this CID.
 */
export async function cidMatches(cid: string, bytes: Uint8Array): Promise<boolean> {
  let parsed: CID;
  try {
    if (cid.length > MAX_CID_LENGTH) return false; // before parsing: base58 decoding is quadratic
    parsed = CID.parse(cid);
  } catch {
    return false;
  }
  if (parsed.multihash.code !== sha256.code) return false;
  if (equals((await sha256.digest(bytes)).bytes, parsed.multihash.bytes)) return true;
  return parsed.code === dagPb.code && equals((await addFile(bytes)).cid.multihash.bytes, parsed.multihash.bytes);
}

/**
 * The ledger text and the files of a ledger archive, everything checked before anything is
 * returned: the archive's bounds (readZip: entries, declared and actual sizes, CRC-32), the
 * manifest, that every entry is the manifest, the ledger or a listed file and every listed file is
 * there at its size, and that each file's bytes are what its CID names. A ValidationError (400) or
 * PayloadTooLargeError (413) otherwise.
 */
export async function unpackArchive(zip: Uint8Array, limits: { maxFileBytes: number }): Promise<{ ledgerText: string; files: UnpackedFile[] }> {
  if (zip.length > MAX_LEDGER_ARCHIVE_BYTES) throw payloadTooLarge(MAX_LEDGER_ARCHIVE_BYTES, 'The ledger archive');
  const entries = readZip(zip, { maxFileBytes: limits.maxFileBytes, maxTotalBytes: MAX_LEDGER_ARCHIVE_BYTES, maxEntries: MAX_LEDGER_ARCHIVE_FILES + 3 });
  const contents = new Map<string, Uint8Array>();
  for (const entry of entries) {
    if (entry.kind === 'folder') {
      if (entry.path !== FILES_FOLDER) throw validationError(`The ledger archive has an unknown folder "${quote(entry.path)}"`);
      continue;
    }
    if (contents.has(entry.path)) throw validationError(`The ledger archive has "${quote(entry.path)}" twice`);
    contents.set(entry.path, entry.bytes);
  }
  const manifest = manifestOf(contents.get(MANIFEST_ENTRY));
  const ledger = contents.get(LEDGER_ENTRY);
  if (!ledger) throw validationError(`This archive is not an Opalite ledger archive: it has no ${LEDGER_ENTRY}`);
  const listed = new Map(manifest.files.map((file) => [filePath(file.cid), file]));
  if (listed.size !== manifest.files.length) throw validationError(`The ${MANIFEST_ENTRY} of this archive lists a file twice`);
  for (const path of contents.keys()) {
    if (path !== MANIFEST_ENTRY && path !== LEDGER_ENTRY && !listed.has(path)) {
      throw validationError(`The ledger archive has an entry its ${MANIFEST_ENTRY} does not list: "${quote(path)}"`);
    }
  }
  const files: UnpackedFile[] = [];
  for (const [path, file] of listed) {
    const bytes = contents.get(path);
    if (!bytes) throw validationError(`The ledger archive lacks the file ${quote(file.cid)} its ${MANIFEST_ENTRY} lists`);
    if (bytes.byteLength !== file.size) throw validationError(`The file ${quote(file.cid)} of the ledger archive has ${bytes.byteLength} bytes; its ${MANIFEST_ENTRY} says ${file.size}`);
    if (!(await cidMatches(file.cid, bytes))) throw validationError(`The file ${quote(file.cid)} of the ledger archive is not the content its CID names (damaged or renamed)`);
    files.push({ ...file, bytes });
  }
  return { ledgerText: new TextDecoder().decode(ledger), files };
}
