// Issue 17, item 7: the cost of history (reads at a block, revert, database size), each number
// beside a baseline measured in this same run on this same machine. What each number means:
//
//   H1  read at a block: the latency of one GET answered as of the block 1,000 blocks back (`at=`)
//       divided by the latency of the same GET at the head (no `at`), single requests of the two
//       strictly alternating, sequential; median and p90 of each. Node: the host as `npm run serve`
//       runs it (child process, SQLite, HTTP on 127.0.0.1, keep-alive node:http client), on a chain
//       of 10,000+ blocks. Browser: the ledger in a page of headless Chromium on IndexedDB (a
//       DexieStore in a persistent profile, so on disk), read through the REST handler in the page,
//       no service worker, on a chain of 1,000+ blocks (BROWSER_PLAN says why); the page's clock
//       ticks in 100 µs steps (no cross-origin isolation). Two rows: //Bob's balance (its row changed in every one of the 1,000
//       blocks since, 10 times each) and a token (never changed since it was minted). A third
//       variant, `at=` the head's own hash, is printed as a reference: the cost of the `at` path
//       alone, with nothing changed since.          target (issue 17): at ≤ 2× the head's median
//   H2  revert of 1,000 blocks holding 10,000 transfers (10 per block) to a snapshot taken before
//       them: the wall time of `POST /dev/revert {snapshotId}` on the Node host (child process, a
//       fresh copy of the same database file each round; median of 3), and of one Ledger.revert in
//       the browser page. Baseline: one raw transaction (raw better-sqlite3 / raw IndexedDB, no
//       ledger code) on a copy of the same database doing the revert's storage work: find the rows
//       changed after the block, put back each one's first `before`, delete the later blocks and the
//       change rows after the block, commit durably; the extrinsics of the removed blocks are not
//       rewritten (their status is derived when read). This is the work the revert does today
//       (history/revert.ts): change this baseline with it.
//       revert / raw is printed so a slow machine can be told from a slow revert; the target is
//       the absolute one.                    target (issue 17): Node < 1 s, browser < 3 s
//   H3  database size: the same transfers into a ledger keeping every block's history and into one
//       keeping none (`--history 0`), SQLite, bytes in use = (page_count − freelist_count) ×
//       page_size after a checkpoint. Not the file size: a ledger that prunes frees pages inside
//       its file (the freelist, reused by later writes, never returned to the file system), and
//       the write-ahead log is a file of its own.    target (issue 17): with history ≤ 2× without
//       IndexedDB's size is not measured: Chromium's LevelDB files hold logs and unmerged levels
//       whose size depends on when compaction last ran, so they say little about the rows.
//
// The chains are built through the ledger (bench/history-chain.ts: Ledger.signAndSubmit, dev keys
// signing on wasm), in this process on SQLite, in the page on IndexedDB; building is not timed.
// The SQLite builds skip the disk sync (synchronous=OFF on the building connection only): the rows
// are the ones the ledger writes, and every timed step runs on files opened the ordinary way.
//
//   npx tsx bench/history.ts          this part alone (also part of `npm run bench`; BENCH_HISTORY=0 skips it)
//   BENCH_BROWSER=0                   without the browser rows
//
// Only 127.0.0.1 is contacted.
import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import type { Page } from 'playwright-core';
import { openSqliteStore, type SqliteStore } from '../server/storage/sqlite-store';
import { historyPolicy } from '../src/lib/ledger/history/record';
import { LedgerHost } from '../src/lib/host/ledger-host';
import { buildHostOnce, startChildHost, type ChildHost } from '../tests/contract/durability/child-host';
import { launchPersistent } from '../tests/e2e/support';
import { bundleBrowserEntry, servePages, testPageHtml } from '../tests/e2e/test-pages';
import { buildChain, SENDERS, type BuiltChain, type ChainPlan } from './history-chain';
import type { HistoryPageBench, RawCounts, ReadSample } from './history-page';

/** Node: 10,000+ blocks, the last 1,000 holding 10 transfers each (the revert's). */
const NODE_PLAN: ChainPlan = { singleBlocks: 9000, batchBlocks: 1000, perBlock: SENDERS };
/**
 * Browser: the revert's 1,000 blocks of 10 transfers only. 9,000 more single-transfer blocks would
 * add minutes to the bench (the page builds a block in several ms of CPU, more under load), and a
 * read at a block seeks the same indexes whatever lies before the block read at.
 */
const BROWSER_PLAN: ChainPlan = { singleBlocks: 0, batchBlocks: 1000, perBlock: SENDERS };
/** Reads per variant (H1), in single alternating requests. */
const N_READS = 600;
const N_WARM = 60;
/** Revert rounds on the Node host (each on fresh copies of the file). */
const REVERT_ROUNDS = 3;
/** A change's id in SQLite is block × 2^20 + seq (server/storage/sqlite-history.ts). */
const FIRST_ID_AFTER = (block: number) => (block + 1) * 2 ** 20;

const now = () => performance.now();

function pct(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
const median = (values: number[]) => pct(values, 50);
const f = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

// ---- HTTP client (keep-alive node:http: undici's fetch would measure the client, see run.ts) ----

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

function send(url: string, method = 'GET', body?: unknown): Promise<{ status: number; text: string }> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers = text === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) };
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(text);
  });
}

// ---- what H1 reads --------------------------------------------------------------------------

interface ReadVariant {
  /** `balance head`, `balance at −1000`… */
  variant: string;
  path: string;
  /** The exact answer expected (where it is known beforehand). */
  expect?: string;
}

/** For each row read: the head, 1,000 blocks back, and (reference) `at=` the head's own hash. */
function readVariants(chain: BuiltChain, answers: { balanceThen: string; token: string }): ReadVariant[][] {
  const balance = `/balance?address=${chain.busy}`;
  const token = `/tokens?collectionId=${chain.collectionId}&tokenId=${chain.tokenId}`;
  const at = (path: string, hash: string) => `${path}&at=${hash}`;
  return [
    [
      { variant: 'balance head', path: balance },
      { variant: 'balance at −1000', path: at(balance, chain.snapshot.hash), expect: answers.balanceThen },
      { variant: 'balance at head hash', path: at(balance, chain.head.hash) }
    ],
    [
      { variant: 'token head', path: token, expect: answers.token },
      { variant: 'token at −1000', path: at(token, chain.snapshot.hash), expect: answers.token },
      { variant: 'token at head hash', path: at(token, chain.head.hash), expect: answers.token }
    ]
  ];
}

/** `n` reads of each variant, one request of each in turn (the order rotated every turn). */
function interleaved(variants: ReadVariant[], n: number): ReadVariant[] {
  const out: ReadVariant[] = [];
  for (let i = 0; i < n; i++) for (let k = 0; k < variants.length; k++) out.push(variants[(i + k) % variants.length]);
  return out;
}

interface ReadRow {
  platform: string;
  row: string;
  head: number[];
  back: number[];
  atHead: number[];
  failures: number;
}

function readRow(platform: string, row: string, samples: ReadSample[]): ReadRow {
  const of = (suffix: string) => samples.filter((s) => s.variant.endsWith(suffix)).map((s) => s.ms);
  return { platform, row, head: of(' head'), back: of(' at −1000'), atHead: of(' at head hash'), failures: samples.filter((s) => !s.ok).length };
}

// ---- SQLite: building, raw revert, size ------------------------------------------------------

/** Skip the disk sync on the connection that builds (see the top of the file); false when the store's writer cannot be reached. */
function buildWithoutSync(store: SqliteStore): boolean {
  const writer = (store as unknown as { writer?: { db?: Database.Database } }).writer?.db;
  if (!writer) return false;
  writer.pragma('synchronous = OFF');
  return true;
}

async function buildSqliteChain(path: string, plan: ChainPlan, keepBlocks?: number): Promise<BuiltChain & { synced: boolean }> {
  const store = await openSqliteStore({ path });
  const synced = !buildWithoutSync(store);
  const host = await LedgerHost.open({ kind: 'node', store, history: historyPolicy(keepBlocks) });
  try {
    return { ...(await buildChain(host.ledger, host.handle, plan)), synced };
  } finally {
    host.close();
    store.close(); // the last connection: checkpoints the log into the file
  }
}

const STATE_KEYS: Record<string, string> = { meta: 'key', accounts: 'address', collections: 'id' };

/** The raw better-sqlite3 baseline of H2 (see the top of the file), on the database at `path`. */
function rawRevertSqlite(path: string, block: number): { ms: number; counts: RawCounts } {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL'); // as the store's (sqlite-open.ts)
    db.pragma('synchronous = FULL');
    const first = FIRST_ID_AFTER(block);
    const firstChanges = db.prepare('SELECT min(id) AS id, tbl, keyId, before FROM changes WHERE id >= ? GROUP BY tbl, keyId');
    const blocksAfter = db.prepare('SELECT value FROM blocks WHERE number > ? ORDER BY number').pluck();
    const deleteBlocks = db.prepare('DELETE FROM blocks WHERE number > ?');
    const deleteChanges = db.prepare('DELETE FROM changes WHERE id >= ?');
    const put = Object.fromEntries(Object.entries(STATE_KEYS).map(([t, k]) => [t, db.prepare(`UPDATE "${t}" SET value = ? WHERE "${k}" = ?`)]));
    const remove = Object.fromEntries(Object.entries(STATE_KEYS).map(([t, k]) => [t, db.prepare(`DELETE FROM "${t}" WHERE "${k}" = ?`)]));
    const changeRows = db.prepare('SELECT count(*) FROM changes WHERE id >= ?').pluck().get(first) as number;
    const counts: RawCounts = { stateRows: 0, extrinsics: 0, blocks: 0, changeRows };
    const t0 = now();
    db.exec('BEGIN IMMEDIATE');
    for (const row of firstChanges.all(first) as { tbl: string; keyId: string; before: string | null }[]) {
      if (!put[row.tbl]) throw new Error(`the raw baseline does not write table ${row.tbl}`);
      const key = JSON.parse(row.keyId);
      if (row.before === null) remove[row.tbl].run(key);
      else put[row.tbl].run(row.before, key);
      counts.stateRows++;
    }
    // The extrinsics of the removed blocks are counted, not rewritten: their status is derived when read.
    for (const value of blocksAfter.all(block) as string[]) {
      counts.blocks++;
      counts.extrinsics += (JSON.parse(value) as { extrinsics: string[] }).extrinsics.length;
    }
    deleteBlocks.run(block);
    deleteChanges.run(first);
    db.exec('COMMIT');
    return { ms: now() - t0, counts };
  } finally {
    db.close();
  }
}

interface SizeReport {
  inUse: number;
  fileBytes: number;
  pageSize: number;
  freePages: number;
  /** Bytes of pages per table or index (dbstat), largest first. */
  objects: [string, number][];
  /** Per table of history: change rows and their bytes of text. */
  changes: { tbl: string; rows: number; keyBytes: number; beforeBytes: number; afterBytes: number }[];
}

function sizeOf(path: string): SizeReport {
  const db = new Database(path);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const pages = db.pragma('page_count', { simple: true }) as number;
    const freePages = db.pragma('freelist_count', { simple: true }) as number;
    const objects = (db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all() as { name: string; bytes: number }[]).map((r): [string, number] => [r.name, r.bytes]);
    const changes = db
      .prepare('SELECT tbl, count(*) AS rows, sum(length(keyId)) AS keyBytes, sum(coalesce(length(before), 0)) AS beforeBytes, sum(coalesce(length(after), 0)) AS afterBytes FROM changes GROUP BY tbl ORDER BY rows DESC')
      .all() as SizeReport['changes'];
    return { inUse: (pages - freePages) * pageSize, fileBytes: statSync(path).size, pageSize, freePages, objects, changes };
  } finally {
    db.close();
  }
}

// ---- the Node host ------------------------------------------------------------------------------

async function readsOverHttp(host: ChildHost, order: ReadVariant[]): Promise<ReadSample[]> {
  const out: ReadSample[] = [];
  for (const { variant, path, expect } of order) {
    const t0 = now();
    const res = await send(`${host.url}${path}`);
    out.push({ variant, ms: now() - t0, ok: res.status === 200 && (expect === undefined || res.text === expect) });
  }
  return out;
}

interface RevertSample {
  http: number;
  inProcess: number;
  raw: number;
  counts: RawCounts;
}

// ---- the browser ---------------------------------------------------------------------------------

function pageCall<M extends keyof HistoryPageBench>(page: Page, method: M, ...args: Parameters<HistoryPageBench[M]>): Promise<Awaited<ReturnType<HistoryPageBench[M]>>> {
  return page.evaluate(
    ([m, a]) => (globalThis as unknown as { historyBench: Record<string, (...x: unknown[]) => unknown> }).historyBench[m](...a),
    [method, args] as [string, unknown[]]
  ) as Promise<Awaited<ReturnType<HistoryPageBench[M]>>>;
}

interface BrowserResult {
  chain: BuiltChain;
  reads: ReadRow[];
  breakdown: [string, number][];
  revertMs: number;
  rawMs: number;
  counts: RawCounts;
  version: string;
  failures: string[];
}

async function browserPart(): Promise<BrowserResult> {
  const failures: string[] = [];
  const pageJs = await bundleBrowserEntry(join(import.meta.dirname, 'history-page.ts'), 'bench/history-page.js', { sourcemap: false });
  const root = mkdtempSync(join(tmpdir(), 'opalite-bench-history-page-'));
  const profile = mkdtempSync(join(tmpdir(), 'opalite-bench-history-profile-'));
  writeFileSync(join(root, 'index.html'), testPageHtml('Opalite history bench', ['/history-page.js']));
  const pages = await servePages({ 'history-page.js': { copyFrom: pageJs } }, root);
  const context = await launchPersistent(profile);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => failures.push(`page error: ${String(e).slice(0, 200)}`));
    await page.goto(pages.preview.url);
    await page.waitForFunction(() => 'historyBench' in globalThis);
    await pageCall(page, 'init');
    const DB = 'opalite-bench-history';
    const chain = await pageCall(page, 'build', DB, BROWSER_PLAN);

    // H1: the same variants as on Node, through the handler in the page.
    const token = await pageCall(page, 'get', DB, `/tokens?collectionId=${chain.collectionId}&tokenId=${chain.tokenId}`);
    const then = await pageCall(page, 'get', DB, `/balance?address=${chain.busy}&at=${chain.snapshot.hash}`);
    if (token.status !== 200 || JSON.parse(then.text).freeBalance?.raw !== chain.busyBalanceThen) failures.push(`browser: the balance at the snapshot's block is ${then.text.slice(0, 120)}, expected raw ${chain.busyBalanceThen} (token ${token.status})`);
    const reads: ReadRow[] = [];
    for (const variants of readVariants(chain, { balanceThen: then.text, token: token.text })) {
      await pageCall(page, 'reads', DB, interleaved(variants, N_WARM / 2));
      const samples = await pageCall(page, 'reads', DB, interleaved(variants, N_READS / 2));
      reads.push(readRow('browser', variants[0].variant.split(' ')[0], samples));
    }

    const breakdown = await pageCall(page, 'breakdown', DB, chain.busy, chain.snapshot, 60);

    // H2: the raw baseline on a copy of the database (copied first, untimed), then the revert of
    // the database itself. One of each: each takes many seconds here, a second round's copy longer.
    await pageCall(page, 'copy', DB, `${DB}-raw`);
    const raw = await pageCall(page, 'raw', `${DB}-raw`, chain.snapshot.number);
    await pageCall(page, 'drop', `${DB}-raw`);
    const reverted = await pageCall(page, 'revert', DB, { number: chain.snapshot.number, hash: chain.snapshot.hash });
    if (reverted.head.number !== chain.snapshot.number || reverted.head.hash !== chain.snapshot.hash) failures.push(`browser: revert answered ${JSON.stringify(reverted.head)}`);
    const after = await pageCall(page, 'get', DB, `/balance?address=${chain.busy}`);
    if (JSON.parse(after.text).freeBalance?.raw !== chain.busyBalanceThen) failures.push(`browser: after the revert the balance is ${after.text.slice(0, 120)}`);
    await pageCall(page, 'drop', DB);
    return { chain, reads, breakdown, revertMs: reverted.ms, rawMs: raw.ms, counts: raw.counts, version: await page.evaluate(() => navigator.userAgent.match(/Chrom(e|ium)\/[\d.]+/)?.[0] ?? 'Chromium'), failures };
  } finally {
    await context.close();
    await pages.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  }
}

// ---- the bench -------------------------------------------------------------------------------

export async function runHistoryBench(): Promise<string[]> {
  const started = now();
  const load0 = loadavg()[0];
  await cryptoWaitReady();
  buildHostOnce();
  const dir = mkdtempSync(join(tmpdir(), 'opalite-bench-history-'));
  const lines: string[] = [];
  const notes: string[] = [];
  const targets: string[] = [];
  const failures: string[] = [];
  const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');
  try {
    // ---- build (untimed) ----
    const mainPath = join(dir, 'history.sqlite');
    const chain = await buildSqliteChain(mainPath, NODE_PLAN);
    const nonePath = join(dir, 'no-history.sqlite');
    const none = await buildSqliteChain(nonePath, NODE_PLAN, 0);
    notes.push(
      `Node chain: ${chain.head.number} blocks, ${chain.transfers} transfers (${NODE_PLAN.singleBlocks} single-transfer instant blocks, then ${NODE_PLAN.batchBlocks} manual blocks of ${NODE_PLAN.perBlock}), ` +
        `built in-process through Ledger.signAndSubmit in ${(chain.ms / 1000).toFixed(1)} s (history kept) and ${(none.ms / 1000).toFixed(1)} s (--history 0)` +
        (chain.synced ? '; the building connection could not skip the disk sync' : '; the building connection skipped the disk sync')
    );

    // ---- H3: size ----
    const withHistory = sizeOf(mainPath);
    const without = sizeOf(nonePath);
    const sizeRatio = withHistory.inUse / without.inUse;

    // ---- H1: reads on the Node host ----
    const readRows: ReadRow[] = [];
    const host = await startChildHost({ data: mainPath });
    try {
      const balanceHead = await send(`${host.url}/balance?address=${chain.busy}`);
      const token = await send(`${host.url}/tokens?collectionId=${chain.collectionId}&tokenId=${chain.tokenId}`);
      if (balanceHead.status !== 200 || token.status !== 200) throw new Error(`reads on the Node host: ${balanceHead.status} ${token.status}`);
      const then = await send(`${host.url}/balance?address=${chain.busy}&at=${chain.snapshot.hash}`);
      if (JSON.parse(then.text).freeBalance?.raw !== chain.busyBalanceThen) failures.push(`Node: the balance at the snapshot's block is ${then.text.slice(0, 120)}, expected raw ${chain.busyBalanceThen}`);
      for (const variants of readVariants(chain, { balanceThen: then.text, token: token.text })) {
        await readsOverHttp(host, interleaved(variants, N_WARM));
        const samples = await readsOverHttp(host, interleaved(variants, N_READS));
        readRows.push(readRow('Node', variants[0].variant.split(' ')[0], samples));
      }
    } finally {
      await host.stop();
    }

    // ---- H2: revert on the Node host, in-process, and the raw baseline, rounds on fresh copies ----
    const samples: RevertSample[] = [];
    for (let r = 0; r < REVERT_ROUNDS; r++) {
      const sample: Partial<RevertSample> = {};
      const steps: (() => Promise<void>)[] = [
        async () => {
          const copy = join(dir, `revert-http-${r}.sqlite`);
          copyFileSync(mainPath, copy);
          const h = await startChildHost({ data: copy });
          try {
            for (let i = 0; i < N_WARM; i++) await send(`${h.url}/balance?address=${chain.busy}`);
            const t0 = now();
            const res = await send(`${h.url}/dev/revert`, 'POST', { snapshotId: chain.snapshot.snapshotId });
            sample.http = now() - t0;
            const body = JSON.parse(res.text);
            if (res.status !== 200 || body.blockNumber !== chain.snapshot.number || body.blockHash !== chain.snapshot.hash) failures.push(`Node: POST /dev/revert → ${res.status} ${res.text.slice(0, 200)}`);
            const after = await send(`${h.url}/balance?address=${chain.busy}`);
            if (JSON.parse(after.text).freeBalance?.raw !== chain.busyBalanceThen) failures.push(`Node: after the revert the balance is ${after.text.slice(0, 120)}`);
          } finally {
            await h.stop();
            rmSync(copy, { force: true });
            rmSync(`${copy}.lock`, { force: true });
          }
        },
        async () => {
          const copy = join(dir, `revert-inproc-${r}.sqlite`);
          copyFileSync(mainPath, copy);
          const store = await openSqliteStore({ path: copy });
          const h = await LedgerHost.open({ kind: 'node', store });
          try {
            await h.ledger.read((tx) => tx.get('accounts', chain.busy));
            const t0 = now();
            const head = await h.revert({ snapshotId: chain.snapshot.snapshotId });
            sample.inProcess = now() - t0;
            if (head.number !== chain.snapshot.number) failures.push(`in-process revert answered ${JSON.stringify(head)}`);
          } finally {
            h.close();
            store.close();
            rmSync(copy, { force: true });
          }
        },
        async () => {
          const copy = join(dir, `revert-raw-${r}.sqlite`);
          copyFileSync(mainPath, copy);
          try {
            const raw = rawRevertSqlite(copy, chain.snapshot.number);
            sample.raw = raw.ms;
            sample.counts = raw.counts;
          } finally {
            rmSync(copy, { force: true });
          }
        }
      ];
      for (let k = 0; k < steps.length; k++) await steps[(r + k) % steps.length]();
      samples.push(sample as RevertSample);
    }
    const httpMs = median(samples.map((s) => s.http));
    const inProcessMs = median(samples.map((s) => s.inProcess));
    const rawMs = median(samples.map((s) => s.raw));
    const counts = samples[0].counts;

    // ---- browser ----
    let browser: BrowserResult | null = null;
    if (process.env.BENCH_BROWSER !== '0') {
      browser = await browserPart();
      failures.push(...browser.failures);
    }

    // ---- report ----
    lines.push('', '---- issue 17: history (reads at a block, revert, size) ----');
    const head = ['H1 read at a block (sequential)', 'head p50 / p90 ms', '1,000 back p50 / p90 ms', 'back/head p50 (p90)', 'ref at=head hash p50 ms', 'n', 'bad'];
    const rows = [...readRows, ...(browser?.reads ?? [])].map((r) => [
      `${r.platform}: ${r.row === 'balance' ? "//Bob's balance (changed 10× per block since)" : 'a token (unchanged since)'}`,
      `${f(median(r.head))} / ${f(pct(r.head, 90))}`,
      `${f(median(r.back))} / ${f(pct(r.back, 90))}`,
      `${f(median(r.back) / median(r.head))}× (${f(pct(r.back, 90) / pct(r.head, 90))}×)`,
      f(median(r.atHead)),
      String(r.head.length),
      String(r.failures)
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ');
    lines.push(line(head), widths.map((w) => '-'.repeat(w)).join('-+-'), ...rows.map(line));
    lines.push(
      `  · Node: GET over HTTP from the host child process on the ${chain.head.number}-block chain, read at block ${chain.snapshot.number} (head ${chain.head.number}); GET /tokens at the head is memoised by the host until the next block (no block comes during the reads), a read at a block never is`
    );
    if (browser) {
      lines.push(`  · browser: the REST handler in the page on IndexedDB, ${browser.chain.head.number}-block chain, read at block ${browser.chain.snapshot.number}; the page's ledger shares no memo (not the sole writer)`);
      lines.push(`  · browser, where a balance read goes (median µs, pieces timed alone in the page):`);
      for (const [label, us] of browser.breakdown) lines.push(`      ${label.padEnd(92)} ${us.toFixed(0).padStart(6)} µs`);
    }
    for (const r of [...readRows, ...(browser?.reads ?? [])]) {
      const ratio = median(r.back) / median(r.head);
      targets.push(`TARGET H1 ${verdict(ratio <= 2 && r.failures === 0)}: ${r.platform} ${r.row} read 1,000 blocks back ${f(median(r.back))} ms = ${f(ratio)}× the head read's ${f(median(r.head))} ms (median; p90 ${f(pct(r.back, 90) / pct(r.head, 90))}×) (target ≤ 2×)`);
    }

    lines.push('');
    const countsText = (c: RawCounts) => `${c.blocks} blocks, ${c.extrinsics} extrinsics, ${c.stateRows} state rows, ${c.changeRows} change rows`;
    lines.push(`H2 revert of ${counts.blocks} blocks (${counts.extrinsics} transfers): ${countsText(counts)}`);
    lines.push(`  Node POST /dev/revert (child host)   median ${f(httpMs, 0)} ms of ${samples.map((s) => f(s.http, 0)).join(', ')} = ${f(httpMs / rawMs)}× the raw baseline`);
    lines.push(`  Node Ledger revert in this process   median ${f(inProcessMs, 0)} ms of ${samples.map((s) => f(s.inProcess, 0)).join(', ')} = ${f(inProcessMs / rawMs)}× the raw baseline`);
    lines.push(`  raw better-sqlite3 transaction       median ${f(rawMs, 0)} ms of ${samples.map((s) => f(s.raw, 0)).join(', ')} (same process as the in-process revert)`);
    targets.push(`TARGET H2 ${verdict(httpMs < 1000)}: Node revert of ${counts.blocks} blocks / ${counts.extrinsics} transfers ${f(httpMs, 0)} ms (target < 1 s; ${f(httpMs / rawMs)}× a raw transaction doing its storage work, ${f(rawMs, 0)} ms)`);
    if (browser) {
      const { revertMs: revertB, rawMs: rawB, counts: c } = browser;
      lines.push(`  browser Ledger.revert (IndexedDB)    ${f(revertB, 0)} ms = ${f(revertB / rawB)}× the raw baseline (${countsText(c)})`);
      lines.push(`  raw IndexedDB transaction            ${f(rawB, 0)} ms (same page, on a copy of the database, just before the revert; one sample each)`);
      targets.push(`TARGET H2 ${verdict(revertB < 3000)}: browser revert of ${c.blocks} blocks / ${c.extrinsics} transfers ${f(revertB, 0)} ms (target < 3 s; ${f(revertB / rawB)}× a raw IndexedDB transaction doing its storage work, ${f(rawB, 0)} ms)`);
    }

    lines.push('');
    lines.push(`H3 database size (SQLite, bytes in use after a checkpoint), ${chain.transfers} transfers in ${chain.head.number} blocks`);
    lines.push(`  every block's history  ${mib(withHistory.inUse)} (file ${mib(withHistory.fileBytes)}, ${withHistory.freePages} free pages)`);
    lines.push(`  --history 0            ${mib(without.inUse)} (file ${mib(without.fileBytes)}, ${without.freePages} free pages)`);
    const objectLine = (s: SizeReport) => s.objects.slice(0, 8).map(([n, b]) => `${n} ${mib(b)}`).join(', ');
    lines.push(`  pages by table/index, with history: ${objectLine(withHistory)}`);
    lines.push(`  pages by table/index, --history 0:  ${objectLine(without)}`);
    const changeRows = withHistory.changes.reduce((a, c) => a + c.rows, 0);
    lines.push(
      `  change rows: ${changeRows} (${f(changeRows / chain.transfers)} per transfer): ` +
        withHistory.changes.map((c) => `${c.tbl} ${c.rows} rows, mean key ${f(c.keyBytes / c.rows, 0)} B, before ${f(c.beforeBytes / c.rows, 0)} B, after ${f(c.afterBytes / c.rows, 0)} B`).join('; ')
    );
    lines.push(`  IndexedDB: not measured (see the top of bench/history.ts)`);
    targets.push(`TARGET H3 ${verdict(sizeRatio <= 2)}: the ledger with every block's history uses ${mib(withHistory.inUse)} = ${f(sizeRatio)}× the ${mib(without.inUse)} of the same transfers with --history 0 (target ≤ 2×)`);

    if (browser) notes.push(`browser: ${browser.version} (persistent profile, IndexedDB on disk); chain of ${browser.chain.transfers} transfers built in the page in ${(browser.chain.ms / 1000).toFixed(1)} s`);
    if (failures.length) notes.push(`FAILURES ${failures.length}: ${failures.slice(0, 3).join(' | ')}`);
    lines.push('', ...notes.map((n) => `  · ${n}`), '', ...targets);
    lines.push(`  · ${((now() - started) / 1000).toFixed(1)} s on ${availableParallelism()} cores; load average ${load0.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end`);
    return lines;
  } finally {
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

// `npx tsx bench/history.ts`: this part alone.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const l of await runHistoryBench()) console.log(l);
}
