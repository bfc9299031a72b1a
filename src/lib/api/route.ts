// Route definitions: one table entry per operation, its schema beside it. The handler registers
// each under every path spelling; the OpenAPI document is generated from the same table.
import type { z } from 'zod';
import type { Ledger } from '../ledger/chain/ledger';
import type { LedgerReads } from '../ledger/chain/reads';
import type { QueryTx } from '../ledger/store';
import type { Address, Call } from '../ledger/types';
import type { ResolvedLimits } from '../limits';

export interface ApiContext {
  ledger: Ledger;
  /** `<origin>/ipfs`: where uploaded files are served, for image `fullUrl`s. */
  ipfsGateway: string;
  request: Request;
  /** This host's body limits (HandlerOptions.limits over the defaults). */
  limits: ResolvedLimits;
  /** Whether `Authorization: Impersonate <address>` may sign here (auth.ts); absent: never. */
  impersonation?: ImpersonationPolicy;
}

export interface ImpersonationPolicy {
  /** The host's switch, read per request. */
  enabled(): boolean;
  /** A browser's own sandbox: its base url is the page's origin, never another machine's. */
  anyHost?: boolean;
}

/** Body media types a write route takes: `json` is application/json, `multipart` multipart/form-data. */
export type BodyType = 'json' | 'multipart' | 'zip';

/** What building a call may read: existence checks run inside one read transaction. */
export interface BuildContext extends ApiContext {
  tx: QueryTx;
}

interface RouteBase {
  /** Canonical path below `<base_url>`, plural form (`/collections/limits`). */
  path: string;
  /** Further spellings beyond the automatic singular one (`/collection/...`, `/token/...`). */
  aliases?: string[];
  summary: string;
  tag: string;
}

/** What a read of state gets: the reads of the head, or of the block its `at` names (at-block.ts). */
export interface ReadContext extends Omit<ApiContext, 'ledger'> {
  ledger: LedgerReads;
}

/** A read of chain state: every one takes `at` / `blockHashAt` (the handler resolves them). */
export interface ReadRoute<Q extends z.ZodType = z.ZodType> extends RouteBase {
  kind: 'read';
  method: 'GET';
  query: Q;
  /** The JSON answer (`null` is a valid answer). */
  handle(query: z.output<Q>, ctx: ReadContext): Promise<unknown>;
}

export interface MutationRoute<B extends z.ZodType = z.ZodType> extends RouteBase {
  kind: 'mutation';
  method: 'POST' | 'PATCH' | 'DELETE';
  body: B;
  /** The signer named by the arguments. */
  signer(args: z.output<B>): Address;
  /** Turn validated arguments into the chain call; throws ApiError for a missing collection or token. */
  toCall(args: z.output<B>, ctx: BuildContext): Promise<Call>;
  /** `toCall` reads no ledger state (it gets no transaction: none is opened for it). */
  stateless?: true;
}

/** A route answered outside the extrinsic machinery (submit, status, files, dev tools). */
export interface PlainRoute extends RouteBase {
  kind: 'plain';
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  query?: z.ZodType;
  body?: z.ZodType;
  /** Status and JSON body, or a full Response. */
  handle(input: { query: unknown; body: unknown }, ctx: ApiContext & { reads: LedgerReads }): Promise<{ status?: number; json: unknown } | Response>;
  /** The route reads state and takes `at` / `blockHashAt`: `ctx.reads` are that block's. */
  atBlock?: boolean;
  /** Whether the handler reads the body itself (multipart uploads). */
  rawBody?: boolean;
  /** Body types taken (default json); multipart only where a file is uploaded. */
  accepts?: BodyType[];
}

export type Route = ReadRoute | MutationRoute | PlainRoute;

export function read<Q extends z.ZodType>(route: Omit<ReadRoute<Q>, 'kind' | 'method'>): ReadRoute {
  return { kind: 'read', method: 'GET', ...route } as unknown as ReadRoute;
}

export function mutation<B extends z.ZodType>(route: Omit<MutationRoute<B>, 'kind'>): MutationRoute {
  return { kind: 'mutation', ...route } as unknown as MutationRoute;
}

export function plain(route: Omit<PlainRoute, 'kind'>): PlainRoute {
  return { kind: 'plain', ...route };
}
