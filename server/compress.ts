// Compressed bodies for the static server: brotli or gzip, chosen from the request's
// Accept-Encoding, for text-like files only (images, fonts and archives are compressed already).
// Each file is compressed once and kept in memory (the build's files, one version of each), or
// read from a copy compressed ahead beside it (`app.js.br`, `app.js.gz`) when that is newer.
import { readFileSync, writeFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Below this many bytes the headers weigh more than the saving. */
const MIN_BYTES = 1024;

/** Content types worth compressing; everything else (png, jpeg, webp, woff2, zip…) is sent as is. */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|manifest\+json|wasm|xml)|image\/svg\+xml)/;

export function isCompressible(contentType: string, size: number): boolean {
  return size >= MIN_BYTES && COMPRESSIBLE.test(contentType);
}

/** The encoding to answer with: brotli when accepted, else gzip, else none (q=0 refuses). */
export function chooseEncoding(acceptEncoding: string | string[] | undefined): Encoding | null {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
  const accepted = new Map<string, number>();
  for (const part of header.split(',').slice(0, 32)) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name) accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

/** Quality 9 of 11: within a few percent of the best, and fast enough on a first request. */
const brotliOptions = (size: number): BrotliOptions => ({ params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: size } });
const GZIP_LEVEL = 9;

/** Where a copy of a file compressed ahead of time sits, as static hosts look for it. */
export function precompressedPath(path: string, encoding: Encoding): string {
  return `${path}.${encoding === 'br' ? 'br' : 'gz'}`;
}

/**
 * Write both compressed copies of `path` beside it when the server would compress it as
 * `contentType` (a build step; one server start then compresses nothing).
 */
export function precompress(path: string, contentType: string): void {
  const body = readFileSync(path);
  if (!isCompressible(contentType, body.byteLength)) return;
  writeFileSync(precompressedPath(path, 'br'), brotliCompressSync(body, brotliOptions(body.byteLength)));
  writeFileSync(precompressedPath(path, 'gzip'), gzipSync(body, { level: GZIP_LEVEL }));
}

/** The copy compressed ahead, when there is one written after the file was (a stale one is ignored). */
async function readPrecompressed(path: string, encoding: Encoding, modifiedMs: number): Promise<Buffer | null> {
  const copy = precompressedPath(path, encoding);
  const info = await stat(copy).catch(() => null);
  // A copy that cannot be read is compressed again, not an error.
  return info?.isFile() && info.mtimeMs > modifiedMs ? readFile(copy).catch(() => null) : null;
}

/** One compressed body per file and encoding: a rebuilt file replaces its old entry. */
const cache = new Map<string, { version: string; body: Promise<Buffer> }>();

/**
 * The file at `path` compressed with `encoding`, computed once per `version` (size, mtime): `read`
 * runs only when this version is not cached yet, so a cached file costs no disk read. With the
 * file's `modifiedMs`, a copy compressed ahead beside it and newer than it is sent instead.
 */
export function compressed(path: string, version: string, read: () => Promise<Buffer>, encoding: Encoding, modifiedMs?: number): Promise<Buffer> {
  const id = `${encoding}:${path}`;
  const entry = cache.get(id);
  if (entry?.version === version) return entry.body;
  const compress = (body: Buffer) => (encoding === 'br' ? brotli(body, brotliOptions(body.byteLength)) : gzipped(body, { level: GZIP_LEVEL }));
  const ahead = modifiedMs === undefined ? Promise.resolve(null) : readPrecompressed(path, encoding, modifiedMs);
  const result = ahead.then((copy) => copy ?? read().then(compress));
  result.catch(() => cache.delete(id));
  cache.set(id, { version, body: result });
  return result;
}
