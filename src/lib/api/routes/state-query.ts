// stateQuery.get / execute: `GET` / `POST /query/{endpoint}/{module}/{method}` (body `{args}`),
// the real service's direct reads of `api.<endpoint>.<module>.<method>`, answered from the ledger
// for the items of state-query-items.ts and the RPCs of state-query-rpc.ts, serialized as the real
// service serializes codecs.
import { z } from 'zod';
import { ApiError, validationError } from '../errors';
import { MAX_SHORT_TEXT_LENGTH, MAX_STATE_QUERY_ARGS, quote } from '../../limits';
import type { LedgerReads } from '../../ledger/chain/reads';
import { plain, type ApiContext } from '../route';
import { boundedArray, boundedString } from '../schemas';
import { ITEMS as STORAGE_ITEMS, type QueryArg } from './state-query-items';
import { RPC_ITEMS } from './state-query-rpc';
import { serialized } from './state-query-values';

const PATH = '/query/:endpoint/:module/:method';

/** Storage items, constants and RPCs answered, by `endpoint.module.method`. */
const ITEMS = { ...STORAGE_ITEMS, ...RPC_ITEMS };

/** Endpoints and modules answered, for the real service's `Invalid endpoint` / `Invalid module` checks. */
const KNOWN = {
  endpoints: new Set(Object.keys(ITEMS).map((k) => k.split('.')[0])),
  modules: new Set(Object.keys(ITEMS).map((k) => k.split('.').slice(0, 2).join('.')))
};

const arg = z.union([
  boundedString('args[]'),
  z.number(),
  z.record(boundedString('key'), boundedString('value')).refine((o) => Object.keys(o).length <= 2, { error: 'an object argument has at most 2 keys' })
]);

const executeBody = z.object({ args: boundedArray('args', arg, MAX_STATE_QUERY_ARGS).optional().describe('Arguments of the storage item, in order (u32 ids, addresses, {Substrate}/{Ethereum} accounts)') });

/** endpoint, module and method: the last three segments of the path the route matched. */
function target(request: Request): { endpoint: string; module: string; method: string } {
  const [endpoint, module, method] = new URL(request.url).pathname.split('/').slice(-3).map((s) => {
    const text = decodeURIComponent(s);
    if (text.length > MAX_SHORT_TEXT_LENGTH) throw validationError(`A path segment must be at most ${MAX_SHORT_TEXT_LENGTH} characters long`);
    return text;
  });
  return { endpoint, module, method };
}

/** The real service's error for a query it cannot build (an unknown item, the wrong arity). */
function buildQueryError(message: string): ApiError {
  return new ApiError('BuildQueryError', message);
}

/** The item, or the real service's message for what is missing (with what Opalite answers). */
function itemAt(endpoint: string, module: string, method: string) {
  const answered = ` (Opalite answers ${Object.keys(ITEMS).join(', ')})`;
  if (!KNOWN.endpoints.has(endpoint)) throw buildQueryError(`Invalid endpoint: "${quote(endpoint)}"${answered}`);
  if (!KNOWN.modules.has(`${endpoint}.${module}`)) throw buildQueryError(`Invalid module: "${quote(module)}"${answered}`);
  const item = ITEMS[`${endpoint}.${module}.${method}`];
  if (!item) throw buildQueryError(`Invalid method: "${quote(method)}"${answered}`);
  return item;
}

async function answer(ctx: ApiContext & { reads: LedgerReads }, args: QueryArg[] | undefined, via: 'GET' | 'POST') {
  const { endpoint, module, method } = target(ctx.request);
  const item = itemAt(endpoint, module, method);
  const given = args ?? [];
  if (endpoint === 'consts' && via === 'POST') throw buildQueryError(`${endpoint}.${module}.${method} is a constant: read it with GET (stateQuery.get)`);
  if (given.length !== item.args.length) {
    const wanted = item.args.length ? `(${item.args.join(', ')})` : 'no arguments';
    throw buildQueryError(`${endpoint}.${module}.${method} takes ${wanted}, got ${given.length} argument(s)${via === 'GET' && item.args.length ? ': send them with POST {args}' : ''}`);
  }
  const value = await ctx.reads.read((tx) => item.read(tx, ctx.reads, given));
  return { json: serialized(value) };
}

export const stateQueryRoutes = [
  plain({
    method: 'GET',
    path: PATH,
    tag: 'query',
    summary: 'Read a chain constant or an argument-less storage item (stateQuery.get): {rawType, isEmpty, hash, human, json, hex}',
    query: z.object({}),
    atBlock: true,
    handle: async (_input, ctx) => answer(ctx, undefined, 'GET')
  }),
  plain({
    method: 'POST',
    path: PATH,
    tag: 'query',
    summary: 'Read a storage item with arguments (stateQuery.execute, body {args}): {rawType, isEmpty, hash, human, json, hex}',
    body: executeBody,
    atBlock: true,
    handle: async ({ body }, ctx) => ({ status: 201, ...(await answer(ctx, (body as z.output<typeof executeBody>).args, 'POST')) })
  })
];
