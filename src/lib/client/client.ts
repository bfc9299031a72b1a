// A typed client of the Unique Network REST API v1 at any base_url: the built-in sandbox
// (`<origin>/sandbox/v1`) or a remote service. It knows nothing about keys: signing is the
// caller's (see flow.ts). `fetch` is injected so the page can route the built-in ledger's
// requests through the in-page host when no service worker controls it.
import { impersonateHeader } from '../codec/impersonation';
import { ApiError, NetworkError } from './errors';
import { galleryParams, type GalleryPage, type GalleryRequest } from './gallery';
import type {
  Balance,
  BuildResult,
  ChainProperties,
  Collection,
  CollectionLimits,
  DecodedCall,
  DevStatus,
  DryRun,
  ExtrinsicStatus,
  Fee,
  HttpMethod,
  MutationRequest,
  NestedToken,
  Property,
  PropertyKeyPermission,
  SignerPayloadJSON,
  Token,
  TokenRef,
  UploadedFile
} from './types';

export type FetchLike = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export type QueryValue = string | number | boolean | undefined | null | Array<string | number>;

export interface ClientOptions {
  /** `<origin>/<network>/v1`, without a trailing slash (one is dropped). */
  baseUrl: string;
  fetch?: FetchLike;
  /** Per request, in ms (default 30 s; uploads and imports get four times that). */
  timeoutMs?: number;
}

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  /** JSON body (sent with content-type application/json). */
  body?: unknown;
  /** Multipart body (uploads, ledger import). */
  form?: FormData;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The Authorization header (impersonation in a sandbox; the app never sends a seed). */
  authorization?: string;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/** `base` without trailing slashes; throws a readable error for something that is not a URL. */
export function normalizeBaseUrl(base: string): string {
  const trimmed = base.trim().replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new Error(`"${base}" is not a URL; write it like https://rest.unique.network/opal/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`A base URL starts with http:// or https://, not ${url.protocol}`);
  return trimmed;
}

function appendQuery(url: URL, query: Record<string, QueryValue> | undefined): void {
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
    else url.searchParams.set(key, String(value));
  }
}

/** A signal that aborts after `ms`, or when `outer` aborts. */
function timeoutSignal(ms: number, outer?: AbortSignal): { signal: AbortSignal; clear(): void; timedOut(): boolean } {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, ms);
  const onAbort = () => controller.abort();
  outer?.addEventListener('abort', onAbort, { once: true });
  if (outer?.aborted) controller.abort();
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    clear: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    }
  };
}

/** GET /dev/export/size: what each export would download. */
export interface DevExportSize {
  json: { bytes: number };
  archive: { bytes: number; files: number; fileBytes: number; refused: null } | { bytes: null; files: null; fileBytes: null; refused: string };
}

export class RestClient {
  readonly baseUrl: string;
  readonly #fetch: FetchLike;
  readonly #timeoutMs: number;

  constructor(options: ClientOptions) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** The absolute URL of `path` (which starts with `/`) below the base URL. */
  url(path: string, query?: Record<string, QueryValue>): string {
    const url = new URL(this.baseUrl + path);
    appendQuery(url, query);
    return url.toString();
  }

  /** Any request; answers the parsed JSON (or null for an empty body), throws ApiError / NetworkError. */
  async request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.raw(method, path, options);
    const text = await response.text();
    let json: unknown = null;
    if (text !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        if (!response.ok) throw new ApiError(response.status, { message: `The service answered ${response.status}: ${text.slice(0, 200)}` });
        throw new ApiError(response.status, { message: `The service answered something that is not JSON: ${text.slice(0, 120)}` });
      }
    }
    if (!response.ok) {
      const envelope = (json as { error?: { code?: string; name?: string; message?: string; details?: unknown } } | null)?.error;
      throw new ApiError(response.status, envelope ?? { message: `The service answered ${response.status} ${response.statusText}`.trim() });
    }
    return json as T;
  }

  /** The Response itself (for downloads); throws NetworkError when no answer comes. */
  async raw(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<Response> {
    const url = this.url(path, options.query);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.authorization) headers.authorization = options.authorization;
    let body: BodyInit | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const timeout = timeoutSignal(options.timeoutMs ?? this.#timeoutMs, options.signal);
    try {
      return await this.#fetch(url, { method, headers, body, signal: timeout.signal });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      if (timeout.timedOut()) throw new NetworkError(this.baseUrl, `no answer within ${Math.round((options.timeoutMs ?? this.#timeoutMs) / 1000)} seconds`);
      const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
      throw new NetworkError(this.baseUrl, offline ? 'this device is offline' : error instanceof Error ? error.message : String(error), { cause: error });
    } finally {
      timeout.clear();
    }
  }

  get<T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal): Promise<T> {
    return this.request<T>('GET', path, { query, signal });
  }

  // ---- chain and balances ---------------------------------------------------------------------

  chainProperties(signal?: AbortSignal): Promise<ChainProperties> {
    return this.get('/common/chain-properties', undefined, signal);
  }

  balance(address: string): Promise<Balance> {
    return this.get('/balance', { address });
  }

  // ---- collections ----------------------------------------------------------------------------

  /** The collection, or null when there is none with this id. */
  collection(collectionId: number): Promise<Collection | null> {
    return this.get('/collections', { collectionId });
  }

  /** Opalite extension: collections newest first, optionally of one owner. */
  async collections(options: { owner?: string; limit?: number; before?: number } = {}): Promise<Collection[]> {
    return (await this.get<{ collections: Collection[] }>('/collections/list', options)).collections;
  }

  async collectionLimits(collectionId: number): Promise<CollectionLimits> {
    return (await this.get<{ limits: CollectionLimits }>('/collections/limits', { collectionId })).limits;
  }

  async collectionAdmins(collectionId: number): Promise<string[]> {
    return (await this.get<{ admins: string[] }>('/collections/admins', { collectionId })).admins;
  }

  async collectionProperties(collectionId: number): Promise<Property[]> {
    return (await this.get<{ properties: Property[] }>('/collections/properties', { collectionId })).properties;
  }

  async propertyPermissions(collectionId: number): Promise<PropertyKeyPermission[]> {
    return (await this.get<{ propertyPermissions: PropertyKeyPermission[] }>('/collections/property-permissions', { collectionId })).propertyPermissions;
  }

  async tokenIds(collectionId: number): Promise<number[]> {
    return (await this.get<{ ids: number[] }>('/collections/tokens', { collectionId })).ids;
  }

  /** How many tokens of the collection exist (minted, not burnt): counted by the service, not by reading ids. */
  async totalSupply(collectionId: number): Promise<number> {
    return (await this.get<{ totalSupply: number }>('/collections/total-supply', { collectionId })).totalSupply;
  }

  /** Opalite extension: a page of the collection's tokens, searched, filtered and sorted over all of them. */
  gallery(collectionId: number, request: GalleryRequest = {}, signal?: AbortSignal): Promise<GalleryPage> {
    return this.get('/tokens/gallery', galleryParams(collectionId, request), signal);
  }

  async allowList(collectionId: number): Promise<string[]> {
    return (await this.get<{ addresses: string[] }>('/collections/allow-list', { collectionId })).addresses;
  }

  // ---- tokens ---------------------------------------------------------------------------------

  token(collectionId: number, tokenId: number): Promise<Token> {
    return this.get('/tokens', { collectionId, tokenId });
  }

  bundle(collectionId: number, tokenId: number): Promise<NestedToken> {
    return this.get('/tokens/get-bundle', { collectionId, tokenId });
  }

  async isBundle(collectionId: number, tokenId: number): Promise<boolean> {
    return (await this.get<{ isBundle: boolean }>('/tokens/is-bundle', { collectionId, tokenId })).isBundle;
  }

  /** null for a ReFungible token split between holders (it has no single owner). */
  async topmostOwner(collectionId: number, tokenId: number): Promise<string | null> {
    return (await this.get<{ topmostOwner: string | null }>('/tokens/topmost-owner', { collectionId, tokenId })).topmostOwner;
  }

  async accountTokens(address: string, collectionId?: number): Promise<TokenRef[]> {
    return (await this.get<{ tokens: TokenRef[] }>('/tokens/account-tokens', { address, collectionId })).tokens;
  }

  // ---- extrinsics: Build → sign → Submit ------------------------------------------------------

  /** `use=Build` with the fee: the payload to sign. */
  build(call: MutationRequest): Promise<BuildResult> {
    return this.request<BuildResult>(call.method, call.path, { query: { use: 'Build', withFee: true }, body: call.body });
  }

  /** The call inside a payload, its signer, nonce and fee (for the sign dialog). */
  decode(signerPayloadJSON: SignerPayloadJSON): Promise<DecodedCall> {
    return this.request<DecodedCall>('POST', '/extrinsic/decode', { body: { signerPayloadJSON } });
  }

  /**
   * Opalite extension: what the payload would do in the next block now, writing nothing; null
   * when the service has no dry run (a real Unique REST service answers 404).
   */
  async dryRun(signerPayloadJSON: SignerPayloadJSON, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<DryRun | null> {
    try {
      return await this.request<DryRun>('POST', '/extrinsic/dry-run', { body: { signerPayloadJSON }, ...options });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 405 || error.status === 501)) return null;
      throw error;
    }
  }

  /** `impersonate`: the payload's signer, acted as without its key (a sandbox with impersonation on; the signature is IMPERSONATION_SIGNATURE). */
  submit(signerPayloadJSON: SignerPayloadJSON, signature: string, options: { impersonate?: string } = {}): Promise<{ hash: string }> {
    const authorization = options.impersonate ? impersonateHeader(options.impersonate) : undefined;
    return this.request<{ hash: string }>('POST', '/extrinsic/submit', { body: { signerPayloadJSON, signature }, authorization });
  }

  extrinsicStatus(hash: string, signal?: AbortSignal): Promise<ExtrinsicStatus> {
    return this.get('/extrinsic/status', { hash }, signal);
  }

  /** Opalite extension: recent extrinsics, newest first. */
  async extrinsics(options: { address?: string; limit?: number } = {}): Promise<ExtrinsicStatus[]> {
    return (await this.get<{ extrinsics: ExtrinsicStatus[] }>('/extrinsic/list', options)).extrinsics;
  }

  // ---- files ----------------------------------------------------------------------------------

  /** Stores a file in the service's file store (IPFS on a real service): answers its CID and URL. */
  upload(file: Blob, name = 'file'): Promise<UploadedFile> {
    const form = new FormData();
    form.append('file', file, (file as File).name ?? name);
    return this.request<UploadedFile>('POST', '/ipfs/upload-file', { form, timeoutMs: this.#timeoutMs * 4 });
  }

  // ---- the built-in ledger's /dev routes ------------------------------------------------------

  devStatus(): Promise<DevStatus> {
    return this.get('/dev/status');
  }

  /** The whole ledger as a file: its text and the name the service suggests. */
  /** The ledger export: a ZIP archive with every uploaded file when `files`, else the ledger JSON alone. */
  async devExport(options: { files?: boolean } = {}): Promise<{ blob: Blob; filename: string }> {
    const response = await this.raw('GET', options.files ? '/dev/export?files=1' : '/dev/export', { timeoutMs: this.#timeoutMs * 4 });
    if (!response.ok) {
      const text = await response.text();
      let message = `The service answered ${response.status}`;
      try {
        message = JSON.parse(text).error?.message ?? message;
      } catch {
        // keep the status line
      }
      throw new ApiError(response.status, { message });
    }
    const disposition = response.headers.get('content-disposition') ?? '';
    const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? 'opalite-ledger.json';
    return { blob: await response.blob(), filename };
  }

  /** Bytes of the two exports (`archive.refused` says why an archive cannot be made). */
  devExportSize(): Promise<DevExportSize> {
    return this.request('GET', '/dev/export/size');
  }

  /** Replace the ledger with an export: its JSON, or a ZIP archive whose files are stored too. */
  devImport(file: Blob): Promise<{ genesisHash: string; head: { number: number } }> {
    const form = new FormData();
    form.append('file', file, (file as File).name ?? 'ledger.json');
    return this.request('POST', '/dev/import', { form, timeoutMs: this.#timeoutMs * 4 });
  }

  /** `leaveFork`: a fork becomes a plain sandbox of its own instead of starting its source's block again. */
  devReset(rules?: 'spec' | 'unique', options: { leaveFork?: boolean } = {}): Promise<{ genesisHash: string }> {
    return this.request('POST', '/dev/reset', { body: { ...(rules ? { rules } : {}), ...(options.leaveFork ? { leaveFork: true } : {}) } });
  }

  /** Replace the built-in ledger with a fork of the network at `source` (its head when no block is named). */
  devFork(source: string, blockHash?: string): Promise<{ genesisHash: string; head: { number: number } }> {
    return this.request('POST', '/dev/fork', { body: blockHash ? { source, blockHash } : { source }, timeoutMs: this.#timeoutMs * 4 });
  }

  devBlockMode(mode: { kind: 'instant' | 'manual' } | { kind: 'interval'; ms: number }): Promise<unknown> {
    return this.request('POST', '/dev/block-mode', { body: mode });
  }

  devSeal(): Promise<{ block: { number: number } | null }> {
    return this.request('POST', '/dev/blocks/seal', { body: {} });
  }

  /** Seal `count` blocks now, empty ones too (Anvil's mine): the last one. */
  devSealBlocks(count: number): Promise<{ block: { number: number; hash: string } | null; count: number }> {
    return this.request('POST', '/dev/seal', { body: { count } });
  }

  /** Set an account's free balance to `amount` whole units (a decimal string), in a block of its own. */
  devSetBalance(address: string, amount: string): Promise<{ address: string; freeBalance: Fee; block: { number: number; hash: string } }> {
    return this.request('POST', '/dev/set-balance', { body: { address, amount } });
  }

  /** Switch impersonation (`Authorization: Impersonate <address>`) on or off: what it is now. */
  async devImpersonation(enabled: boolean): Promise<boolean> {
    return (await this.request<{ impersonate: boolean }>('POST', '/dev/impersonation', { body: { enabled } })).impersonate;
  }

  // ---- the API document -----------------------------------------------------------------------

  openapi(): Promise<Record<string, unknown>> {
    return this.get('/openapi.json');
  }
}
