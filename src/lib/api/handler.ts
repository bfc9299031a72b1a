// The one REST handler, `(Request) => Promise<Response>`, shared by the service worker, the
// in-page host and the Node host. Routes come from the table; every route answers at
// `/<network>/v1/...` and `/<network>/...`, plural and singular resource roots alike.
import type { Context } from 'hono';
import { HonoBase } from 'hono/hono-base';
import { TrieRouter } from 'hono/router/trie-router';
import type { Ledger } from '../ledger/chain/ledger';
import type { LedgerReads } from '../ledger/chain/reads';
import { bodyText, parseJsonText } from './body';
import { ApiError, errorResponseFor, fromZodError, validationError } from './errors';
import { jsonResponse } from './json';
import { MAX_CALLS_PER_BATCH, MAX_URL_LENGTH, quote, resolveLimits, type RequestLimits } from '../limits';
import { readsFor } from './at-block';
import { handleMutation } from './mutation';
import { openApiDocument } from './openapi';
import { parseQuery } from './query';
import type { ApiContext, BodyType, ImpersonationPolicy, Route } from './route';
import { allRoutes } from './routes/index';

export interface HandlerOptions {
  ledger: Ledger;
  /** Extra routes (the browser host adds file serving and dev tools). */
  extraRoutes?: Route[];
  /** Body limits of this host (defaults in limits.ts: JSON 1 MiB, uploads 20 MiB). */
  limits?: RequestLimits;
  /**
   * Requests come from a browser's own fetch (service worker, in-page host), so `request.mode`
   * tells a navigation. A server builds its Requests itself (mode is always 'cors', and reading it
   * costs a full Request per call), so there only the Sec-Fetch-Mode header tells. Default true.
   */
  browserRequests?: boolean;
  /** Whether `Authorization: Impersonate <address>` may sign (api/auth.ts); default: never. */
  impersonation?: ImpersonationPolicy;
}

export type RestHandler = (request: Request) => Promise<Response>;

/** Every path a route answers at, below the network segment. */
export function pathSpellings(route: Route): string[] {
  const singular = route.path.replace(/^\/collections(?=\/|$)/, '/collection').replace(/^\/tokens(?=\/|$)/, '/token');
  const paths = new Set([route.path, singular, ...(route.aliases ?? [])]);
  return [...paths].flatMap((p) => [`/v1${p}`, p]);
}

const MEDIA_TYPES: Record<BodyType, RegExp> = {
  json: /^application\/json\s*(;|$)/i,
  multipart: /^multipart\/form-data\s*(;|$)/i,
  // Not a type a form may send: a cross-site page must ask first (preflight), as for JSON.
  zip: /^application\/zip\s*(;|$)/i
};

const MEDIA_TYPE_NAMES: Record<BodyType, string> = { json: 'application/json', multipart: 'multipart/form-data', zip: 'application/zip' };

function contentTypeOf(request: Request): string {
  return request.headers.get('content-type') ?? '';
}

function accepted(contentType: string, accepts: readonly BodyType[]): boolean {
  return accepts.some((type) => MEDIA_TYPES[type].test(contentType));
}

function invalidContentType(contentType: string, accepts: readonly BodyType[]): Error {
  const wanted = accepts.map((t) => MEDIA_TYPE_NAMES[t]).join(' or ');
  return validationError(`Invalid Content-type header "${quote(contentType)}": this route takes ${wanted}`);
}

/**
 * Cross-site writes: a browser sends POSTs of a form's content types (text/plain, multipart,
 * urlencoded) or with no body at all from any page without asking first. Writes must carry a type
 * that needs a preflight (application/json), or multipart where a route takes files; a form
 * submission (a navigation) is never an API call. A body-less POST without a type is accepted only
 * from a client that is not a browser (browsers name the Origin of every POST).
 */
function checkWrite(request: Request, method: string, accepts: readonly BodyType[], browserRequests: boolean): void {
  if (request.headers.get('sec-fetch-mode') === 'navigate' || (browserRequests && request.mode === 'navigate')) {
    throw validationError('Form submissions are not accepted: send the request with Content-Type application/json');
  }
  if (method !== 'POST') return; // PATCH/DELETE/PUT always need a preflight; their bodies are checked when read
  const contentType = contentTypeOf(request);
  if (accepted(contentType, accepts)) return;
  const bodyless = contentType === '' && (request.body === null || request.headers.get('content-length') === '0');
  if (bodyless && !request.headers.has('origin')) return;
  throw invalidContentType(contentType, accepts);
}

/** The JSON body of a write (empty is `{}`); a non-empty body must be declared application/json. */
async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const text = await bodyText(request, maxBytes);
  if (text.trim() === '') return {};
  const contentType = contentTypeOf(request);
  if (!MEDIA_TYPES.json.test(contentType)) throw invalidContentType(contentType, ['json']);
  return parseJsonText(text);
}

/** BuildBatch/BuildSequence build one payload per item: at most MAX_CALLS_PER_BATCH of them. */
function checkBatchSize(use: unknown, body: unknown): void {
  const batch = use === 'BuildBatch' || use === 'BuildSequence';
  if (batch && Array.isArray(body) && body.length > MAX_CALLS_PER_BATCH) {
    throw validationError(`${use} takes at most ${MAX_CALLS_PER_BATCH} calls, got ${body.length}`);
  }
}

/** DECISIONS 2: POST answers 201; GET, PATCH and DELETE answer 200. */
function successStatus(method: string, status: number): number {
  return method !== 'POST' && status === 201 ? 200 : status;
}

export function createHandler(options: HandlerOptions): RestHandler {
  const { ledger } = options;
  const limits = resolveLimits(options.limits);
  const browserRequests = options.browserRequests ?? true;
  const routes = [...allRoutes(), ...(options.extraRoutes ?? [])];
  const base = `/${ledger.config.network}`;
  // One router, not Hono's default pair (a RegExpRouter tried first, this one kept as the fallback):
  // the sandbox worker, which carries this one anyway, is smaller by the other (W1).
  const app = new HonoBase({ router: new TrieRouter() });

  const context = (c: Context): ApiContext => ({
    ledger,
    ipfsGateway: `${new URL(c.req.url).origin}/ipfs`,
    request: c.req.raw,
    limits,
    impersonation: options.impersonation
  });

  for (const route of routes) {
    const accepts: readonly BodyType[] = (route.kind === 'plain' && route.accepts) || ['json'];
    const answer = async (c: Context): Promise<Response> => {
      const ctx = context(c);
      if (route.method !== 'GET') checkWrite(c.req.raw, route.method, accepts, browserRequests);
      const query = parseQuery(new URL(c.req.url).searchParams);
      switch (route.kind) {
        case 'read': {
          // At a block: checked (and the block found) before the route's own parameters.
          const { reads, rest } = await readsFor(ledger, query);
          const parsed = route.query.safeParse(rest);
          if (!parsed.success) throw fromZodError(parsed.error, 'query');
          return jsonResponse(await route.handle(parsed.data, { ...ctx, ledger: reads }));
        }
        case 'mutation': {
          const body = await readJsonBody(c.req.raw, limits.maxJsonBytes);
          checkBatchSize(query.use, body);
          const { status, json } = await handleMutation(route, query, body, ctx);
          return jsonResponse(json, successStatus(route.method, status));
        }
        case 'plain': {
          let q: unknown = query;
          let body: unknown;
          let reads: LedgerReads = ledger;
          if (route.atBlock) ({ reads, rest: q } = await readsFor(ledger, query));
          // Never the head's answer to a question about another block.
          else if (query.at !== undefined || query.blockHashAt !== undefined) throw validationError(`${route.path} does not read chain state at a block: it takes no at / blockHashAt`);
          if (route.query) {
            const parsed = route.query.safeParse(q);
            if (!parsed.success) throw fromZodError(parsed.error, 'query');
            q = parsed.data;
          }
          if (route.method !== 'GET' && !route.rawBody) {
            body = await readJsonBody(c.req.raw, limits.maxJsonBytes);
            if (route.body) {
              const parsed = route.body.safeParse(body);
              if (!parsed.success) throw fromZodError(parsed.error, 'body');
              body = parsed.data;
            }
          }
          const result = await route.handle({ query: q, body }, { ...ctx, reads });
          if (result instanceof Response) return result;
          return jsonResponse(result.json, successStatus(route.method, result.status ?? (route.method === 'POST' ? 201 : 200)));
        }
      }
    };
    for (const path of pathSpellings(route)) app.on(route.method, base + path, answer);
  }

  const openapi = () => jsonResponse(openApiDocument(routes, ledger.config.network, limits));
  app.get(`${base}/v1/openapi.json`, openapi);
  app.get(`${base}/openapi.json`, openapi);

  app.notFound((c) => errorResponseFor(notFound(c.req.method, c.req.url)));
  app.onError((error) => errorResponseFor(error));

  return async (request) => {
    try {
      // Before routing: nothing below needs more, and every later step is linear in the URL.
      if (request.url.length > MAX_URL_LENGTH) return errorResponseFor(validationError(`The URL is longer than ${MAX_URL_LENGTH} characters`));
      return await app.fetch(request);
    } catch (error) {
      return errorResponseFor(error);
    }
  };
}

function notFound(method: string, url: string): Error {
  return new ApiError('NotFoundError', `No route ${quote(method)} ${quote(new URL(url).pathname)}`);
}
