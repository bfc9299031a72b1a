// Paths inside a folder tree (ZIP entries, uploaded file names): relative, `/`-separated, every
// name bounded and none empty, `.` or `..`, so no entry escapes the tree or aliases another; and
// trees where no file stands where a folder must be (the importer would silently drop it).
import { validationError } from '../errors';
import { MAX_NAME_BYTES, MAX_PATH_BYTES, MAX_PATH_DEPTH, MAX_TREE_ENTRIES, quote } from '../../limits';
import type { TreeEntry } from './unixfs';

const utf8 = new TextEncoder();
/** Control characters and the backslash (a Windows separator): never part of a name here. */
const FORBIDDEN = /[\u0000-\u001f\u007f\\]/;

/** `path` if it is a bounded relative path of names; a ValidationError naming `what` otherwise. */
export function checkedPath(path: string, what: string): string {
  const bad = (why: string) => validationError(`${what} "${quote(path)}" ${why}`);
  // UTF-16 units never outnumber UTF-8 bytes: a long string is refused before it is encoded.
  if (path.length > MAX_PATH_BYTES || utf8.encode(path).length > MAX_PATH_BYTES) throw bad(`is longer than ${MAX_PATH_BYTES} bytes`);
  const names = path.split('/');
  if (names.length > MAX_PATH_DEPTH) throw bad(`is nested deeper than ${MAX_PATH_DEPTH} folders`);
  for (const name of names) {
    if (name === '' || name === '.' || name === '..') throw bad('is not a relative path of names (no leading or doubled "/", no "." or "..")');
    if (FORBIDDEN.test(name)) throw bad('has a control character or a backslash');
    if (utf8.encode(name).length > MAX_NAME_BYTES) throw bad(`has a name longer than ${MAX_NAME_BYTES} bytes`);
  }
  return path;
}

/** Every folder a path lies in (`a/b/c` → `a`, `a/b`). */
function parentsOf(path: string): string[] {
  const parents: string[] = [];
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) parents.push(path.slice(0, i));
  return parents;
}

/**
 * The entries of one tree, checked: at most MAX_TREE_ENTRIES, each path once, no file where
 * another entry needs a folder. Empty-folder entries that other entries lie in are dropped
 * (their folder is made anyway, and the importer would take a later one for a replacement).
 */
export function consistentTree(entries: readonly TreeEntry[]): TreeEntry[] {
  if (entries.length > MAX_TREE_ENTRIES) throw validationError(`A folder tree takes at most ${MAX_TREE_ENTRIES} files and folders, got ${entries.length}`);
  const byPath = new Map<string, TreeEntry>();
  const parents = new Set<string>();
  for (const entry of entries) {
    if (byPath.has(entry.path)) throw validationError(`"${quote(entry.path)}" is in the tree twice`);
    byPath.set(entry.path, entry);
    for (const parent of parentsOf(entry.path)) parents.add(parent);
  }
  for (const parent of parents) {
    const entry = byPath.get(parent);
    if (entry && entry.kind !== 'folder') throw validationError(`"${quote(parent)}" is a file, and other entries are inside it as in a folder`);
  }
  return entries.filter((entry) => !(entry.kind === 'folder' && parents.has(entry.path)));
}
