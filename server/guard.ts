// What the Node host checks before a request reaches the REST handler: the Host header (DNS
// rebinding), the Origin (CORS answers, preflights, no cross-site writes) and a declared body
// length over the route's cap. Each refusal is an error envelope; nothing here reads a body.
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError, payloadTooLarge } from '../src/lib/api/errors';
import { MAX_LEDGER_ARCHIVE_BYTES, MULTIPART_OVERHEAD_BYTES, quote, type ResolvedLimits } from '../src/lib/limits';
import type { HostPolicy } from './allowed-hosts';
import type { OriginPolicy } from './origins';

export interface GuardPolicy {
  hosts: HostPolicy;
  origins: OriginPolicy;
  limits: ResolvedLimits;
}

export type Verdict =
  /** Answer with this error; `close` when a body may still be on its way (do not read it). */
  | { kind: 'refuse'; error: ApiError; headers: Record<string, string>; close?: boolean }
  /** Answer 204 with these headers (a CORS preflight, or a plain OPTIONS). */
  | { kind: 'options'; headers: Record<string, string> }
  /** Hand to the handler; add these headers to its answer. */
  | { kind: 'pass'; headers: Record<string, string> };

const METHODS = 'GET, HEAD, POST, PATCH, DELETE, OPTIONS';
const REQUEST_HEADERS = 'content-type, authorization, x-sdk-version, accept';
/** Headers a page may read: the export's file name and which host answered. */
const EXPOSED_HEADERS = 'content-disposition, retry-after, x-opalite-host';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Routes whose body is a file (an upload), capped by the upload limit. */
const FILE_BODY_PATH = /\/ipfs\/(upload-file|upload-files|add-files|upload-zip)\/?$/;
/** The ledger import: a JSON export like an upload, or a ledger archive with its files. */
const IMPORT_PATH = /\/dev\/import\/?$/;

function forbidden(message: string, status: number): ApiError {
  return new ApiError('ValidationError', message, undefined, status);
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The largest body a route takes: what the handler enforces while reading, declared up front. */
export function bodyCapFor(pathname: string, limits: ResolvedLimits): { bytes: number; limit: number; what: string } {
  // A file comes in a multipart form: room for its framing beyond the file's own limit.
  if (IMPORT_PATH.test(pathname)) {
    const limit = Math.max(MAX_LEDGER_ARCHIVE_BYTES, limits.maxUploadBytes);
    return { bytes: limit + MULTIPART_OVERHEAD_BYTES, limit, what: 'The ledger export' };
  }
  if (FILE_BODY_PATH.test(pathname)) return { bytes: limits.maxUploadBytes + MULTIPART_OVERHEAD_BYTES, limit: limits.maxUploadBytes, what: 'The upload' };
  return { bytes: limits.maxJsonBytes, limit: limits.maxJsonBytes, what: 'The request body' };
}

export function guardRequest(policy: GuardPolicy, request: { method?: string; url?: string; headers: IncomingHttpHeaders }): Verdict {
  const method = (request.method ?? 'GET').toUpperCase();
  const host = header(request.headers, 'host');
  if (!policy.hosts.allows(host)) {
    const named = host === undefined ? 'no Host header' : `the Host "${quote(host)}"`;
    // 421: this server does not answer for that name (start it with --allow-host to add one).
    return { kind: 'refuse', error: forbidden(`This Opalite host does not answer for ${named} (names it answers: ${policy.hosts.description})`, 421), headers: {}, close: true };
  }

  const origin = header(request.headers, 'origin');
  const allowed = origin !== undefined && policy.origins.allows(origin);
  const cors: Record<string, string> = policy.origins.any ? {} : { vary: 'origin' };
  if (allowed) {
    cors['access-control-allow-origin'] = policy.origins.any ? '*' : origin;
    cors['access-control-expose-headers'] = EXPOSED_HEADERS;
  }

  if (method === 'OPTIONS') {
    const preflight = origin !== undefined && header(request.headers, 'access-control-request-method') !== undefined;
    if (!preflight) return { kind: 'options', headers: { ...cors, allow: METHODS } };
    if (!allowed) return { kind: 'refuse', error: forbidden(`Pages of ${quote(origin)} may not call this host (start it with --cors to allow an origin)`, 403), headers: cors };
    const headers: Record<string, string> = {
      ...cors,
      'access-control-allow-methods': METHODS,
      'access-control-allow-headers': REQUEST_HEADERS,
      'access-control-max-age': '600'
    };
    // Chrome's Private Network Access: a public page calling this loopback host must be allowed so.
    if (header(request.headers, 'access-control-request-private-network') === 'true') headers['access-control-allow-private-network'] = 'true';
    return { kind: 'options', headers };
  }

  // A browser sends Origin with every write; one from a page not allowed never reaches the handler,
  // whatever its content type (a text/plain POST needs no preflight).
  if (origin !== undefined && !allowed && !SAFE_METHODS.has(method)) {
    return { kind: 'refuse', error: forbidden(`Writes from pages of ${quote(origin)} are refused (start the host with --cors to allow an origin)`, 403), headers: cors, close: true };
  }
  // Defence in depth: a write a browser says comes from another site, with no Origin to check.
  const site = header(request.headers, 'sec-fetch-site');
  if (origin === undefined && (site === 'cross-site' || site === 'same-site') && !SAFE_METHODS.has(method)) {
    return { kind: 'refuse', error: forbidden(`Writes a browser sends from another site (Sec-Fetch-Site: ${site}) without an Origin are refused`, 403), headers: cors, close: true };
  }

  const declared = header(request.headers, 'content-length');
  if (declared !== undefined && !SAFE_METHODS.has(method)) {
    const cap = bodyCapFor(pathOf(request.url), policy.limits);
    if (Number(declared) > cap.bytes) return { kind: 'refuse', error: payloadTooLarge(cap.limit, cap.what), headers: cors, close: true };
  }
  return { kind: 'pass', headers: cors };
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
}
