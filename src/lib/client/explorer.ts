// The explorer's reads, an Opalite extension of the REST API: pages of blocks, one block with its
// extrinsics, an account's balance history, what an extrinsic changed, and any read at a block
// (`at`). Answers are checked before the app computes with them. A service without these routes
// (a real Unique REST service) makes them fail with ExplorerUnsupportedError, said plainly.
import type { RestClient } from './client';
import { ApiError } from './errors';
import type {
  BalanceHistoryEntry,
  BalanceHistoryPage,
  Change,
  ChangeKind,
  Collection,
  ExplorerBlock,
  ExplorerBlockDetail,
  ExtrinsicChanges,
  ExtrinsicStatus,
  Token
} from './types';
import { wireReader } from './wire';

/** The most a page of blocks or of history holds (the service's own bound). */
export const MAX_EXPLORER_PAGE = 100;

/** The service does not answer an Opalite extension's routes (a real Unique REST service). */
export class OpaliteOnlyError extends Error {
  constructor(
    readonly baseUrl: string,
    routes: string,
    feature: string
  ) {
    super(`${baseUrl} does not answer ${routes}: ${feature} needs an Opalite ledger (the built-in sandbox, or a host started with opalite serve).`);
    this.name = 'OpaliteOnlyError';
  }
}

/** The service does not answer the explorer's routes. */
export class ExplorerUnsupportedError extends OpaliteOnlyError {
  constructor(baseUrl: string) {
    super(baseUrl, "the explorer's routes", 'the explorer');
    this.name = 'ExplorerUnsupportedError';
  }
}

/** Statuses a service answers for a route it does not have. */
const NO_ROUTE = new Set([404, 405, 501]);

const support = new WeakMap<RestClient, Promise<boolean>>();

/** Whether the service answers the explorer's routes; asked once per client (a failed ask is asked again). */
export function explorerSupported(client: RestClient): Promise<boolean> {
  let known = support.get(client);
  if (!known) {
    known = client.get('/explorer/blocks', { limit: 1 }).then(
      () => true,
      (error: unknown) => {
        if (error instanceof ApiError && NO_ROUTE.has(error.status)) return false;
        support.delete(client);
        throw error;
      }
    );
    support.set(client, known);
  }
  return known;
}

/**
 * Runs a read of an Opalite extension; a "no such route" answer from a service without Opalite's
 * extensions (whose explorer routes stand for all of them) becomes `unsupported()`.
 */
export async function opaliteRead<T>(client: RestClient, read: () => Promise<T>, unsupported: () => OpaliteOnlyError): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiError && NO_ROUTE.has(error.status) && !(await explorerSupported(client).catch(() => true))) throw unsupported();
    throw error;
  }
}

/** Runs an explorer read; a service without the explorer makes it fail with ExplorerUnsupportedError. */
function explorerRead<T>(client: RestClient, read: () => Promise<T>): Promise<T> {
  return opaliteRead(client, read, () => new ExplorerUnsupportedError(client.baseUrl));
}

// ---- parsing ----------------------------------------------------------------------------------

function blockFrom(r: ReturnType<typeof wireReader>, value: unknown, field: string): ExplorerBlock {
  const b = r.record(value, field);
  return {
    number: r.count(b.number, `${field}.number`),
    hash: r.hash(b.hash, `${field}.hash`),
    parentHash: r.hash(b.parentHash, `${field}.parentHash`),
    stateRoot: r.text(b.stateRoot, `${field}.stateRoot`),
    extrinsicsRoot: r.text(b.extrinsicsRoot, `${field}.extrinsicsRoot`),
    timestamp: r.count(b.timestamp, `${field}.timestamp`),
    extrinsics: r.list(b.extrinsics, `${field}.extrinsics`).map((h, i) => r.hash(h, `${field}.extrinsics[${i}]`))
  };
}

function statusFrom(r: ReturnType<typeof wireReader>, value: unknown, field: string): ExtrinsicStatus {
  const s = r.record(value, field);
  r.hash(s.hash, `${field}.hash`);
  r.text(s.status, `${field}.status`);
  r.flag(s.isError, `${field}.isError`);
  if (s.events !== undefined) r.list(s.events, `${field}.events`);
  return { ...(s as unknown as ExtrinsicStatus), hash: (s.hash as string).toLowerCase() };
}

/** `GET /explorer/blocks` */
export function parseBlocks(json: unknown): ExplorerBlock[] {
  const r = wireReader('/explorer/blocks');
  return r.list(r.record(json, 'the answer').blocks, 'blocks').map((b, i) => blockFrom(r, b, `blocks[${i}]`));
}

/** `GET /explorer/block` */
export function parseBlockDetail(json: unknown): ExplorerBlockDetail {
  const r = wireReader('/explorer/block');
  const answer = r.record(json, 'the answer');
  return {
    block: blockFrom(r, answer.block, 'block'),
    extrinsics: r.list(answer.extrinsics, 'extrinsics').map((s, i) => statusFrom(r, s, `extrinsics[${i}]`)),
    more: answer.more === undefined ? 0 : r.count(answer.more, 'more')
  };
}

/** `GET /explorer/balance-history` */
export function parseBalanceHistory(json: unknown): BalanceHistoryPage {
  const r = wireReader('/explorer/balance-history');
  const answer = r.record(json, 'the answer');
  const entries = r.list(answer.entries, 'entries').map((value, i): BalanceHistoryEntry => {
    const field = `entries[${i}]`;
    const e = r.record(value, field);
    let extrinsic: BalanceHistoryEntry['extrinsic'] = null;
    if (e.extrinsic !== null && e.extrinsic !== undefined) {
      const x = r.record(e.extrinsic, `${field}.extrinsic`);
      extrinsic = {
        hash: r.hash(x.hash, `${field}.extrinsic.hash`),
        section: r.text(x.section, `${field}.extrinsic.section`),
        method: r.text(x.method, `${field}.extrinsic.method`),
        signer: r.text(x.signer, `${field}.extrinsic.signer`)
      };
    }
    return {
      blockNumber: r.count(e.blockNumber, `${field}.blockNumber`),
      blockHash: r.text(e.blockHash, `${field}.blockHash`),
      timestamp: r.count(e.timestamp, `${field}.timestamp`),
      extrinsic,
      before: r.amount(e.before, `${field}.before`),
      after: r.amount(e.after, `${field}.after`)
    };
  });
  const next = answer.next === null || answer.next === undefined ? null : r.text(answer.next, 'next');
  if (next !== null && !/^\d{1,10}:\d{1,7}$/.test(next)) r.fail('next', '<block>:<seq>');
  return { entries, next };
}

/** `GET /extrinsic/changes` */
export function parseExtrinsicChanges(json: unknown): ExtrinsicChanges {
  const r = wireReader('/extrinsic/changes');
  const answer = r.record(json, 'the answer');
  const changes = r.list(answer.changes, 'changes').map((value, i): Change => {
    const field = `changes[${i}]`;
    const c = r.record(value, field);
    const optional = <T>(v: unknown, check: (v: unknown, f: string) => T, f: string): T | undefined => (v === undefined || v === null ? undefined : check(v, f));
    return {
      // A kind this app does not know yet is still shown, in the generic words.
      kind: r.text(c.kind, `${field}.kind`) as ChangeKind,
      collectionId: optional(c.collectionId, r.count, `${field}.collectionId`),
      tokenId: optional(c.tokenId, r.count, `${field}.tokenId`),
      address: optional(c.address, r.text, `${field}.address`),
      key: optional(c.key, r.text, `${field}.key`),
      before: c.before ?? null,
      after: c.after ?? null
    };
  });
  return { hash: r.hash(answer.hash, 'hash'), blockNumber: r.count(answer.blockNumber, 'blockNumber'), blockHash: r.hash(answer.blockHash, 'blockHash'), changes };
}

// ---- reads ------------------------------------------------------------------------------------

/** Blocks from `from` down (the head when absent), newest first. */
export function blocksPage(client: RestClient, options: { from?: number; limit?: number } = {}): Promise<ExplorerBlock[]> {
  const limit = Math.min(Math.max(1, options.limit ?? 20), MAX_EXPLORER_PAGE);
  return explorerRead(client, async () => parseBlocks(await client.get('/explorer/blocks', { from: options.from, limit })));
}

/** The head block (the newest), or null for a ledger without blocks. */
export async function headBlock(client: RestClient): Promise<ExplorerBlock | null> {
  return (await blocksPage(client, { limit: 1 }))[0] ?? null;
}

function isBlockNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && error.errorName === 'BlockNotFoundError';
}

/** One block by number or hash, with its extrinsics; null when the ledger has no such block. */
export function blockDetail(client: RestClient, ref: { number: number } | { hash: string }): Promise<ExplorerBlockDetail | null> {
  return explorerRead(client, async () => {
    try {
      return parseBlockDetail(await client.get('/explorer/block', ref));
    } catch (error) {
      if (isBlockNotFound(error)) return null;
      throw error;
    }
  });
}

/** A page of the account's balance changes, newest first; `before` is the previous page's `next`. */
export function balanceHistory(client: RestClient, address: string, options: { before?: string; limit?: number } = {}): Promise<BalanceHistoryPage> {
  const limit = Math.min(Math.max(1, options.limit ?? 20), MAX_EXPLORER_PAGE);
  return explorerRead(client, async () => parseBalanceHistory(await client.get('/explorer/balance-history', { address, before: options.before, limit })));
}

/** What an included extrinsic changed. */
export function extrinsicChanges(client: RestClient, hash: string): Promise<ExtrinsicChanges> {
  return explorerRead(client, async () => parseExtrinsicChanges(await client.get('/extrinsic/changes', { hash })));
}

/** The token as of block `blockHash`; null when it did not exist then. */
export async function tokenAt(client: RestClient, collectionId: number, tokenId: number, blockHash: string): Promise<Token | null> {
  try {
    return await client.get<Token>('/tokens', { collectionId, tokenId, at: blockHash });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.errorName !== 'BlockNotFoundError') return null;
    throw error;
  }
}

/** The collection as of block `blockHash`; null when it did not exist then. */
export function collectionAt(client: RestClient, collectionId: number, blockHash: string): Promise<Collection | null> {
  return client.get<Collection | null>('/collections', { collectionId, at: blockHash });
}

/**
 * The collections `ids` as of block `blockHash` (what an extrinsic of that block spoke of), each
 * read at the block's parent when it was gone after it (destroyed there); a ledger that no longer
 * keeps the block is read at its head. Collections that cannot be read are left out.
 */
export async function collectionsAt(client: RestClient, ids: readonly number[], block: { hash: string; parentHash: string } | null): Promise<Map<number, Collection>> {
  const readAt = async (id: number, at: string | null): Promise<Collection | null> => {
    if (at === null) return client.collection(id);
    try {
      return await collectionAt(client, id, at);
    } catch (error) {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) return client.collection(id);
      throw error;
    }
  };
  const found = new Map<number, Collection>();
  await Promise.all(
    ids.map(async (id) => {
      const collection = (await readAt(id, block?.hash ?? null).catch(() => null)) ?? (block ? await readAt(id, block.parentHash).catch(() => null) : null);
      if (collection && typeof collection.name === 'string') found.set(id, collection);
    })
  );
  return found;
}
