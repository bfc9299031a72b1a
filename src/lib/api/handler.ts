// The one REST handler, `(Request) => Promise<Response>`, shared by the service worker, the
// in-page host and the Node host. Routes come from the table; every route answers at
// `/<network>/v1/...` and `/<network>/...`, plural and singular resource roots alike.
import { jsonBody } from './body';
import { jsonResponse } from './json';
import { Hono, type Context } from 'hono';
import type { Ledger } from '../ledger/chain/ledger';
import { TransactionError } from '../ledger/chain/errors';
import { ApiError, errorResponse, fromTransactionError, fromZodError, validationError } from './errors';
import { handleMutation } from './mutation';
import { openApiDocument } from './openapi';
import { parseQuery } from './query';
import type { ApiContext, Route } from './route';
import { allRoutes } from './routes/index';

export interface HandlerOptions {
  ledger: Ledger;
  /** Extra routes (the browser host adds file serving and dev tools). */
  extraRoutes?: Route[];
}

export type RestHandler = (request: Request) => Promise<Response>;

/** Every path a route answers at, below the network segment. */
export function pathSpellings(route: Route): string[] {
  const singular = route.path.replace(/^\/collections(?=\/|$)/, '/collection').replace(/^\/tokens(?=\/|$)/, '/token');
  const paths = new Set([route.path, singular, ...(route.aliases ?? [])]);
  return [...paths].flatMap((p) => [`/v1${p}`, p]);
}

const BODY_TYPES = /^(application\/json|multipart\/form-data)/i;

async function readJsonBody(request: Request): Promise<unknown> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!BODY_TYPES.test(contentType)) throw validationError(`Invalid Content-type header "${contentType}"`);
  return jsonBody(request);
}

function toApiError(error: unknown): ApiError {
  // Dexie wraps what is thrown inside a transaction; the cause is what the client must see.
  while (error instanceof Error && !(error instanceof ApiError) && (error as { inner?: unknown }).inner instanceof Error) {
    error = (error as { inner?: unknown }).inner;
  }
  if (error instanceof ApiError) return error;
  if (error instanceof TransactionError) return fromTransactionError(error);
  if (error instanceof Error && error.name === 'StorageFullError') return new ApiError('StorageFullError', error.message);
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError('SdkError', `Internal error: ${message}`);
}

export function createHandler(options: HandlerOptions): RestHandler {
  const { ledger } = options;
  const routes = [...allRoutes(), ...(options.extraRoutes ?? [])];
  const base = `/${ledger.config.network}`;
  const app = new Hono();

  const context = (c: Context): ApiContext => ({
    ledger,
    ipfsGateway: `${new URL(c.req.url).origin}/ipfs`,
    request: c.req.raw
  });

  for (const route of routes) {
    const answer = async (c: Context): Promise<Response> => {
      const ctx = context(c);
      const query = parseQuery(new URL(c.req.url).searchParams);
      switch (route.kind) {
        case 'read': {
          const parsed = route.query.safeParse(query);
          if (!parsed.success) throw fromZodError(parsed.error, 'query');
          return jsonResponse(await route.handle(parsed.data, ctx));
        }
        case 'mutation': {
          const body = await readJsonBody(c.req.raw);
          const { status, json } = await handleMutation(route, query, body, ctx);
          return jsonResponse(json, status);
        }
        case 'plain': {
          let q: unknown = query;
          let body: unknown;
          if (route.query) {
            const parsed = route.query.safeParse(query);
            if (!parsed.success) throw fromZodError(parsed.error, 'query');
            q = parsed.data;
          }
          if (route.method !== 'GET' && !route.rawBody) {
            body = await readJsonBody(c.req.raw);
            if (route.body) {
              const parsed = route.body.safeParse(body);
              if (!parsed.success) throw fromZodError(parsed.error, 'body');
              body = parsed.data;
            }
          }
          const result = await route.handle({ query: q, body }, ctx);
          if (result instanceof Response) return result;
          return jsonResponse(result.json, result.status ?? (route.method === 'POST' ? 201 : 200));
        }
      }
    };
    for (const path of pathSpellings(route)) app.on(route.method, base + path, answer);
  }

  const openapi = () => jsonResponse(openApiDocument(routes, ledger.config.network));
  app.get(`${base}/v1/openapi.json`, openapi);
  app.get(`${base}/openapi.json`, openapi);

  app.notFound((c) => errorResponse(new ApiError('NotFoundError', `No route ${c.req.method} ${new URL(c.req.url).pathname}`)));
  app.onError((error) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) console.error('[opalite] internal error', error);
    return errorResponse(apiError);
  });

  return (request) => app.fetch(request) as Promise<Response>;
}
