// Files and folders in the file store. A file is kept whole under its CID; a folder is kept as
// its UnixFS directory block under its CID (type FOLDER_TYPE), beside the files it links to, so
// `<cid>/<path>` resolves offline and a folder is extended (add-files) without re-reading its files.
import { equals } from 'multiformats/bytes';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import * as dagPb from '@ipld/dag-pb';
import { ApiError, validationError } from '../errors';
import { MAX_CID_LENGTH, MAX_TREE_ENTRIES, quote } from '../../limits';
import { directoryLinks, type BuiltTree, type DirectoryLink, type TreeEntry } from './unixfs';

export interface StoredFile {
  cid: string;
  bytes: Uint8Array | Blob;
  type: string;
  name: string;
  size: number;
}

/** What the routes need of a file store (storage/FileStore and the Node host's store implement it). */
export interface FileStoreLike {
  putFile(input: { cid: string; bytes: Uint8Array; type: string; name: string }): Promise<unknown>;
  getFile(cid: string): Promise<StoredFile | undefined>;
}

/** The content type a folder's block is stored with (IPFS's own name for dag-pb blocks). */
export const FOLDER_TYPE = 'application/vnd.ipld.dag-pb';

/** A new file of a tree, with what it is served as. */
export interface NewFile {
  path: string;
  bytes: Uint8Array;
  type: string;
}

/**
 * The spellings a CID may be stored under: as given, its base32 CIDv1 (`zb2…` → `bafk…`), and
 * for dag-pb its CIDv0 (`bafybei…` → `Qm…`), so every spelling of one CID finds the same entry.
 * Empty when the text is not a CID.
 */
export function cidSpellings(text: string): string[] {
  if (text.length > MAX_CID_LENGTH) return []; // before parsing: base58 decoding is quadratic
  try {
    const cid = CID.parse(text);
    const spellings = [text, cid.toV1().toString()];
    if (cid.code === dagPb.code && cid.multihash.code === sha256.code) spellings.push(cid.toV0().toString());
    return [...new Set(spellings)];
  } catch {
    return [];
  }
}

/** The entry stored under any spelling of `cid`; undefined when none is. */
export async function findStored(files: FileStoreLike, cid: string): Promise<StoredFile | undefined> {
  for (const key of cidSpellings(cid)) {
    const found = await files.getFile(key);
    if (found) return found;
  }
  return undefined;
}

/** A stored entry's bytes (the browser store may keep a Blob). */
export async function bytesOf(entry: StoredFile): Promise<Uint8Array> {
  return entry.bytes instanceof Uint8Array ? entry.bytes : new Uint8Array(await entry.bytes.arrayBuffer());
}

/**
 * The links of a stored folder; null for a file. Only a folder block this store made counts: its
 * type says so and its bytes hash to its CID (an upload that merely claims the type stays a file).
 */
export async function folderLinks(entry: StoredFile): Promise<DirectoryLink[] | null> {
  if (entry.type !== FOLDER_TYPE) return null;
  const cid = CID.parse(entry.cid);
  const block = await bytesOf(entry);
  if (cid.code !== dagPb.code || !equals((await sha256.digest(block)).bytes, cid.multihash.bytes)) return null;
  return directoryLinks(block);
}

/** Store a built tree: its new files first, then its folders, so no stored folder links to a missing file. */
export async function storeTree(files: FileStoreLike, tree: BuiltTree, newFiles: readonly NewFile[]): Promise<void> {
  for (const file of newFiles) {
    const cid = tree.files.get(file.path);
    if (!cid) throw new Error(`The tree has no CID for ${file.path}`);
    await files.putFile({ cid: cid.toString(), bytes: file.bytes, type: file.type, name: file.path.slice(file.path.lastIndexOf('/') + 1) });
  }
  for (const folder of tree.folders) await files.putFile({ cid: folder.cid.toString(), bytes: folder.block, type: FOLDER_TYPE, name: '' });
}

/** The stored folder `cid`'s links; NotFoundError when it is not stored, ValidationError for a file. */
export async function storedFolder(files: FileStoreLike, cid: string, label: string): Promise<DirectoryLink[]> {
  const entry = await findStored(files, cid);
  if (!entry) throw new ApiError('NotFoundError', `${label} (${quote(cid)}) is not stored here: only folders uploaded to this service are`);
  const links = await folderLinks(entry);
  if (!links) throw validationError(`${label} (${quote(cid)}) is a file, not a folder`);
  return links;
}

const joined = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);

/**
 * The entries of the stored folder `root` with `added` put in: each link of the folder kept as it
 * is (never re-read), a new file replacing an entry of the same path, and a folder a new file goes
 * into opened (its links taken in) so the rest of that folder stays. Bounded by MAX_TREE_ENTRIES.
 */
export async function extendedTree(files: FileStoreLike, root: string, added: readonly TreeEntry[]): Promise<TreeEntry[]> {
  const entries = new Map<string, TreeEntry>();
  const take = (folder: string, links: DirectoryLink[]) => {
    for (const link of links) {
      const path = joined(folder, link.name);
      entries.set(path, { kind: 'linked', path, cid: link.cid, size: BigInt(link.size) });
    }
    if (entries.size > MAX_TREE_ENTRIES) throw validationError(`A folder tree takes at most ${MAX_TREE_ENTRIES} files and folders`);
  };
  take('', await storedFolder(files, root, 'The folder'));
  const opened = new Set<string>();
  for (const entry of added) {
    const names = entry.path.split('/');
    for (let depth = 1; depth < names.length; depth++) {
      const folder = names.slice(0, depth).join('/');
      if (opened.has(folder)) continue;
      opened.add(folder);
      const existing = entries.get(folder);
      if (existing?.kind !== 'linked') continue; // a new folder, or one already made by the new entries
      entries.delete(folder);
      take(folder, await storedFolder(files, existing.cid.toString(), `"${quote(folder)}" in the folder`));
    }
  }
  for (const entry of added) entries.set(entry.path, entry);
  return [...entries.values()];
}
