// Content ids as `ipfs add` gives them with its default settings (kubo's `unixfs-v0-2015` profile:
// CIDv0, dag-pb leaves, 256 KiB chunks, balanced DAG of at most 174 links a node), computed by the
// maintained importer (ipfs-unixfs-importer), never by hand. See docs/decisions/0002-ipfs-cid.md.
import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { importBytes, importDirectory, importer, type ImportCandidate, type ImporterOptions, type InProgressImportResult } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import { ApiError } from '../errors';
import { quote } from '../../limits';

/** `ipfs add`'s defaults; a fresh object each time, since the importer writes its choices into it. */
function addDefaults(): ImporterOptions {
  return { profile: 'unixfs-v0-2015' };
}

/** Where the importer puts blocks it makes: stored files keep their whole bytes, so leaves go nowhere. */
const DISCARD = { put: async (cid: CID) => cid };

/** The CID `ipfs add` gives these bytes (`Qm…`), with its DAG's total size (a directory link's Tsize). */
export async function addFile(bytes: Uint8Array): Promise<{ cid: CID; size: bigint }> {
  const { cid, size } = await importBytes(bytes, DISCARD, addDefaults());
  return { cid, size };
}

export async function fileCid(bytes: Uint8Array): Promise<string> {
  return (await addFile(bytes)).cid.toString();
}

/** One entry of a directory tree to build, at a `/`-separated relative path (checked by tree-paths). */
export type TreeEntry =
  /** A file with its bytes: imported here. */
  | { kind: 'file'; path: string; bytes: Uint8Array }
  /** An entry of a stored folder being extended (a file or a folder): linked as it is. */
  | { kind: 'linked'; path: string; cid: CID; size: bigint }
  /** An empty folder. */
  | { kind: 'folder'; path: string };

export interface DirectoryLink {
  name: string;
  cid: CID;
  size: number;
}

export interface BuiltTree {
  /** The root folder's CID (`ipfs add -w` of the entries). */
  root: CID;
  /** The CID of each `file` entry, by path. */
  files: Map<string, CID>;
  /** Every folder block made (the root's included), to be stored so paths below the root resolve. */
  folders: { cid: CID; block: Uint8Array }[];
}

/** The links of a UnixFS directory block; null for any other block (a file node, or not dag-pb). */
export function directoryLinks(block: Uint8Array): DirectoryLink[] | null {
  try {
    const node = dagPb.decode(block);
    if (!node.Data || UnixFS.unmarshal(node.Data).type !== 'directory') return null;
    return node.Links.map((link) => ({ name: link.Name ?? '', cid: link.Hash, size: link.Tsize ?? 0 }));
  } catch {
    return null; // not a dag-pb node, or its Data is not UnixFS
  }
}

/** A block store that keeps the directory blocks the importer makes and drops file blocks. */
function folderBlocks() {
  const folders: { cid: CID; block: Uint8Array }[] = [];
  return {
    folders,
    put: async (cid: CID, block: Uint8Array) => {
      if (cid.code === dagPb.code && directoryLinks(block)) folders.push({ cid, block });
      return cid;
    }
  };
}

/** The importer's node for each entry: files imported with `ipfs add`'s defaults, stored entries as they are. */
async function* nodesOf(entries: Iterable<TreeEntry>, store: ReturnType<typeof folderBlocks>, files: Map<string, CID>) {
  for (const entry of entries) {
    yield async (): Promise<InProgressImportResult> => {
      switch (entry.kind) {
        case 'file': {
          const { cid, size, unixfs } = await importBytes(entry.bytes, DISCARD, addDefaults());
          files.set(entry.path, cid);
          return { cid, size, unixfs, path: entry.path };
        }
        case 'linked':
          return { cid: entry.cid, size: entry.size, path: entry.path };
        case 'folder':
          return { ...(await importDirectory({ path: entry.path }, store, addDefaults())), path: entry.path };
      }
    };
  }
}

/**
 * The folder `ipfs add -w` makes of these entries, built by the importer's own tree builder (which
 * also links already-stored entries by CID, so extending a folder re-reads none of its files).
 * A folder too big for one block (the importer would shard it) is refused: this store serves
 * plain directories only, and the entry limits keep real uploads far below that size.
 */
export async function buildTree(entries: readonly TreeEntry[]): Promise<BuiltTree> {
  const store = folderBlocks();
  const files = new Map<string, CID>();
  let root: CID | undefined;
  const options: ImporterOptions = {
    ...addDefaults(),
    wrapWithDirectory: true,
    // The entries are ours, not the importer's candidates: this builder turns each into its node.
    dagBuilder: (source) => nodesOf(source as unknown as Iterable<TreeEntry>, store, files)
  };
  for await (const result of importer(entries as unknown as ImportCandidate[], store, options)) {
    if (result.unixfs?.type === 'hamt-sharded-directory') {
      throw new ApiError('PayloadTooLargeError', `The folder "${quote(result.path || '/')}" has too many entries for one block (IPFS would shard it)`);
    }
    root = result.cid; // the wrapping folder comes last
  }
  if (!root) throw new Error('The importer made no folder');
  return { root, files, folders: store.folders };
}
