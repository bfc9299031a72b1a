// Baseline service worker of bench/browser.ts: no REST stack at all. Registered at /bench-sw.js
// with scope /bench/; it opens a database of the ledger's schema (LedgerDatabase, its own name)
// holding copies of the ledger's token rows, and answers `GET /bench/token?collectionId&tokenId`
// with one `db.tokens.get([c, t])` serialised as JSON. `GET /bench/fixed` answers a fixed token
// JSON without touching IndexedDB (the round-trip floor of any worker). The extrinsic flow of B2
// without a ledger: `POST /bench/build` (one account get), `POST /bench/submit` (one rw
// transaction writing a row into 4 stores, durability 'strict' as the ledger's) and
// `GET /bench/status` (one extrinsic get) — the same three round trips Opalite answers. Everything
// else goes to the network.
import { LedgerDatabase } from '../src/lib/storage/schema';

export const BASELINE_DB = 'opalite-bench-baseline';

interface FetchEventLike extends Event {
  request: Request;
  respondWith(response: Promise<Response> | Response): void;
}
interface ExtendableEventLike extends Event {
  waitUntil(p: Promise<unknown>): void;
}
const scope = self as unknown as {
  addEventListener(type: 'fetch', fn: (e: FetchEventLike) => void): void;
  addEventListener(type: 'install' | 'activate', fn: (e: ExtendableEventLike) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
};

let db: LedgerDatabase | null = null;
const open = () => (db ??= new LedgerDatabase({ name: BASELINE_DB }));

const json = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

async function token(url: URL): Promise<Response> {
  const row = await open().tokens.get([Number(url.searchParams.get('collectionId')), Number(url.searchParams.get('tokenId'))]);
  if (!row) return new Response('{"error":"no such token"}', { status: 404, headers: { 'content-type': 'application/json', 'x-bench-host': 'baseline-sw' } });
  return new Response(json(row), { headers: { 'content-type': 'application/json', 'x-bench-host': 'baseline-sw' } });
}

let fixed = '{}';
let blockNumber = 0;

const answer = (value: unknown, status = 200) => new Response(json(value), { status, headers: { 'content-type': 'application/json', 'x-bench-host': 'baseline-sw' } });

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

async function build(req: Request): Promise<Response> {
  const { address } = (await req.json()) as { address: string };
  const idb = (await open().open()).backendDB();
  const account = (await request(idb.transaction('accounts', 'readonly').objectStore('accounts').get(address))) as { nonce: number } | undefined;
  const nonce = account?.nonce ?? 0;
  return answer({ nonce, signerPayloadHex: '0x' + 'ab'.repeat(120) + nonce.toString(16).padStart(8, '0') }, 201);
}

async function submit(req: Request): Promise<Response> {
  const { address, nonce, signature } = (await req.json()) as { address: string; nonce: number; signature: string };
  const idb = (await open().open()).backendDB();
  const number = ++blockNumber;
  const hash = '0x' + (signature.slice(4, 60) + number.toString(16)).padStart(64, '0').slice(-64);
  await new Promise<void>((resolve, reject) => {
    const tx = idb.transaction(['meta', 'accounts', 'blocks', 'extrinsics'], 'readwrite', { durability: 'strict' });
    tx.objectStore('accounts').put({ address, free: 10n ** 21n - BigInt(nonce), nonce: nonce + 1 });
    tx.objectStore('extrinsics').put({ hash, signer: address, nonce, status: 'InBlock', isCompleted: true, isError: false, blockNumber: number, events: [], createdAt: Date.now() });
    tx.objectStore('blocks').put({ number, hash, parentHash: hash, stateRoot: hash, extrinsicsRoot: hash, timestamp: Date.now(), extrinsics: [hash] });
    tx.objectStore('meta').put({ key: 'head', value: { number, hash } });
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () => reject(tx.error);
  });
  return answer({ hash }, 201);
}

async function status(url: URL): Promise<Response> {
  const idb = (await open().open()).backendDB();
  const row = await request(idb.transaction('extrinsics', 'readonly').objectStore('extrinsics').get(url.searchParams.get('hash') ?? ''));
  return row ? answer(row) : answer({ error: 'unknown' }, 404);
}

scope.addEventListener('install', (event) => event.waitUntil(scope.skipWaiting()));
scope.addEventListener('activate', (event) => event.waitUntil(scope.clients.claim()));
scope.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== scope.location.origin) return;
  if (url.pathname === '/bench/token') return event.respondWith(token(url));
  if (url.pathname === '/bench/build' && event.request.method === 'POST') return event.respondWith(build(event.request));
  if (url.pathname === '/bench/submit' && event.request.method === 'POST') return event.respondWith(submit(event.request));
  if (url.pathname === '/bench/status') return event.respondWith(status(url));
  if (url.pathname === '/bench/fixed') {
    return event.respondWith(
      (async () => {
        if (fixed === '{}') {
          const row = await open().tokens.toCollection().first();
          fixed = json(row ?? {});
        }
        return new Response(fixed, { headers: { 'content-type': 'application/json', 'x-bench-host': 'baseline-sw' } });
      })()
    );
  }
});
