// The relay of Opalite's /connect window: a connecting app's request, once its origin is allowed,
// is made with this page's own fetch to this origin's `/sandbox/…` (so the service worker, or the
// in-page host, answers it from the very ledger the Opalite tab shows), and its answer goes back
// as status, headers and bytes. Only the REST API and the file gateway are reachable; the dev
// tools that replace or reconfigure the person's ledger are not, and no credential crosses.
import { ApiError, errorResponse, errorResponseFor } from '../api/errors';
import { ipfsPathCid } from '../api/routes/ipfs';
import { isApiPath } from '../client/sandbox-paths';
import type { HeaderList, RequestMessage } from './protocol';

export type RelayFetch = (request: Request) => Promise<Response>;

export interface RelayAnswer {
  status: number;
  headers: HeaderList;
  body: ArrayBuffer | null;
}

/** The request headers that reach the API; anything else is dropped (cookies never come from a message). */
const FORWARDED_HEADERS = new Set(['accept', 'content-type']);
/** Statuses whose Response may carry no body. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
/** `/dev/…` writes an app may make: sealing a block. Import, reset and block mode stay the person's. */
const DEV_WRITES_ALLOWED = new Set(['blocks/seal']);

function forbidden(message: string): ApiError {
  return new ApiError('ValidationError', message, undefined, 403);
}

/** The refusal every request of an origin that is not (or no longer) allowed gets. */
export function notAllowed(origin: string): ApiError {
  return forbidden(`${origin} is not allowed to use this Opalite sandbox: connect again and allow it in Opalite`);
}

/** The path's segments after `/sandbox` (and `/v1`), decoded as the router decodes them; null when undecodable. */
function sandboxSegments(pathname: string): string[] | null {
  try {
    const segments = pathname.split('/').filter(Boolean).map((s) => decodeURIComponent(s).toLowerCase());
    return segments.slice(segments[1] === 'v1' ? 2 : 1);
  } catch {
    return null;
  }
}

/** Why `request` may not cross to `url`, or null when it may; `origin` is Opalite's. */
export function refusalOf(request: RequestMessage, url: URL, origin: string): ApiError | null {
  if (url.origin !== origin) return forbidden('Requests reach only the Opalite origin');
  if (request.headers.some(([name]) => name === 'authorization' || name === 'cookie')) {
    return forbidden('Credentials do not cross to Opalite: sign with your own key (use=Build, then /extrinsic/submit), or ask Opalite to sign with signPayload');
  }
  const readOnly = request.method === 'GET' || request.method === 'HEAD';
  if (readOnly && request.body !== null) return new ApiError('ValidationError', `A ${request.method} request has no body`);
  if (ipfsPathCid(url.pathname) !== null) return readOnly ? null : forbidden('Files are read-only here: upload with POST /sandbox/v1/ipfs/upload-file');
  if (!isApiPath(url.pathname)) return forbidden(`Only the sandbox API (/sandbox/…) and its files (/ipfs/<cid>) are reachable, not ${url.pathname.slice(0, 120)}`);
  const segments = sandboxSegments(url.pathname);
  if (segments === null) return new ApiError('ValidationError', 'The URL is not valid: malformed percent-encoding');
  if (segments[0] === 'dev' && !readOnly && !DEV_WRITES_ALLOWED.has(segments.slice(1).join('/'))) {
    return forbidden('Importing, resetting and the block mode of the sandbox are for its owner, in Opalite');
  }
  return null;
}

/** A Response as the message carries it: status, headers and the bytes (transferable). */
export async function answerOf(response: Response): Promise<RelayAnswer> {
  const headers: HeaderList = [];
  response.headers.forEach((value, name) => headers.push([name, value]));
  const body = NULL_BODY_STATUSES.has(response.status) ? null : await response.arrayBuffer();
  return { status: response.status, headers, body };
}

/** Makes `request` against the sandbox of `origin` (Opalite's) with `fetchLedger`; every failure is an error envelope. */
export async function relay(request: RequestMessage, fetchLedger: RelayFetch, origin: string = location.origin): Promise<RelayAnswer> {
  try {
    const url = new URL(request.path, origin);
    const refusal = refusalOf(request, url, origin);
    if (refusal) return answerOf(errorResponse(refusal));
    const headers = new Headers(request.headers.filter(([name]) => FORWARDED_HEADERS.has(name)));
    const outgoing = new Request(url, { method: request.method, headers, body: request.body, credentials: 'omit', cache: 'no-store', redirect: 'error' });
    return await answerOf(await fetchLedger(outgoing));
  } catch (error) {
    return answerOf(errorResponseFor(error));
  }
}
