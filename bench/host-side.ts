// The host side of the benchmark: starts the Node host (server/host.ts, on a temporary SQLite
// database) and answers a few control
// requests (a sample token row, CPU profiling of this thread). Runs either in a worker thread (the
// default: the server gets its own event loop, so the client's signing, fetch and JSON do not
// steal its time) or in the main thread (BENCH_HOST=inproc).
import { createServer, type Server } from 'node:http';
import { Session } from 'node:inspector/promises';
import * as wasmCrypto from '@polkadot/wasm-crypto';
import { pairFromSeed, signMessage, verifySignature } from '../src/lib/codec/signature';
import { publicKeyOf } from '../src/lib/codec/address';
import { fromHex } from '../src/lib/codec/hash';
import { childrenOf } from '../src/lib/ledger/tokens/nesting';
import { gatherCollections, tokenWithChildrenJson } from '../src/lib/api/present/nested';
import { startHost, type RunningHost } from '../server/host';

export interface Control {
  url: string;
  sampleToken(collectionId: number, tokenId: number): Promise<unknown>;
  profileStart(): Promise<void>;
  /** Stop profiling; a summary of where this thread's CPU time went. */
  profileStop(): Promise<ProfileSummary>;
  /** Time the layers of the read path and the crypto of the write path, in this thread. */
  breakdown(collectionId: number, tokenIds: number[]): Promise<[string, number][]>;
  /**
   * Two reference servers in this thread, on 127.0.0.1: `floor` answers every request with a
   * fixed token JSON (node:http alone, no Opalite); `direct` answers GET token from the ledger
   * with the route's own read and presenter but straight on node:http (no hono, zod or
   * WHATWG Request/Response) — a prototype of a fast path, for comparison only.
   */
  startReference(collectionId: number, tokenId: number): Promise<{ floor: string; direct: string }>;
  /**
   * Signed balance transfers straight into the Ledger (no HTTP): payloads pre-built (immortal,
   * explicit nonces) and pre-signed untimed; timed is `submit` (verify + checks + pool) until
   * `included`. Sequential from one account, then 16 accounts in flight.
   */
  ledgerOnly(seqSeed: string, parSeeds: string[], nSeq: number, nEach: number): Promise<{ seq: number; par: number; seqP50: number; parP50: number; seqBlocks: number; parBlocks: number; parMax: number }>;
  /** Blocks and extrinsics produced since the previous call (how well instant mode batches). */
  blockStats(): Promise<{ blocks: number; extrinsics: number; maxPerBlock: number }>;
  stop(): Promise<void>;
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  /** Self time by category, ms, descending. */
  categories: [string, number][];
  /** Inclusive time of a few interesting frames (counted once per sample), ms. */
  inclusive: [string, number][];
  /** Top self-time functions: [name @ file:line, ms]. */
  top: [string, number][];
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Which part of the stack a frame belongs to (first match wins). */
function categoryOf(f: CallFrame): string {
  const u = f.url;
  const n = f.functionName;
  if (n === '(idle)') return '(idle)';
  if (n === '(garbage collector)') return 'GC';
  if (n === '(program)') return '(program/native)';
  if (u.includes('fake-indexeddb')) return 'fake-indexeddb';
  if (u.includes('better-sqlite3')) return 'better-sqlite3';
  if (u.includes('/server/storage/')) return 'storage adapter (server/storage, SQLite)';
  if (u.includes('/dexie/')) return 'Dexie';
  if (u.includes('/zod/')) return 'zod';
  if (u.includes('/hono/')) return 'hono (routing)';
  if (u.includes('wasm-crypto') || u.includes('wasm://') || u.includes('util-crypto') || u.includes('@noble')) return 'crypto (sr25519/blake2, wasm)';
  if (u.includes('@polkadot/keyring')) return 'keyring (custodial seed)';
  if (u.includes('@polkadot/util/')) return '@polkadot/util (hex/u8a)';
  if (u.includes('scale-ts')) return 'codec (scale-ts)';
  if (u.includes('@unique-nft/schemas') || u.includes('/api/content/') || u.includes('/api/present/')) return 'token data encode/decode (schemas, present)';
  if (u.includes('/src/lib/codec/')) return 'codec (opalite)';
  if (u.includes('/src/lib/storage/')) return 'storage adapter (dexie-store.ts)';
  if (u.includes('/src/lib/ledger/')) return 'ledger (dispatch, block)';
  if (u.includes('/src/lib/api/')) return 'api (handler, routes)';
  if (u.includes('/server/')) return 'server/host.ts';
  if (u.includes('node:internal/deps/undici') || u.includes('undici')) return 'WHATWG Request/Response/Headers (undici)';
  if (u.includes('_http_') || u.includes('node:http') || u.includes('node:net') || u.includes('stream') || u.includes('node:internal/streams')) return 'node:http / net / streams';
  if (u.startsWith('node:')) return 'node internals (other)';
  if (u === '') {
    if (/^(parse|stringify)$/.test(n)) return 'JSON (native)';
    if (n === 'structuredClone') return 'structuredClone (native)';
    return 'native (other: ' + (n || 'anonymous') + ')';
  }
  return 'other JS';
}

/** Inclusive buckets: a sample counts if any frame on its stack matches. */
const INCLUSIVE: [string, (f: CallFrame) => boolean][] = [
  ['zod safeParse (incl.)', (f) => f.url.includes('/zod/') && /safeParse|_zod.run|parse/.test(f.functionName)],
  ['Dexie + fake-indexeddb (incl.)', (f) => f.url.includes('/dexie/') || f.url.includes('fake-indexeddb')],
  ['fake-indexeddb (incl.)', (f) => f.url.includes('fake-indexeddb')],
  ['SQLite store (incl.)', (f) => f.url.includes('/server/storage/') || f.url.includes('better-sqlite3')],
  ['sr25519/ed25519 verify (incl.)', (f) => /sr25519Verify|ed25519Verify|verifySignature/.test(f.functionName)],
  ['sign (custodial, incl.)', (f) => /signMessage|^sign$/.test(f.functionName) && !f.url.includes('node:')],
  ['pairFromSeed / keyring (incl.)', (f) => /pairFromSeed|addFromUri|signerFromAuthorization/.test(f.functionName)],
  ['structuredClone (incl.)', (f) => f.functionName === 'structuredClone'],
  ['JSON.parse/stringify (incl.)', (f) => f.url === '' && /^(parse|stringify)$/.test(f.functionName)],
  ['toRequest (host.ts, incl.)', (f) => f.functionName === 'toRequest'],
  ['send (host.ts, incl.)', (f) => f.functionName === 'send' && f.url.includes('/server/')],
  ['Response.json (incl.)', (f) => f.functionName === 'json' && f.url.includes('undici')],
  ['produceBlock (incl.)', (f) => f.functionName === 'produceBlock'],
  ['encodeTokenData / mintProperties (incl.)', (f) => /encodeTokenData|mintProperties/.test(f.functionName)],
  ['tokenWithChildrenJson / decode (incl.)', (f) => /tokenWithChildrenJson|tokenJson|decodeTokenData/.test(f.functionName)],
  ['gatherCollections (incl.)', (f) => f.functionName === 'gatherCollections'],
  ['childrenOf (incl.)', (f) => f.functionName === 'childrenOf'],
  ['ledger.read / store.read (incl.)', (f) => f.functionName === 'read' && f.url.includes('/src/lib/')],
  ['ledger.build (incl.)', (f) => f.functionName === 'build' && f.url.includes('/ledger/')],
  ['ledger.submit (incl.)', (f) => f.functionName === 'submit' && f.url.includes('/ledger/')],
  ['statusJson (incl.)', (f) => f.functionName === 'statusJson']
];

export function summarize(profile: CpuProfile): ProfileSummary {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) byId.set(n.id, n);
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
  }
  const cats = new Map<string, number>();
  const fns = new Map<string, number>();
  const incl = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, ms] of self) {
    const node = byId.get(id)!;
    const cat = categoryOf(node.callFrame);
    total += ms;
    if (cat === '(idle)') {
      idle += ms;
      continue;
    }
    cats.set(cat, (cats.get(cat) ?? 0) + ms);
    const f = node.callFrame;
    const file = f.url.replace(/^.*\/(node_modules\/)?/, '').replace(/^file:\/\//, '');
    const name = `${f.functionName || '(anonymous)'} @ ${file || 'native'}:${f.lineNumber + 1}`;
    fns.set(name, (fns.get(name) ?? 0) + ms);
    // Inclusive buckets: walk the stack once per sample node.
    const hit = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = byId.get(cur)!.callFrame;
      for (const [label, test] of INCLUSIVE) if (!hit.has(label) && test(cf)) hit.add(label);
    }
    for (const label of hit) incl.set(label, (incl.get(label) ?? 0) + ms);
  }
  const sort = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { totalMs: total, idleMs: idle, categories: sort(cats), inclusive: sort(incl), top: sort(fns).slice(0, 80) };
}

/** Start the host in this thread and return its control surface. */
export async function startHostSide(): Promise<Control> {
  const host: RunningHost = await startHost({ port: 0, log: () => {} });
  let session: Session | null = null;
  const references: Server[] = [];
  let stats = { blocks: 0, extrinsics: 0, maxPerBlock: 0 };
  host.ledger.onBlock((block) => {
    stats.blocks++;
    stats.extrinsics += block.extrinsics.length;
    stats.maxPerBlock = Math.max(stats.maxPerBlock, block.extrinsics.length);
  });
  return {
    async blockStats() {
      const out = stats;
      stats = { blocks: 0, extrinsics: 0, maxPerBlock: 0 };
      return out;
    },
    url: host.url,
    sampleToken: (collectionId, tokenId) => host.ledger.read((tx) => tx.get('tokens', [collectionId, tokenId])),
    async profileStart() {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
    },
    async profileStop() {
      if (!session) throw new Error('not profiling');
      const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
      session.disconnect();
      session = null;
      return summarize(profile);
    },
    breakdown: (collectionId, tokenIds) => breakdown(host, collectionId, tokenIds),
    async startReference(collectionId, tokenId) {
      const ipfs = new URL(host.url).origin + '/ipfs';
      const answer = async (c: number, t: number) => {
        const { token, children, collections } = await host.ledger.read(async (tx) => {
          const token = await tx.get('tokens', [c, t]);
          if (!token) return { token, children: [], collections: new Map() };
          const children = await childrenOf(tx, token);
          return { token, children, collections: await gatherCollections(tx, [token, ...children]) };
        });
        return token ? JSON.stringify(await tokenWithChildrenJson(token, children, collections, ipfs)) : null;
      };
      const fixed = (await answer(collectionId, tokenId))!;
      const floor = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(fixed);
      });
      const direct = createServer((req, res) => {
        const q = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
        answer(Number(q.get('collectionId')), Number(q.get('tokenId'))).then(
          (body) => {
            res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
            res.end(body ?? '{}');
          },
          () => {
            res.writeHead(500);
            res.end();
          }
        );
      });
      const listen = (s: Server) =>
        new Promise<string>((resolve) =>
          s.listen(0, '127.0.0.1', () => {
            const a = s.address();
            resolve(`http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`);
          })
        );
      references.push(floor, direct);
      return { floor: await listen(floor), direct: await listen(direct) };
    },
    async ledgerOnly(seqSeed, parSeeds, nSeq, nEach) {
      const { ledger } = host;
      const dest = pairFromSeed('//Ferdie').address;
      const prepare = async (seedUri: string, n: number) => {
        const pair = pairFromSeed(seedUri);
        let nonce = await ledger.nextNonce(pair.address);
        const out: { json: Parameters<typeof ledger.submit>[0]; signature: string }[] = [];
        for (let i = 0; i < n; i++) {
          const built = await ledger.build(pair.address, { name: 'balances.transferKeepAlive', args: { dest, value: 1n } } as never, { nonce: nonce++, immortal: true });
          out.push({ json: built.signerPayloadJSON, signature: signMessage(pair, fromHex(built.signerPayloadHex)) });
        }
        return out;
      };
      const run = async (list: { json: Parameters<typeof ledger.submit>[0]; signature: string }[], lat: number[]) => {
        for (const x of list) {
          const t0 = performance.now();
          const submitted = await ledger.submit(x.json, x.signature);
          const record = await submitted.included;
          if (record.isError) throw new Error(`ledger-only transfer failed: ${JSON.stringify(record.error)}`);
          lat.push(performance.now() - t0);
        }
      };
      const seqList = await prepare(seqSeed, nSeq);
      const parLists = [];
      for (const s of parSeeds) parLists.push(await prepare(s, nEach));
      const seqLat: number[] = [];
      const b0 = stats.blocks;
      let t = performance.now();
      await run(seqList, seqLat);
      const seq = nSeq / ((performance.now() - t) / 1000);
      const b1 = stats.blocks;
      stats.maxPerBlock = 0;
      const parLat: number[] = [];
      t = performance.now();
      await Promise.all(parLists.map((l) => run(l, parLat)));
      const par = (parSeeds.length * nEach) / ((performance.now() - t) / 1000);
      const p50 = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
      return { seq, par, seqP50: p50(seqLat), parP50: p50(parLat), seqBlocks: b1 - b0, parBlocks: stats.blocks - b1, parMax: stats.maxPerBlock };
    },
    async stop() {
      for (const s of references) {
        s.closeAllConnections?.();
        s.close();
      }
      await host.stop();
    }
  };
}

/** µs per call of `fn`, over `n` calls (after a short warm-up), sequential. */
async function timeIt(n: number, fn: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < Math.min(20, n); i++) await fn(i);
  // Best of three rounds: the machine is shared and noisy; the minimum is the cost.
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const t = performance.now();
    for (let i = 0; i < Math.ceil(n / 3); i++) await fn(i);
    best = Math.min(best, ((performance.now() - t) / Math.ceil(n / 3)) * 1000);
  }
  return best;
}

async function breakdown(host: RunningHost, collectionId: number, tokenIds: number[]): Promise<[string, number][]> {
  const { ledger, handler } = host;
  // The store is the host's SQLite database: its read transactions, whatever the engine.
  const { store } = host;
  const id = (i: number) => tokenIds[i % tokenIds.length];
  const N = 600;
  const out: [string, number][] = [];
  const token = (await store.read((tx) => tx.get('tokens', [collectionId, id(0)])))!;
  const collection = (await store.read((tx) => tx.get('collections', collectionId)))!;
  const origin = new URL(host.url).origin;
  out.push(['read: store.read(tx.get token) (one read transaction)', await timeIt(N, (i) => store.read((tx) => tx.get('tokens', [collectionId, id(i)])))]);
  out.push(['read: store.read(tx.get collection)', await timeIt(N, () => store.read((tx) => tx.get('collections', collectionId)))]);
  out.push(['read: ledger.read(tx.get token) (store.read wrapper)', await timeIt(N, (i) => ledger.read((tx) => tx.get('tokens', [collectionId, id(i)])))]);
  out.push(['read: ledger.read(tx.childrenOf) only', await timeIt(N, (i) => ledger.read((tx) => tx.childrenOf(collectionId, id(i))))]);
  out.push(['read: ledger.read(token + childrenOf + collection) = route read', await timeIt(N, (i) => ledger.read(async (tx) => {
    const t = (await tx.get('tokens', [collectionId, id(i)]))!;
    const children = await childrenOf(tx, t);
    return gatherCollections(tx, [t, ...children]);
  }))]);
  const cols = new Map([[collectionId, collection]]);
  out.push(['present: tokenWithChildrenJson (decode token data)', await timeIt(N, () => tokenWithChildrenJson(token, [], cols, origin + '/ipfs'))]);
  const json = await tokenWithChildrenJson(token, [], cols, origin + '/ipfs');
  out.push(['present: JSON.stringify of the answer', await timeIt(N, () => JSON.stringify(json))]);
  out.push(['clone: structuredClone(token row)', await timeIt(N, () => structuredClone(token))]);
  out.push([`clone: structuredClone(collection row, ${JSON.stringify(collection, (_k, v) => (typeof v === 'bigint' ? String(v) : v)).length} B JSON)`, await timeIt(N, () => structuredClone(collection))]);
  out.push(['http-less: handler(new Request(GET /tokens)) + text()', await timeIt(N, async (i) => {
    const r = await handler(new Request(`${host.url}/tokens?collectionId=${collectionId}&tokenId=${id(i)}`));
    await r.text();
  })]);
  out.push(['http-less: new Request(url) alone', await timeIt(N, (i) => new Request(`${host.url}/tokens?collectionId=${collectionId}&tokenId=${id(i)}`, { headers: new Headers({ host: 'x', connection: 'keep-alive' }) }))]);
  out.push(['http-less: Response.json(answer) + arrayBuffer()', await timeIt(N, () => Response.json(json).arrayBuffer())]);
  // Write path crypto, in the host thread.
  await wasmCrypto.waitReady();
  const pair = pairFromSeed('//Alice');
  const msg = new Uint8Array(140).fill(7);
  const sig = signMessage(pair, msg);
  out.push(['crypto: verifySignature (util-crypto 14 → @scure/sr25519, JS)', await timeIt(60, () => verifySignature(msg, sig, pair.address))]);
  const pk = publicKeyOf(pair.address);
  const raw = fromHex(sig).subarray(1);
  out.push(['crypto: @polkadot/wasm-crypto sr25519Verify (WASM)', await timeIt(300, () => { if (!wasmCrypto.sr25519Verify(raw, msg, pk)) throw new Error('bad'); })]);
  out.push(['crypto: pair.sign (custodial sign, @scure)', await timeIt(60, () => pair.sign(msg))]);
  out.push(['crypto: pairFromSeed(//Alice) (per custodial request)', await timeIt(15, () => pairFromSeed('//Alice'))]);
  // The payload work of one create-multiple batch of 100 tokens (2a/2b), done 2-4 times per batch.
  const tokens = Array.from({ length: 100 }, (_, i) => ({ data: { name: `Breakdown token ${i}`, description: 'A little data for the bench' } }));
  const buildReq = () =>
    handler(new Request(`${host.url}/tokens/create-multiple?use=Build`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address: pair.address, collectionId, tokens }) }));
  out.push(['mint: handler POST create-multiple?use=Build ×100 (http-less)', await timeIt(30, async () => (await buildReq()).text())]);
  const built = (await (await buildReq()).json()) as { signerPayloadJSON: Parameters<typeof ledger.signingMessage>[0] };
  const method = built.signerPayloadJSON.method;
  out.push([`mint: fromHex(method) (codec/hash.ts; ${(method.length - 2) / 2} bytes)`, await timeIt(60, () => fromHex(method))]);
  out.push(['mint: Buffer.from(hex, "hex") of the same (for comparison)', await timeIt(60, () => Buffer.from(method.slice(2), 'hex'))]);
  out.push(['mint: ledger.signingMessage(json) (encode payload + blake2)', await timeIt(60, () => ledger.signingMessage(built.signerPayloadJSON))]);
  out.push(['mint: ledger.decodePayloadCall(json)', await timeIt(60, () => ledger.decodePayloadCall(built.signerPayloadJSON))]);
  return out;
}
