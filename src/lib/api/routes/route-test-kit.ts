// Test kit for the route tests: a fresh in-memory ledger behind the real REST handler, driven
// in-process with Requests, and one-request mutations through custodial signing (`Seed //Alice`).
import { Ledger } from '../../ledger/chain/ledger';
import { MemoryStore } from '../../ledger/testing/memory-store';
import { createHandler } from '../handler';

// Dev accounts (SS58 prefix 42), funded at genesis.
export const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
export const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
export const CHARLIE = '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y';

export interface Answer {
  status: number;
  json: any;
}

export interface Result {
  isCompleted: boolean;
  isError: boolean;
  parsed: any;
  error: { message: string; details: { section: string; name: string } } | null;
}

export async function openApi(options: { rules?: 'spec' | 'unique' } = {}) {
  const store = new MemoryStore();
  const ledger = await Ledger.open({ store, rules: options.rules });
  const handler = createHandler({ ledger });

  /** Any request below `http://127.0.0.1/sandbox`; a body is sent as JSON. */
  async function request(method: string, path: string, body?: unknown, seed?: string): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (seed) headers.authorization = `Seed ${seed}`;
    const response = await handler(
      new Request(`http://127.0.0.1/sandbox${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    );
    const text = await response.text();
    return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
  }

  const get = (path: string) => request('GET', path);

  /** A mutation with `use=Result`, signed custodially; fails the test unless it answers 201 (POST) or 200. */
  async function submit(method: string, path: string, body: unknown, seed = '//Alice'): Promise<Result> {
    const answer = await request(method, `${path}${path.includes('?') ? '&' : '?'}use=Result`, body, seed);
    if (answer.status !== (method === 'POST' ? 201 : 200)) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
    return answer.json as Result;
  }

  /** Like submit, and the extrinsic must have succeeded; answers `parsed`. */
  async function ok(method: string, path: string, body: unknown, seed = '//Alice') {
    const result = await submit(method, path, body, seed);
    if (result.isError) throw new Error(`${method} ${path} failed on chain: ${JSON.stringify(result.error)}`);
    return result.parsed;
  }

  /** A collection of Alice's (default schema); answers its id. */
  async function createCollection(extra: Record<string, unknown> = {}, seed = '//Alice', signer = ALICE): Promise<number> {
    const parsed = await ok('POST', '/v1/collections', { address: signer, name: 'Test', description: 'A test collection', tokenPrefix: 'TST', ...extra }, seed);
    return parsed.collectionId as number;
  }

  /** Mint one token in `collectionId`; answers its id. */
  async function mint(collectionId: number, extra: Record<string, unknown> = {}, seed = '//Alice', signer = ALICE): Promise<number> {
    const parsed = await ok('POST', '/v1/tokens', { address: signer, collectionId, ...extra }, seed);
    return parsed.tokenId as number;
  }

  return { ledger, store, handler, request, get, submit, ok, createCollection, mint };
}

export type Api = Awaited<ReturnType<typeof openApi>>;
