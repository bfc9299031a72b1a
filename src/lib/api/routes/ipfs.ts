// `/ipfs/upload-file` and `GET <origin>/ipfs/<cid>`: the built-in IPFS store. Files are kept
// under their real CID (CIDv1, raw codec, sha2-256: `bafkrei…`, see docs/decisions/0002-ipfs-cid.md)
// in the ledger database, so minted images show offline.
import { formFile } from '../body';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { ApiError, errorResponseFor, payloadTooLarge, validationError } from '../errors';
import { MAX_CID_LENGTH, quote } from '../limits';
import type { Route } from '../route';
import { plain } from '../route';

export interface StoredFile {
  cid: string;
  bytes: Uint8Array | Blob;
  type: string;
  name: string;
  size: number;
}

/** What the routes need of a file store (storage/FileStore implements it). */
export interface FileStoreLike {
  putFile(input: { cid: string; bytes: Uint8Array; type: string; name: string }): Promise<unknown>;
  getFile(cid: string): Promise<StoredFile | undefined>;
}

export interface IpfsRoutesOptions {
  files: FileStoreLike;
  /** The largest file taken; the handler's `limits.maxUploadBytes` when unset. */
  maxBytes?: number;
}

/** The CID IPFS gives these bytes added as a single raw block (`ipfs add --cid-version 1 --raw-leaves`). */
export async function cidOf(bytes: Uint8Array): Promise<string> {
  return CID.create(1, raw.code, await sha256.digest(bytes)).toString();
}

export function ipfsRoutes(options: IpfsRoutesOptions): Route[] {
  return [
    plain({
      method: 'POST',
      path: '/ipfs/upload-file',
      tag: 'ipfs',
      summary: 'Store a file (multipart/form-data, field `file`) under its CID; answers `{cid, fileUrl}`',
      rawBody: true,
      accepts: ['multipart'],
      handle: async (_input, { request, ipfsGateway, limits }) => {
        const maxBytes = options.maxBytes ?? limits.maxUploadBytes;
        // The handler has checked the content type; the body is read within the limit.
        const file = await formFile(request, maxBytes);
        if (file === null || typeof file === 'string') throw validationError('The form has no file in the field "file"');
        if (file.size > maxBytes) throw payloadTooLarge(maxBytes, 'The file');
        const bytes = new Uint8Array(await file.arrayBuffer());
        const cid = await cidOf(bytes);
        await options.files.putFile({ cid, bytes, type: file.type || 'application/octet-stream', name: (file as File).name ?? '' });
        return { status: 201, json: { cid, fileUrl: `${ipfsGateway}/${cid}` } };
      }
    })
  ];
}

const FILE_PATH = /^\/ipfs\/([^/]+)\/?$/;

/** The CID named by `<origin>/ipfs/<cid>`, or null for any other path. */
export function ipfsPathCid(pathname: string): string | null {
  const match = FILE_PATH.exec(pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1]; // malformed percent-encoding: not a CID, which serveFile answers with a 400
  }
}

/** The stored spelling of a CID: as given, else its base32 CIDv1 form (`zb2…` → `bafk…`). */
function lookupKeys(text: string): string[] {
  if (text.length > MAX_CID_LENGTH) return []; // before parsing: base58 decoding is quadratic
  try {
    const cid = CID.parse(text);
    return [...new Set([text, cid.toV1().toString()])];
  } catch {
    return [];
  }
}

/**
 * Answer `GET`/`HEAD <origin>/ipfs/<cid>` from the store, with the stored content type. Returns
 * null for requests that are not for a file, so a host can pass them on.
 */
export function fileServer(files: FileStoreLike): (request: Request) => Promise<Response> | null {
  return (request) => {
    const cid = ipfsPathCid(new URL(request.url).pathname);
    if (cid === null || (request.method !== 'GET' && request.method !== 'HEAD')) return null;
    return serveFile(files, request, cid).catch(errorResponseFor);
  };
}

async function serveFile(files: FileStoreLike, request: Request, cid: string): Promise<Response> {
  const keys = lookupKeys(cid);
  if (keys.length === 0) return errorResponseFor(validationError(`"${quote(cid)}" is not a CID`));
  let file: StoredFile | undefined;
  for (const key of keys) if ((file = await files.getFile(key))) break;
  if (!file) return errorResponseFor(new ApiError('NotFoundError', `No file with CID ${quote(cid)} is stored here (files uploaded in this browser are kept in its storage)`));
  const etag = `"${file.cid}"`;
  const headers = {
    'content-type': file.type || 'application/octet-stream',
    'cache-control': 'public, max-age=31536000, immutable',
    etag,
    // Content-addressed bytes from anyone: never run them as this origin's pages.
    'content-security-policy': 'sandbox',
    'x-content-type-options': 'nosniff'
  };
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  const body = request.method === 'HEAD' ? null : file.bytes;
  return new Response(body as BodyInit | null, { headers: { ...headers, 'content-length': String(file.size) } });
}
