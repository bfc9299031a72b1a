// A fork's source over REST v1 (the real Unique service or another Opalite host), read at the fork
// block: the ForkSource port of the ledger, wired by a host. GET only, through PoliteFetch; every
// answer checked (answers.ts) before it becomes a row.
import { z } from 'zod';
import { ForkSourceError, type ForkOrigin, type ForkSource } from '../ledger/fork/source';
import type { RefungiblePieces } from '../ledger/refungible/state';
import { PARTIAL_OWNER } from '../ledger/refungible/state';
import type { AccountRecord, Address, CollectionRecord, TokenRecord, TokenRef } from '../ledger/types';
import {
  adminsAnswer,
  allowListAnswer,
  amountAnswer,
  balanceAnswer,
  blockAnswer,
  chainPropertiesAnswer,
  childrenAnswer,
  collectionAnswer,
  headAnswer,
  idsAnswer,
  lastTokenIdAnswer,
  nonceAnswer,
  piecesAnswer,
  statsAnswer,
  tokenAnswer,
  tokensAnswer,
  totalSupplyAnswer
} from './answers';
import { PoliteFetch, type PoliteFetchOptions, type SourceAnswer } from './polite-fetch';

type Params = Record<string, string | number | undefined>;

/** /explorer/block of an Opalite source: `{block: {number, hash, …}, extrinsics}`. */
const explorerBlock = z.object({ block: blockAnswer }).transform((b) => b.block);
/** The real service's `/query/rpc/chain/getFinalizedHead`: the hash. */
const finalizedHead = z.string().regex(/^0x[0-9a-fA-F]{64}$/).transform((h) => h.toLowerCase());

/** Error names a REST v1 service answers for an entity that is not there. */
const NOT_FOUND = new Set(['NotFoundError', 'CollectionNotFoundError', 'TokenNotFoundError']);

/** Reads whose `at` the real service ignores or lacks (reference §7–8); an Opalite source pins every read. */
const UNPINNED_ON_THE_REAL_SERVICE = [
  '/collections/properties',
  '/collections/property-permissions',
  '/collections/allow-list',
  '/collections/tokens',
  '/collections/last-token-id',
  '/collections/total-supply',
  '/collections/stats',
  '/tokens/children',
  '/balance',
  '/common/nonce',
  '/fungible/*',
  '/refungible/*'
];

/** The base url of a REST v1 service, checked: http(s), no query or fragment, no trailing slash. */
export function forkBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ForkSourceError('invalid', `The fork's source must be the base url of a REST v1 service (http://… or https://…), not "${text.slice(0, 80)}"`, text.slice(0, 80));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ForkSourceError('invalid', `The fork's source must be an http or https url, not ${url.protocol}`, text.slice(0, 80));
  if (url.search || url.hash || url.username || url.password) throw new ForkSourceError('invalid', `The fork's source is a base url without query, fragment or credentials: ${text.slice(0, 80)}`, text.slice(0, 80));
  return url.href.replace(/\/+$/, '');
}

export class RestForkSource implements ForkSource {
  constructor(
    private readonly http: PoliteFetch,
    readonly origin: ForkOrigin
  ) {}

  /** Requests sent so far (every retry counted). */
  get requests(): number {
    return this.http.requests;
  }

  /** The answer of GET `path` at the fork block, checked against `schema`; null when the source says it is not there. */
  private async read<S extends z.ZodType>(path: string, params: Params, schema: S, pinned = true): Promise<z.output<S> | null> {
    return readAnswer(this.http, path, pinned ? { ...params, at: this.origin.blockHash } : params, schema);
  }

  private async required<S extends z.ZodType>(path: string, params: Params, schema: S): Promise<z.output<S>> {
    const value = await this.read(path, params, schema);
    if (value === null) throw new ForkSourceError('invalid', `The fork's source ${this.origin.source} has no ${path} for ${JSON.stringify(params)} at block ${this.origin.blockHash}`, this.origin.source);
    return value;
  }

  async collection(collectionId: number): Promise<CollectionRecord | null> {
    const c = await this.read('/collections', { collectionId }, collectionAnswer);
    if (!c) return null;
    if (c.id !== collectionId) throw this.mismatch('/collections', `collection ${c.id} for ${collectionId}`);
    const [admins, lastTokenId, totalSupply] = await Promise.all([
      c.admins ?? this.required('/collections/admins', { collectionId }, adminsAnswer).then((a) => a.admins),
      c.lastTokenId ?? this.required('/collections/last-token-id', { collectionId }, lastTokenIdAnswer).then((a) => a.tokenId),
      c.totalSupply ?? this.required('/collections/total-supply', { collectionId }, totalSupplyAnswer).then((a) => a.totalSupply)
    ]);
    if (totalSupply > lastTokenId) throw this.mismatch('/collections', `a total supply ${totalSupply} above the last token id ${lastTokenId}`);
    return {
      id: c.id,
      owner: c.owner,
      mode: c.mode,
      decimals: c.decimals,
      name: c.name,
      description: c.description,
      tokenPrefix: c.tokenPrefix,
      sponsorship: c.sponsorship,
      limits: c.limits,
      permissions: c.permissions,
      readOnly: c.readOnly,
      properties: sortByKey(c.properties),
      tokenPropertyPermissions: sortByKey(c.tokenPropertyPermissions),
      admins,
      tokensMinted: lastTokenId,
      tokensBurnt: lastTokenId - totalSupply
    };
  }

  async token(collectionId: number, tokenId: number): Promise<TokenRecord | null> {
    const t = await this.read('/tokens', { collectionId, tokenId }, tokenAnswer);
    if (!t) return null;
    if (t.collectionId !== collectionId || t.tokenId !== tokenId) throw this.mismatch('/tokens', `token ${t.collectionId}/${t.tokenId} for ${collectionId}/${tokenId}`);
    const parent = t.nestingParentToken;
    return {
      collectionId,
      tokenId,
      owner: t.owner,
      properties: sortByKey(t.properties),
      ...(parent ? { parentCollectionId: parent.collectionId, parentTokenId: parent.tokenId } : {})
    };
  }

  async account(address: Address): Promise<AccountRecord | null> {
    const [balance, nonce] = await Promise.all([this.required('/balance', { address }, balanceAnswer), this.required('/common/nonce', { address }, nonceAnswer)]);
    const free = balance.freeBalance.raw;
    return free === 0n && nonce.nonce === 0 ? null : { address, free, nonce: nonce.nonce };
  }

  async allowList(collectionId: number): Promise<Address[]> {
    return (await this.read('/collections/allow-list', { collectionId }, allowListAnswer))?.addresses ?? [];
  }

  async tokenIdsOfCollection(collectionId: number): Promise<number[]> {
    return (await this.read('/collections/tokens', { collectionId }, idsAnswer))?.ids ?? [];
  }

  async tokensOfOwner(owner: Address, collectionId?: number): Promise<TokenRef[]> {
    return (await this.read('/tokens/account-tokens', { address: owner, collectionId }, tokensAnswer))?.tokens ?? [];
  }

  async childrenOf(collectionId: number, tokenId: number): Promise<TokenRef[]> {
    return (await this.read('/tokens/children', { collectionId, tokenId }, childrenAnswer))?.children ?? [];
  }

  async fungibleSupply(collectionId: number): Promise<bigint> {
    // The REST answer is in whole units; the collection's decimals make it raw again.
    const [supply, collection] = await Promise.all([this.read('/fungible/total-pieces', { collectionId }, piecesAnswer), this.collection(collectionId)]);
    return supply ? BigInt(supply.amount) * 10n ** BigInt(collection?.decimals ?? 0) : 0n;
  }

  async fungibleBalance(collectionId: number, owner: Address): Promise<bigint> {
    return (await this.read('/fungible/balance', { collectionId, address: owner }, amountAnswer))?.raw ?? 0n;
  }

  async fungibleAllowance(collectionId: number, owner: Address, spender: Address): Promise<bigint> {
    return (await this.read('/fungible/tokens/allowance', { collectionId, from: owner, to: spender }, amountAnswer))?.raw ?? 0n;
  }

  async refungiblePieces(collectionId: number, tokenId: number): Promise<RefungiblePieces | null> {
    const [total, token] = await Promise.all([this.read('/refungible/tokens/total-pieces', { collectionId, tokenId }, piecesAnswer), this.token(collectionId, tokenId)]);
    if (!total || !token) return null;
    // REST v1 names no holders of a token: a sole holder is its owner; spread pieces cannot be copied.
    if (token.owner === PARTIAL_OWNER) {
      throw new ForkSourceError('unsupported', `The pieces of ReFungible token ${collectionId}/${tokenId} are spread over several accounts at the fork block, and REST v1 does not list them`, this.origin.source);
    }
    return { total: BigInt(total.amount), balances: { [token.owner]: BigInt(total.amount) } };
  }

  async refungibleOwned(collectionId: number, owner: Address): Promise<number[]> {
    const tokens = (await this.read('/refungible/tokens/account-tokens', { collectionId, address: owner }, tokensAnswer))?.tokens ?? [];
    return tokens.map((t) => t.tokenId);
  }

  async pieceAllowance(collectionId: number, tokenId: number, owner: Address, spender: Address): Promise<bigint> {
    return BigInt((await this.read('/refungible/tokens/allowance', { collectionId, tokenId, from: owner, to: spender }, piecesAnswer))?.amount ?? 0);
  }

  private mismatch(path: string, what: string): ForkSourceError {
    return new ForkSourceError('invalid', `The fork's source ${this.origin.source} answered ${path} with ${what}`, this.origin.source);
  }
}

function sortByKey<T extends { key: string }>(list: T[]): T[] {
  const bytes = (s: string) => new TextEncoder().encode(s);
  const compare = (a: Uint8Array, b: Uint8Array) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  };
  return [...list].sort((a, b) => compare(bytes(a.key), bytes(b.key)));
}

function urlOf(base: string, path: string, params: Params): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.set(k, String(v));
  const text = query.toString();
  return `${base}${path}${text ? `?${text}` : ''}`;
}

/** GET `path`, checked: the parsed value, null for "not there" (404, a not-found error, a null body). */
async function readAnswer<S extends z.ZodType>(http: PoliteFetch, path: string, params: Params, schema: S): Promise<z.output<S> | null> {
  const answer: SourceAnswer = await http.get(urlOf(http.source, path, params));
  const errorName = (answer.body as { error?: { name?: unknown } } | null)?.error?.name;
  if (answer.status === 404 || (answer.status >= 400 && typeof errorName === 'string' && NOT_FOUND.has(errorName))) return null;
  if (answer.status >= 400) {
    const message = (answer.body as { error?: { message?: unknown } } | null)?.error?.message;
    throw new ForkSourceError('invalid', `The fork's source ${http.source} refused ${path} (HTTP ${answer.status}${typeof message === 'string' ? `: ${message.slice(0, 200)}` : ''})`, http.source);
  }
  if (answer.body === null) return null;
  const parsed = schema.safeParse(answer.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.map(String).join('.').slice(0, 80) || 'the answer';
    throw new ForkSourceError('invalid', `The fork's source ${http.source} answered ${path} with an unexpected ${where}: ${issue?.message ?? 'invalid'}`, http.source);
  }
  return parsed.data;
}

export interface OpenRestSourceOptions extends PoliteFetchOptions {
  /** The source's block to fork at; its head when absent. */
  blockHash?: string;
}

/** Find the fork block (the head when none is named) and the source's collection counts, then answer reads at that block. */
export async function openRestSource(baseUrl: string, options: OpenRestSourceOptions = {}): Promise<RestForkSource> {
  const source = forkBaseUrl(baseUrl);
  const http = new PoliteFetch(source, options);
  const properties = await readAnswer(http, '/common/chain-properties', {}, chainPropertiesAnswer);
  if (!properties) throw new ForkSourceError('invalid', `${source} answers no /common/chain-properties: is it a REST v1 base url (…/v1)?`, source);
  // An Opalite source names its head in /dev/status and its blocks in /explorer/block; it answers every read at a block.
  const status = await readAnswer(http, '/dev/status', {}, headAnswer).catch(() => null);
  let block: { number: number | null; hash: string };
  if (options.blockHash !== undefined) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(options.blockHash)) throw new ForkSourceError('invalid', `The fork block must be a block hash (0x and 64 hex digits), not "${options.blockHash.slice(0, 80)}"`, source);
    const found = status ? await readAnswer(http, '/explorer/block', { hash: options.blockHash }, explorerBlock) : null;
    if (status && !found) throw new ForkSourceError('invalid', `The fork's source ${source} has no block ${options.blockHash}`, source);
    block = { number: found?.number ?? null, hash: options.blockHash.toLowerCase() };
  } else if (status) {
    block = status.head;
  } else {
    const head = await readAnswer(http, '/query/rpc/chain/getFinalizedHead', {}, finalizedHead);
    if (!head) throw new ForkSourceError('unsupported', `The fork's source ${source} does not name its head: give the block with --fork-block`, source);
    block = { number: null, hash: head };
  }
  const stats = await readAnswer(http, '/collections/stats', { at: block.hash }, statsAnswer);
  if (!stats) throw new ForkSourceError('invalid', `The fork's source ${source} answers no /collections/stats`, source);
  const origin: ForkOrigin = {
    source,
    blockHash: block.hash,
    blockNumber: block.number,
    sourceGenesisHash: properties.genesisHash.toLowerCase(),
    collections: stats,
    unpinned: status ? [] : UNPINNED_ON_THE_REAL_SERVICE
  };
  return new RestForkSource(http, origin);
}
