// The host side of the benchmark: starts the Node host (server/host.ts) and answers a few control
// requests (a sample token row, CPU profiling of this thread). Runs either in a worker thread (the
// default: the server gets its own event loop, so the client's signing, fetch and JSON do not
// steal its time) or in the main thread (BENCH_HOST=inproc).
import { Session } from 'node:inspector/promises';
import * as wasmCrypto from '@polkadot/wasm-crypto';
import { pairFromSeed, signMessage, verifySignature } from '../src/lib/codec/signature';
import { publicKeyOf } from '../src/lib/codec/address';
import { fromHex } from '../src/lib/codec/hash';
import { childrenOf } from '../src/lib/ledger/tokens/nesting';
import { gatherCollections, tokenWithChildrenJson } from '../src/lib/api/present/nested';
import type { DexieStore } from '../src/lib/storage/dexie-store';
import { startHost, type RunningHost } from '../server/host';

export interface Control {
  url: string;
  sampleToken(collectionId: number, tokenId: number): Promise<unknown>;
  profileStart(): Promise<void>;
  /** Stop profiling; a summary of where this thread's CPU time went. */
  profileStop(): Promise<ProfileSummary>;
  /** Time the layers of the read path and the crypto of the write path, in this thread. */
  breakdown(collectionId: number, tokenIds: number[]): Promise<[string, number][]>;
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
  return { totalMs: total, idleMs: idle, categories: sort(cats), inclusive: sort(incl), top: sort(fns).slice(0, 20) };
}

/** Start the host in this thread and return its control surface. */
export async function startHostSide(): Promise<Control> {
  const host: RunningHost = await startHost({ port: 0, log: () => {} });
  let session: Session | null = null;
  return {
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
    stop: () => host.stop()
  };
}

/** µs per call of `fn`, over `n` calls (after a short warm-up), sequential. */
async function timeIt(n: number, fn: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < Math.min(20, n); i++) await fn(i);
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  return ((performance.now() - t) / n) * 1000;
}

async function breakdown(host: RunningHost, collectionId: number, tokenIds: number[]): Promise<[string, number][]> {
  const { ledger, handler } = host;
  const db = (ledger.store as DexieStore).db;
  const id = (i: number) => tokenIds[i % tokenIds.length];
  const N = 600;
  const out: [string, number][] = [];
  const token = (await db.tokens.get([collectionId, id(0)]))!;
  const collection = (await db.collections.get(collectionId))!;
  const origin = new URL(host.url).origin;
  out.push(['read: db.tokens.get([c,t]) on the ledger db (1-table tx)', await timeIt(N, (i) => db.tokens.get([collectionId, id(i)]))]);
  out.push(['read: db.collections.get(c) (1-table tx)', await timeIt(N, () => db.collections.get(collectionId))]);
  out.push(["read: db.transaction('r', all 7 ledger tables, get token)", await timeIt(N, (i) => db.transaction('r', ['meta', 'accounts', 'collections', 'tokens', 'allowList', 'blocks', 'extrinsics'], () => db.tokens.get([collectionId, id(i)])))]);
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
  return out;
}
