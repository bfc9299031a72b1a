// `/ipfs/upload-file` and `GET <origin>/ipfs/<cid>`: the built-in IPFS store. Files are kept
// under their real CID (CIDv1, raw codec, sha2-256: `bafkrei…`, see docs/decisions/0002-ipfs-cid.md)
// in the ledger database, so minted images show offline.
import { formFile } from '../body';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { ApiError, errorResponse, validationError } from '../errors';
import type { Route } from '../route';
import { plain } from '../route';

/** The largest file `upload-file` takes. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/** Room for the multipart framing around the file itself. */
const MULTIPART_SLACK = 64 * 1024;

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
  maxBytes?: number;
}

/** The CID IPFS gives these bytes added as a single raw block (`ipfs add --cid-version 1 --raw-leaves`). */
export async function cidOf(bytes: Uint8Array): Promise<string> {
  return CID.create(1, raw.code, await sha256.digest(bytes)).toString();
}

function tooLarge(maxBytes: number): ApiError {
  const mb = (maxBytes / (1024 * 1024)).toFixed(0);
  return new ApiError('ValidationError', `The file is larger than ${mb} MB, the most the built-in IPFS store takes`, { maxBytes }, 413);
}

export function ipfsRoutes(options: IpfsRoutesOptions): Route[] {
  const maxBytes = options.maxBytes ?? MAX_UPLOAD_BYTES;
  return [
    plain({
      method: 'POST',
      path: '/ipfs/upload-file',
      tag: 'ipfs',
      summary: 'Store a file (multipart/form-data, field `file`) under its CID; answers `{cid, fileUrl}`',
      rawBody: true,
      handle: async (_input, { request, ipfsGateway }) => {
        // Refuse an oversized body before reading it, when its length is declared.
        const declared = Number(request.headers.get('content-length'));
        if (Number.isFinite(declared) && declared > maxBytes + MULTIPART_SLACK) throw tooLarge(maxBytes);
        const type = request.headers.get('content-type') ?? '';
        if (!/^multipart\/form-data/i.test(type)) {
          throw validationError(`Invalid Content-type header "${type}": upload-file takes multipart/form-data with the file in the field "file"`);
        }
        const file = await formFile(request);
        if (file === null || typeof file === 'string') throw validationError('The form has no file in the field "file"');
        if (file.size > maxBytes) throw tooLarge(maxBytes);
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
  return match ? decodeURIComponent(match[1]) : null;
}

/** The stored spelling of a CID: as given, else its base32 CIDv1 form (`zb2…` → `bafk…`). */
function lookupKeys(text: string): string[] {
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
    return serveFile(files, request, cid);
  };
}

async function serveFile(files: FileStoreLike, request: Request, cid: string): Promise<Response> {
  const keys = lookupKeys(cid);
  if (keys.length === 0) return errorResponse(validationError(`"${cid}" is not a CID`));
  let file: StoredFile | undefined;
  for (const key of keys) if ((file = await files.getFile(key))) break;
  if (!file) return errorResponse(new ApiError('NotFoundError', `No file with CID ${cid} is stored here (files uploaded in this browser are kept in its storage)`));
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
