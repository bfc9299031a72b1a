// A stream of client-signed writes against a host over HTTP: Build → sr25519 sign with
// @polkadot/keyring → submit, many in flight, a mix of balance transfers, mints and nests across
// a few dev accounts. It records which hashes the host accepted (2xx at submit) and which it
// acknowledged as in a block, so a test can check them after a crash.
import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { hexToU8a, u8aToHex } from '@polkadot/util';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import type { Random } from './random';

export interface Signer {
  uri: string;
  pair: KeyringPair;
  address: string;
}

export async function devSigners(uris: string[]): Promise<Signer[]> {
  await cryptoWaitReady();
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
  return uris.map((uri) => {
    const pair = keyring.addFromUri(uri);
    return { uri, pair, address: pair.address };
  });
}

/** `0x01` (sr25519) + the pair's signature of the payload bytes, as the service expects. */
export function signPayload(pair: KeyringPair, signerPayloadHex: string): string {
  return '0x01' + u8aToHex(pair.sign(hexToU8a(signerPayloadHex))).slice(2);
}

export interface Answer {
  status: number;
  json: any;
}

/** How requests reach the host: `fetch` over HTTP, or a handler called in-process. */
export type Fetcher = (url: string, init: RequestInit) => Promise<Response>;

/** A request that has had no answer within this long is reported as hanging (a test must not wait forever). */
export const ANSWER_TIMEOUT_MS = 60_000;

export async function request(url: string, method: string, body?: unknown, headers: Record<string, string> = {}, fetcher: Fetcher = fetch, timeoutMs = ANSWER_TIMEOUT_MS): Promise<Answer> {
  const init: RequestInit = { method, headers: { accept: 'application/json', ...headers }, signal: AbortSignal.timeout(timeoutMs) };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const response = await fetcher(url, init).catch((e: unknown) => {
    if ((e as Error)?.name === 'TimeoutError') throw new Error(`${method} ${url.replace(/^https?:\/\/[^/]+/, '')} had no answer within ${timeoutMs} ms`);
    throw e;
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: response.status, json };
}

/** A status answer of `GET /extrinsic/status` (a `use=Result` answer has only the first five fields). */
export interface StatusAnswer {
  hash: string;
  isCompleted: boolean;
  isError: boolean;
  error: { message: string } | null;
  parsed: any;
  status?: string;
  blockHash?: string | null;
  block?: { header: { number: number } } | null;
}

/** What the host told the client about an extrinsic in a block (the block only when it said which). */
export interface Acknowledgement {
  hash: string;
  isError: boolean;
  block: { number: number; hash: string } | null;
}

function acknowledgementOf(answer: StatusAnswer): Acknowledgement {
  const number = answer.block?.header.number;
  return { hash: answer.hash, isError: answer.isError, block: number === undefined || !answer.blockHash ? null : { number, hash: answer.blockHash } };
}

export interface Accepted {
  signer: string;
  operation: string;
}

export interface Operation {
  name: 'transfer' | 'mint' | 'nest';
  method: string;
  path: string;
  body: unknown;
}

/** One account's submissions go one at a time, so the nonce Build picks is always the next one. */
class AccountLock {
  private tail: Promise<void> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => {},
      () => {}
    );
    return result;
  }
}

export interface StreamOptions {
  baseUrl: string;
  signers: Signer[];
  /** Each signer's collection (nesting by token owners allowed), with how many tokens it minted. */
  collections: Map<string, { id: number; minted: number }>;
  random: Random;
  /**
   * `Result`: submit with `use=Result`, the answer is the acknowledgement (instant blocks).
   * `Submit`: `use=Submit` answers the hash once pooled, then the status is polled until it is
   * in a block (interval or manual blocks).
   */
  submitWith: 'Result' | 'Submit';
  /** Default: `fetch`. */
  fetcher?: Fetcher;
}

export class SignedWriteStream {
  /** Hashes the host answered 2xx at submit. */
  readonly accepted = new Map<string, Accepted>();
  /** Hashes the host said are in a block, with what it said. */
  readonly acknowledged = new Map<string, Acknowledgement>();
  /** Answers ≥ 500 (a host must never give one for these requests). */
  readonly serverErrors: string[] = [];
  /** Submits of a payload the host had just built that it did not answer 201 (it never should). */
  readonly submitRefusals: string[] = [];
  /** Requests that failed because the connection went away (the host was killed). */
  connectionFailures = 0;
  private readonly locks = new Map<string, AccountLock>();
  private stopped = false;

  constructor(private readonly options: StreamOptions) {
    for (const s of options.signers) this.locks.set(s.address, new AccountLock());
  }

  /** `lanes` loops of write-then-confirm until `stop()` or the host goes away. */
  async run(lanes: number): Promise<void> {
    await Promise.all(Array.from({ length: lanes }, (_, lane) => this.lane(lane)));
  }

  stop(): void {
    this.stopped = true;
  }

  private async lane(lane: number): Promise<void> {
    const { signers } = this.options;
    while (!this.stopped) {
      const signer = signers[lane % signers.length];
      try {
        await this.writeOnce(signer);
      } catch (e) {
        // The host was killed under this request: the stream ends. A request left unanswered
        // while the host lived is a fault of its own.
        if (/had no answer/.test((e as Error).message)) this.serverErrors.push((e as Error).message);
        this.connectionFailures++;
        this.stopped = true;
      }
    }
  }

  private pickOperation(signer: Signer): Operation {
    const { random, signers, collections } = this.options;
    const collection = collections.get(signer.address)!;
    const roll = random.next();
    if (roll < 0.4) {
      const others = signers.filter((s) => s !== signer);
      return { name: 'transfer', method: 'POST', path: '/balance/transfer', body: { address: signer.address, destination: random.pick(others).address, amount: '0.001' } };
    }
    if (roll < 0.7 || collection.minted < 2) {
      return { name: 'mint', method: 'POST', path: '/tokens', body: { address: signer.address, collectionId: collection.id } };
    }
    // Any two tokens of the signer's collection: some nests succeed, some fail on chain (a cycle,
    // a token no longer the signer's) and are included as errors: both must keep the tree sound.
    const parent = random.int(1, collection.minted);
    let nested = random.int(1, collection.minted - 1);
    if (nested >= parent) nested++;
    return {
      name: 'nest',
      method: 'POST',
      path: '/tokens/nest',
      body: { address: signer.address, parent: { collectionId: collection.id, tokenId: parent }, nested: { collectionId: collection.id, tokenId: nested } }
    };
  }

  private call(path: string, method: string, body?: unknown): Promise<Answer> {
    return request(`${this.options.baseUrl}${path}`, method, body, {}, this.options.fetcher);
  }

  /**
   * Build, sign and submit one write of `signer` (its submissions one at a time). Returns the
   * submit's answer when it was 201, null when Build or submit refused it.
   */
  async submitOne(signer: Signer): Promise<{ operation: Operation; answer: StatusAnswer } | null> {
    const { submitWith } = this.options;
    const operation = this.pickOperation(signer);
    return this.locks.get(signer.address)!.run(async () => {
      if (this.stopped) return null;
      const built = await this.call(`${operation.path}?use=Build`, operation.method, operation.body);
      if (built.status >= 500) this.serverErrors.push(`Build ${operation.path} → ${built.status} ${JSON.stringify(built.json).slice(0, 300)}`);
      // A 4xx at Build (a token that is not there any more, say) costs nothing: try another.
      if (built.status !== 201) return null;
      const signature = signPayload(signer.pair, built.json.signerPayloadHex);
      const answer = await this.call(`${operation.path}?use=${submitWith}`, operation.method, { signerPayloadJSON: built.json.signerPayloadJSON, signature });
      if (answer.status >= 500) this.serverErrors.push(`${submitWith} ${operation.path} → ${answer.status} ${JSON.stringify(answer.json).slice(0, 300)}`);
      if (answer.status !== 201) {
        this.submitRefusals.push(`${submitWith} ${operation.path} → ${answer.status} ${JSON.stringify(answer.json).slice(0, 300)}`);
        return null;
      }
      this.accepted.set(answer.json.hash, { signer: signer.address, operation: operation.name });
      return { operation, answer: answer.json as StatusAnswer };
    });
  }

  private async writeOnce(signer: Signer): Promise<void> {
    const result = await this.submitOne(signer);
    if (!result) return;
    const { operation, answer: submitted } = result;
    const final = this.options.submitWith === 'Result' ? submitted : await this.waitForBlock(submitted.hash);
    // Refused at inclusion after a 2xx (status Invalid, not completed): accepted, not acknowledged.
    if (!final || !final.isCompleted) return;
    this.acknowledge(final, operation, signer);
  }

  /** Record what the host said is in a block (and learn the token a mint made). */
  acknowledge(final: StatusAnswer, operation: Operation, signer: Signer): void {
    this.acknowledged.set(final.hash, acknowledgementOf(final));
    if (operation.name === 'mint' && !final.isError && final.parsed?.tokenId) {
      const collection = this.options.collections.get(signer.address)!;
      collection.minted = Math.max(collection.minted, final.parsed.tokenId);
    }
  }

  /** Poll the status until the extrinsic is in a block (or refused); null if the stream stops first. */
  private async waitForBlock(hash: string): Promise<StatusAnswer | null> {
    while (!this.stopped) {
      const answer = await this.call(`/extrinsic/status?hash=${hash}`, 'GET');
      if (answer.status >= 500) this.serverErrors.push(`status ${hash} → ${answer.status} ${JSON.stringify(answer.json).slice(0, 300)}`);
      if (answer.status === 200 && answer.json.status !== 'Ready' && answer.json.status !== 'pending') return answer.json as StatusAnswer;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return null;
  }
}

/** Custodial `use=Result` (Authorization: Seed), for set-up steps; throws unless included without error. */
export async function custodialResult(baseUrl: string, method: string, path: string, body: unknown, uri: string, fetcher: Fetcher = fetch): Promise<StatusAnswer> {
  const answer = await request(`${baseUrl}${path}?use=Result`, method, body, { authorization: `Seed ${uri}` }, fetcher);
  if (answer.status !== 201 || answer.json.isError) throw new Error(`${method} ${path} → ${answer.status} ${JSON.stringify(answer.json).slice(0, 400)}`);
  return answer.json as StatusAnswer;
}

/** Each signer's collection, nesting allowed for token owners, with a few tokens minted. */
export async function prepareCollections(baseUrl: string, signers: Signer[], tokensEach: number, fetcher: Fetcher = fetch): Promise<Map<string, { id: number; minted: number }>> {
  const collections = new Map<string, { id: number; minted: number }>();
  for (const s of signers) {
    const created = await custodialResult(
      baseUrl,
      'POST',
      '/collections',
      { address: s.address, name: `Durability ${s.uri}`, description: 'crash test', tokenPrefix: 'DUR', permissions: { nesting: { tokenOwner: true } } },
      s.uri,
      fetcher
    );
    const id = created.parsed.collectionId as number;
    if (tokensEach > 0) {
      await custodialResult(baseUrl, 'POST', '/tokens/create-multiple', { address: s.address, collectionId: id, tokens: Array.from({ length: tokensEach }, () => ({})) }, s.uri, fetcher);
    }
    collections.set(s.address, { id, minted: tokensEach });
  }
  return collections;
}
