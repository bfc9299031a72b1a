// The built-in IPFS store: `/ipfs/upload-file`, `upload-files`, `add-files`, `upload-zip`, and
// `GET <origin>/ipfs/<cid>[/<path>]`. Files and folders get the CIDs `ipfs add` gives them with its
// default settings (`Qm…`, see docs/decisions/0002-ipfs-cid.md) and are kept in the ledger
// database, so minted images show offline; files stored earlier under `bafkrei…` ids still serve.
import { z } from 'zod';
import { ApiError, errorResponseFor, payloadTooLarge, validationError } from '../errors';
import { fileIn, filesIn, readForm } from '../ipfs/form';
import { DEFAULT_MEDIA_TYPE, mediaTypeOf } from '../ipfs/media-types';
import { checkedPath, consistentTree } from '../ipfs/tree-paths';
import { cidSpellings, extendedTree, findStored, folderLinks, storeTree, type FileStoreLike, type NewFile, type StoredFile } from '../ipfs/tree-store';
import { cachedThumbnails, thumbnailSize, type Thumbnailer } from '../ipfs/thumbnails';
import { buildTree, fileCid, type TreeEntry } from '../ipfs/unixfs';
import { readZip } from '../ipfs/zip';
import { MAX_CID_LENGTH, MAX_FILES_PER_UPLOAD, MAX_PATH_DEPTH, MAX_TREE_ENTRIES, MAX_UNZIPPED_BYTES, quote } from '../../limits';
import type { ApiContext, Route } from '../route';
import { plain } from '../route';

export type { FileStoreLike, StoredFile } from '../ipfs/tree-store';

export interface IpfsRoutesOptions {
  files: FileStoreLike;
  /** The largest file taken (and the largest upload body, framing aside); the handler's `limits.maxUploadBytes` when unset. */
  maxBytes?: number;
}

/** The CID `ipfs add` gives these bytes with its default settings (`Qm…`). */
export const cidOf = fileCid;

/** Fields besides the files a form may carry (the SDK sends none; curl users may add some). */
const SPARE_PARTS = 8;

/** The multipart bodies, as the OpenAPI document shows them (the handler reads them itself). */
const binary = z.string().meta({ format: 'binary' });
const oneFile = z.object({ file: binary });
const manyFiles = z.object({ files: z.array(binary).max(MAX_FILES_PER_UPLOAD) });

/** `{cid, fileUrl}`, the real service's answer to every upload. */
function uploaded(ctx: ApiContext, cid: string, status: number) {
  return { status, json: { cid, fileUrl: `${ctx.ipfsGateway}/${cid}` } };
}

export function ipfsRoutes(options: IpfsRoutesOptions): Route[] {
  const { files } = options;
  const maxBytesOf = (ctx: ApiContext) => options.maxBytes ?? ctx.limits.maxUploadBytes;

  /** The form's files in `files`, each a checked path of the tree with its bytes and type. */
  async function newFiles(form: FormData, maxBytes: number): Promise<NewFile[]> {
    const sent = filesIn(form, 'files');
    if (sent.length === 0) throw validationError('The form has no files in the field "files"');
    if (sent.length > MAX_FILES_PER_UPLOAD) throw validationError(`At most ${MAX_FILES_PER_UPLOAD} files are taken at once, got ${sent.length}`);
    return Promise.all(
      sent.map(async (file) => {
        if (file.size > maxBytes) throw payloadTooLarge(maxBytes, `The file "${quote(file.name)}"`);
        return { path: checkedPath(file.name, 'The file name'), bytes: new Uint8Array(await file.arrayBuffer()), type: file.type || DEFAULT_MEDIA_TYPE };
      })
    );
  }

  /** Build the tree, store its new files and folders; answers the root folder's CID. */
  async function storeFolder(entries: TreeEntry[], added: readonly NewFile[]): Promise<string> {
    const tree = await buildTree(consistentTree(entries));
    await storeTree(files, tree, added);
    return tree.root.toString();
  }

  const asEntries = (added: readonly NewFile[]): TreeEntry[] => added.map(({ path, bytes }) => ({ kind: 'file', path, bytes }));

  return [
    plain({
      method: 'POST',
      path: '/ipfs/upload-file',
      tag: 'ipfs',
      summary: 'Store a file (multipart/form-data, field `file`) under the CID `ipfs add` gives it; answers `{cid, fileUrl}`',
      rawBody: true,
      accepts: ['multipart'],
      body: oneFile,
      handle: async (_input, ctx) => {
        const maxBytes = maxBytesOf(ctx);
        const file = fileIn(await readForm(ctx.request, maxBytes, 1 + SPARE_PARTS), 'file');
        if (file.size > maxBytes) throw payloadTooLarge(maxBytes, 'The file');
        const bytes = new Uint8Array(await file.arrayBuffer());
        const cid = await fileCid(bytes);
        await files.putFile({ cid, bytes, type: file.type || DEFAULT_MEDIA_TYPE, name: file.name ?? '' });
        return uploaded(ctx, cid, 201);
      }
    }),
    plain({
      method: 'POST',
      path: '/ipfs/upload-files',
      tag: 'ipfs',
      summary: `Store files (field \`files\`, at most ${MAX_FILES_PER_UPLOAD}, named by their file names) in one new folder, as \`ipfs add -w\` does; answers the folder's \`{cid, fileUrl}\``,
      rawBody: true,
      accepts: ['multipart'],
      body: manyFiles,
      handle: async (_input, ctx) => {
        const maxBytes = maxBytesOf(ctx);
        const added = await newFiles(await readForm(ctx.request, maxBytes, MAX_FILES_PER_UPLOAD + SPARE_PARTS), maxBytes);
        return uploaded(ctx, await storeFolder(asEntries(added), added), 201);
      }
    }),
    plain({
      method: 'PATCH',
      path: '/ipfs/add-files',
      tag: 'ipfs',
      summary: 'Add files (field `files`) to the stored folder `cid` (a file of the same name is replaced); answers the new folder\'s `{cid, fileUrl}`',
      rawBody: true,
      accepts: ['multipart'],
      body: manyFiles.extend({ cid: z.string().max(MAX_CID_LENGTH) }),
      handle: async (_input, ctx) => {
        const maxBytes = maxBytesOf(ctx);
        const form = await readForm(ctx.request, maxBytes, MAX_FILES_PER_UPLOAD + SPARE_PARTS);
        const root = form.get('cid');
        if (typeof root !== 'string' || root.trim() === '') throw validationError('The form has no field "cid" (the folder to add the files to)');
        if (cidSpellings(root.trim()).length === 0) throw validationError(`"${quote(root)}" is not a CID`);
        const added = await newFiles(form, maxBytes);
        return uploaded(ctx, await storeFolder(await extendedTree(files, root.trim(), asEntries(added)), added), 200);
      }
    }),
    plain({
      method: 'POST',
      path: '/ipfs/upload-zip',
      tag: 'ipfs',
      summary: `Unpack a ZIP archive (field \`file\`; at most ${MAX_TREE_ENTRIES} entries, ${MAX_UNZIPPED_BYTES / 1024 / 1024} MiB unpacked) into one new folder; answers the folder's \`{cid, fileUrl}\``,
      rawBody: true,
      accepts: ['multipart'],
      body: oneFile,
      handle: async (_input, ctx) => {
        const maxBytes = maxBytesOf(ctx);
        const archive = fileIn(await readForm(ctx.request, maxBytes, 1 + SPARE_PARTS), 'file');
        if (archive.size > maxBytes) throw payloadTooLarge(maxBytes, 'The archive');
        const entries = readZip(new Uint8Array(await archive.arrayBuffer()), { maxFileBytes: maxBytes, maxTotalBytes: MAX_UNZIPPED_BYTES, maxEntries: MAX_TREE_ENTRIES });
        const added = entries.flatMap((entry) => (entry.kind === 'file' ? [{ path: entry.path, bytes: entry.bytes, type: mediaTypeOf(entry.path) }] : []));
        if (added.length === 0) throw validationError('The archive has no files');
        return uploaded(ctx, await storeFolder(entries, added), 201);
      }
    })
  ];
}

const FILE_PATH = /^\/ipfs\/([^/]+)(?:\/(.*))?$/;

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // malformed percent-encoding: not a CID or name, answered with a 400 or 404
  }
}

/** The CID named by `<origin>/ipfs/<cid>[/<path>]`, or null for any other path. */
export function ipfsPathCid(pathname: string): string | null {
  const match = FILE_PATH.exec(pathname);
  return match ? decoded(match[1]) : null;
}

/** The names of the path below the CID (a trailing `/` names nothing), at most MAX_PATH_DEPTH of them. */
function namesBelow(pathname: string): string[] {
  const rest = FILE_PATH.exec(pathname)?.[2] ?? '';
  const names = rest === '' ? [] : rest.replace(/\/$/, '').split('/', MAX_PATH_DEPTH + 1);
  if (names.length > MAX_PATH_DEPTH) throw validationError(`The path is nested deeper than ${MAX_PATH_DEPTH} folders`);
  return names.map(decoded);
}

/**
 * Answer `GET`/`HEAD <origin>/ipfs/<cid>[/<path>]` from the store, with the stored content type; a
 * folder answers with its links as JSON. Returns null for requests that are not for a file, so a
 * host can pass them on.
 */
export function fileServer(files: FileStoreLike, options: { thumbnails?: Thumbnailer } = {}): (request: Request) => Promise<Response> | null {
  const thumbnails = options.thumbnails ? cachedThumbnails(options.thumbnails) : undefined;
  return (request) => {
    const url = new URL(request.url);
    const cid = ipfsPathCid(url.pathname);
    if (cid === null || (request.method !== 'GET' && request.method !== 'HEAD')) return null;
    // `?thumb=<px>`: a small variant where this host can draw one (else the file itself).
    const size = thumbnails ? thumbnailSize(url.searchParams.get('thumb')) : undefined;
    const thumbnail = size === undefined ? undefined : (file: StoredFile) => thumbnails!(file.cid, file.type, file.bytes, size);
    return serveFile(files, request, cid, url.pathname, thumbnail).catch(errorResponseFor);
  };
}

const notStored = (what: string) => new ApiError('NotFoundError', `No ${what} is stored here (files uploaded in this browser are kept in its storage)`);

/** The entry at `names` below the stored entry `cid`. */
async function resolve(files: FileStoreLike, cid: string, names: string[]): Promise<StoredFile> {
  let entry = await findStored(files, cid);
  if (!entry) throw notStored(`file with CID ${quote(cid)}`);
  for (const name of names) {
    const link = (await folderLinks(entry))?.find((l) => l.name === name);
    if (!link) throw notStored(`"${quote(name)}" in ${quote(entry.cid)}`);
    entry = await findStored(files, link.cid.toString());
    if (!entry) throw notStored(`file with CID ${quote(link.cid.toString())} (linked as "${quote(name)}")`);
  }
  return entry;
}

async function serveFile(files: FileStoreLike, request: Request, cid: string, pathname: string, thumbnail?: (file: StoredFile) => Promise<Blob | null>): Promise<Response> {
  if (cidSpellings(cid).length === 0) return errorResponseFor(validationError(`"${quote(cid)}" is not a CID`));
  const stored = await resolve(files, cid, namesBelow(pathname));
  const links = await folderLinks(stored);
  const small = links || !thumbnail ? null : await thumbnail(stored);
  const file: StoredFile = small ? { ...stored, bytes: small, type: small.type, size: small.size } : stored;
  const etag = small ? `"${stored.cid}-thumb-${small.size}"` : `"${stored.cid}"`;
  const headers = {
    'content-type': links ? 'application/json' : file.type || DEFAULT_MEDIA_TYPE,
    'cache-control': 'public, max-age=31536000, immutable',
    etag,
    // Content-addressed bytes from anyone: never run them as this origin's pages.
    'content-security-policy': 'sandbox',
    'x-content-type-options': 'nosniff'
  };
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  const body = links ? JSON.stringify({ cid: file.cid, links: links.map((l) => ({ name: l.name, cid: l.cid.toString(), size: l.size })) }) : file.bytes;
  const size = typeof body === 'string' ? new TextEncoder().encode(body).byteLength : file.size;
  return new Response(request.method === 'HEAD' ? null : (body as BodyInit), { headers: { ...headers, 'content-length': String(size) } });
}
