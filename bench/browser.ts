// Opalite in the browser: headless Chromium against the built app, the REST API answered by the
// service worker from IndexedDB, each number beside a baseline measured in the same run.
//
//   B1  sequential GET token round trips through Opalite's worker, beside a baseline worker
//       (bench/browser-sw.ts, scope /bench/) answering one Dexie `tokens.get` per request with
//       no REST stack.                                            target ≥ 90% of its rate
//   B2  signed balance transfers through the worker (build → sign in the page → submit, which
//       waits for the block → status), 16 in flight (16 funded accounts, each sequential),
//       beside the baseline worker making the same three round trips, signed the same way in
//       the page, with one raw rw transaction (4 object stores, the ledger's durability) for
//       the submit.                                               target ≥ 80% of its rate
//       Sequential, and raw transactions in the page without a worker, are printed beside it.
//
//   npx tsx bench/browser.ts        (or import { runBrowserBench } and print its lines)
//   BENCH_BROWSER_PROFILE=1         also CPU-profile Opalite's worker per phase (unminified
//                                   esbuild bundle of it; BENCH_BROWSER_PROFILE_DIR=dir keeps
//                                   the .cpuprofile files for DevTools)
//   BENCH_BROWSER_WORKER=esbuild    Opalite's worker bundled by esbuild (as the two above do),
//                                   to compare with the vite build's
//
// Besides the targets it prints references that say where the time goes: a worker answering a
// fixed JSON (the floor of any worker round trip), the ledger driven in the page without worker
// or HTTP, Chromium's CPU per operation by process and thread, and a breakdown of one request's
// pieces timed in the page.
//
// The app is built as the e2e tests build it (tests/e2e/global-setup.ts: reused when newer than
// every source). Nothing outside 127.0.0.1 is contacted.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Frame, Page } from 'playwright-core';
import buildAppIfStale from '../tests/e2e/global-setup';
import { PROJECT_ROOT } from '../tests/e2e/paths';
import { launchBrowser } from '../tests/e2e/support';
import { installedChromium } from '../tests/support/chromium';
import { bundleBrowserEntry, controlByAppWorker, servePages, testPageHtml } from '../tests/e2e/test-pages';
import type { PageBench, Timed, XtTimed } from './browser-page';
import { attachWorkerProfiler, chromiumCpu, cpuPer, profileLines, type WorkerProfile, type WorkerProfiler } from './browser-profile';

/** CPU-profile Opalite's worker per phase (serves the unminified esbuild worker; slower). */
const PROFILE = process.env.BENCH_BROWSER_PROFILE === '1';
// BENCH_BROWSER_PROFILE_DIR=/some/dir also writes each phase's raw .cpuprofile there.
/** `esbuild`: serve Opalite's worker bundled by esbuild, unminified, instead of the vite build's. */
const WORKER = PROFILE || process.env.BENCH_BROWSER_WORKER === 'esbuild' ? 'esbuild' : 'vite';

const N_READS = 500; // B1, per side
const N_SEQ = 120; // B2 sequential signed extrinsics
const PAR = 16; // B2 lanes in flight
const N_PAR_EACH = 16; // B2: 16 × 16 = 256
const ROUNDS = 4; // B2: every measurement interleaved with its baseline, in rounds
const READ_ROUNDS = 10; // B1: finer interleaving, reads are short and background load drifts
const N_TOKENS = 200;

const now = () => performance.now();

function pct(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

const fmt = (x: number | undefined, d = 0) => (x === undefined || Number.isNaN(x) ? '-' : x.toFixed(d));

/** Sum of timed runs (rounds) of one side. */
function merge<T extends Timed>(into: T | null, next: T): T {
  if (!into) return next;
  const out = { ...into, ms: into.ms + next.ms, lat: [...into.lat, ...next.lat], failures: [...into.failures, ...next.failures] } as T;
  for (const key of ['build', 'sign', 'submit', 'status'] as const) {
    if (key in into) (out as unknown as XtTimed)[key] = [...(into as unknown as XtTimed)[key], ...(next as unknown as XtTimed)[key]];
  }
  return out;
}

const rateOf = (t: Timed) => t.lat.length / (t.ms / 1000);

/** Call a method of the page-side bench (bench/browser-page.ts) in a page or frame. */
function call<M extends keyof PageBench>(target: Page | Frame, method: M, ...args: Parameters<PageBench[M]>): Promise<Awaited<ReturnType<PageBench[M]>>> {
  return target.evaluate(
    ([m, a]) => {
      const bench = (globalThis as unknown as { opaliteBench: Record<string, (...x: unknown[]) => unknown> }).opaliteBench;
      return bench[m](...a);
    },
    [method, args] as [string, unknown[]]
  ) as Promise<Awaited<ReturnType<PageBench[M]>>>;
}

function mergeProfiles(list: WorkerProfile[]): WorkerProfile {
  const add = (key: 'categories' | 'inclusive' | 'top') => {
    const m = new Map<string, number>();
    for (const p of list) for (const [k, v] of p[key]) m.set(k, (m.get(k) ?? 0) + v);
    return [...m.entries()].sort((a, b) => b[1] - a[1]);
  };
  return { totalMs: list.reduce((a, p) => a + p.totalMs, 0), idleMs: list.reduce((a, p) => a + p.idleMs, 0), categories: add('categories'), inclusive: add('inclusive'), top: add('top') };
}

export async function runBrowserBench(): Promise<string[]> {
  const started = now();
  const lines: string[] = [];
  buildAppIfStale();
  const [pageJs, swJs, workerJs] = await Promise.all([
    bundleBrowserEntry(join(PROJECT_ROOT, 'bench/browser-page.ts'), 'bench/page.js', { sourcemap: false }),
    bundleBrowserEntry(join(PROJECT_ROOT, 'bench/browser-sw.ts'), 'bench/sw.js', { sourcemap: false }),
    WORKER === 'esbuild' ? bundleBrowserEntry(join(PROJECT_ROOT, 'bench/browser-worker.ts'), 'bench/service-worker.js', { sourcemap: false, alias: { $lib: join(PROJECT_ROOT, 'src/lib') } }) : null
  ]);
  const pages = await servePages({
    'opalite-bench/index.html': testPageHtml('Opalite browser bench', ['/opalite-bench/page.js']),
    'opalite-bench/page.js': { copyFrom: pageJs },
    'bench-sw.js': { copyFrom: swJs },
    'bench/index.html': testPageHtml('Opalite browser bench: baseline frame', ['/opalite-bench/page.js']),
    ...(workerJs ? { 'service-worker.js': { copyFrom: workerJs } } : {})
  });
  let profiler: WorkerProfiler | null = null;
  const profiles = new Map<string, WorkerProfile[]>();
  /** CPU seconds of Chromium's threads spent in each phase (summed over rounds). */
  const cpu = new Map<string, Map<string, number>>();
  /** Run `fn` as a measured phase: Chromium's CPU time, and a profile of Opalite's worker when profiling. */
  const phase = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
    const before = chromiumCpu();
    try {
      return await timedPhase(label, fn);
    } finally {
      const spent = cpuPer(before, chromiumCpu(), 1, 0);
      const into = cpu.get(label) ?? new Map<string, number>();
      for (const [k, ms] of spent) into.set(k, (into.get(k) ?? 0) + ms / 1000);
      cpu.set(label, into);
    }
  };
  const timedPhase = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
    if (!profiler) return fn();
    await profiler.start();
    try {
      return await fn();
    } finally {
      const dir = process.env.BENCH_BROWSER_PROFILE_DIR;
      const p = await profiler.stop(dir ? join(dir, `${label.replace(/[^a-z0-9]+/gi, '-')}-${(profiles.get(label)?.length ?? 0) + 1}.cpuprofile`) : undefined);
      profiles.set(label, [...(profiles.get(label) ?? []), p]);
    }
  };
  const browser = await launchBrowser([], installedChromium()).catch(async (e) => {
    await pages.close();
    throw e;
  });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('[bench page]', e));
    // First navigation of a fresh profile: the preview serves the bench page; then the page
    // registers Opalite's worker, which claims it.
    await page.goto(`${pages.preview.url}opalite-bench/`);
    const controller = await controlByAppWorker(page);
    if (!controller.endsWith('/service-worker.js')) throw new Error(`the bench page is controlled by ${controller}`);
    await call(page, 'init');
    lines.push(
      `Opalite browser bench — headless Chromium ${browser.version()} on ${cpus().length} CPUs; app at ${pages.preview.url}; Opalite's worker from the ${WORKER === 'vite' ? 'vite build' : 'esbuild bundle (unminified)'}${PROFILE ? '; PROFILING (numbers are slower)' : ''}`
    );
    if (PROFILE) profiler = await attachWorkerProfiler(browser, '/service-worker.js', readFileSync(workerJs!, 'utf8'));

    // ---- setup (untimed) ----
    const seqSeed = '//BenchSeq';
    const parSeeds = Array.from({ length: PAR }, (_, i) => `//BenchPar${i}`);
    const setupStarted = now();
    const { collectionId, tokenIds } = await call(page, 'setup', [seqSeed, ...parSeeds], N_TOKENS);
    const seeded = await call(page, 'seedBaseline', collectionId);
    const scope = await call(page, 'registerBaseline');
    await page.evaluate(async () => {
      const frame = document.createElement('iframe');
      frame.src = '/bench/index.html';
      const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
      document.body.append(frame);
      await loaded;
    });
    const frame = page.frames().find((f) => f.url().endsWith('/bench/index.html'));
    if (!frame) throw new Error('the baseline frame did not load');
    await frame.waitForFunction(() => 'opaliteBench' in globalThis);
    const frameController = await frame.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);
    if (!frameController?.endsWith('/bench-sw.js')) throw new Error(`the baseline frame is controlled by ${frameController}`);
    // Both sides answer, from a worker: Opalite's stamps x-opalite-host, the baseline x-bench-host.
    const probe = await page.evaluate(async (c) => {
      const a = await fetch(`/sandbox/v1/tokens?collectionId=${c}&tokenId=1`);
      return a.headers.get('x-opalite-host');
    }, collectionId);
    const probeBase = await frame.evaluate(async (c) => (await fetch(`/bench/token?collectionId=${c}&tokenId=1`)).headers.get('x-bench-host'), collectionId);
    if (probe !== 'service-worker' || probeBase !== 'baseline-sw') throw new Error(`unexpected answerers: ${probe} / ${probeBase}`);
    lines.push(`setup: ${PAR + 1} accounts funded, collection ${collectionId} with ${tokenIds.length} tokens (${seeded} copied to the baseline worker's database, scope ${scope.replace(pages.preview.url, '/')}) in ${((now() - setupStarted) / 1000).toFixed(1)} s`);

    // Warm-up (untimed): both workers opened their databases and ran their code a few times.
    await call(page, 'reads', 'worker', collectionId, tokenIds.slice(0, 50));
    await call(frame, 'reads', 'baseline', collectionId, tokenIds.slice(0, 50));
    await call(page, 'extrinsics', [seqSeed, ...parSeeds], 1);
    await call(page, 'raw', 16, 2);
    await call(frame, 'extrinsics', [seqSeed, ...parSeeds], 1, 'baseline');

    // ---- B1: reads, interleaved rounds ----
    const picks = Array.from({ length: N_READS }, (_, i) => tokenIds[(i * 37) % tokenIds.length]);
    let readWorker: Timed | null = null;
    let readBase: Timed | null = null;
    let readFloor: Timed | null = null;
    for (let r = 0; r < READ_ROUNDS; r++) {
      const ids = picks.slice((r * N_READS) / READ_ROUNDS, ((r + 1) * N_READS) / READ_ROUNDS);
      readWorker = merge(readWorker, await phase('B1 GET token, sequential', () => call(page, 'reads', 'worker', collectionId, ids)));
      readBase = merge(readBase, await phase('B1 baseline worker', () => call(frame, 'reads', 'baseline', collectionId, ids)));
      readFloor = merge(readFloor, await call(frame, 'reads', 'floor', collectionId, ids));
    }

    // ---- B2: signed extrinsics and raw transactions, interleaved rounds ----
    let xtSeq: XtTimed | null = null;
    let xtPar: XtTimed | null = null;
    let rawSeq: Timed | null = null;
    let rawPar: Timed | null = null;
    let rawParRelaxed: Timed | null = null;
    let baseXtSeq: XtTimed | null = null;
    let baseXtPar: XtTimed | null = null;
    const blocks = { seq: 0, par: 0 };
    for (let r = 0; r < ROUNDS; r++) {
      let h0 = await call(page, 'head');
      xtSeq = merge(xtSeq, await phase('B2 signed transfers, sequential', () => call(page, 'extrinsics', [seqSeed], N_SEQ / ROUNDS)));
      let h1 = await call(page, 'head');
      blocks.seq += h1 - h0;
      h0 = h1;
      xtPar = merge(xtPar, await phase('B2 signed transfers, 16 in flight', () => call(page, 'extrinsics', parSeeds, N_PAR_EACH / ROUNDS)));
      h1 = await call(page, 'head');
      blocks.par += h1 - h0;
      rawSeq = merge(rawSeq, await call(page, 'raw', 1, N_SEQ / ROUNDS));
      rawPar = merge(rawPar, await phase('B2 raw tx, 16 in flight', () => call(page, 'raw', PAR, N_PAR_EACH / ROUNDS)));
      rawParRelaxed = merge(rawParRelaxed, await call(page, 'raw', PAR, N_PAR_EACH / ROUNDS, 'relaxed'));
      baseXtSeq = merge(baseXtSeq, await call(frame, 'extrinsics', [seqSeed], N_SEQ / ROUNDS, 'baseline'));
      baseXtPar = merge(baseXtPar, await phase('B2 baseline worker flow, 16 in flight', () => call(frame, 'extrinsics', parSeeds, N_PAR_EACH / ROUNDS, 'baseline')));
    }
    // ---- references: the pieces of a request timed in the page, and the ledger without the worker ----
    const breakdown = await call(page, 'breakdown', collectionId, tokenIds);
    const lo = await call(page, 'ledgerOnly', 60, PAR, 8);

    // ---- who answered: nothing of the ledger or the baseline reached the static server ----
    const leaked = pages.served.filter((l) => /^\w+ \/(sandbox|ipfs|bench\/(token|fixed|build|submit|status))(\/|\?|$| )/.test(l));
    if (leaked.length) throw new Error(`requests reached the preview server instead of a worker: ${leaked.slice(0, 3).join('; ')}`);

    // ---- report ----
    const rw = readWorker!;
    const rb = readBase!;
    const xs = xtSeq!;
    const xp = xtPar!;
    const head = ['benchmark (headless Chromium)', 'N', 'rate', 'p50 ms', 'p99 ms'];
    const rows: string[][] = [
      ['B1 GET /sandbox/v1/tokens via Opalite worker, seq', String(rw.lat.length), `${fmt(rateOf(rw))} req/s`, fmt(pct(rw.lat, 50), 2), fmt(pct(rw.lat, 99), 2)],
      ['B1 baseline worker: 1 db.tokens.get, seq', String(rb.lat.length), `${fmt(rateOf(rb))} req/s`, fmt(pct(rb.lat, 50), 2), fmt(pct(rb.lat, 99), 2)],
      ['ref baseline worker: fixed JSON, no IndexedDB', String(readFloor!.lat.length), `${fmt(rateOf(readFloor!))} req/s`, fmt(pct(readFloor!.lat, 50), 2), fmt(pct(readFloor!.lat, 99), 2)],
      ['B2 signed transfer via worker, sequential', String(xs.lat.length), `${fmt(rateOf(xs))} xt/s`, fmt(pct(xs.lat, 50), 2), fmt(pct(xs.lat, 99), 2)],
      ['B2 signed transfer via worker, 16 in flight', String(xp.lat.length), `${fmt(rateOf(xp))} xt/s`, fmt(pct(xp.lat, 50), 2), fmt(pct(xp.lat, 99), 2)],
      ['B2 raw 4-store rw tx (strict), sequential', String(rawSeq!.lat.length), `${fmt(rateOf(rawSeq!))} tx/s`, fmt(pct(rawSeq!.lat, 50), 2), fmt(pct(rawSeq!.lat, 99), 2)],
      ['B2 raw 4-store rw tx (strict), 16 in flight', String(rawPar!.lat.length), `${fmt(rateOf(rawPar!))} tx/s`, fmt(pct(rawPar!.lat, 50), 2), fmt(pct(rawPar!.lat, 99), 2)],
      ['ref raw 4-store rw tx (relaxed), 16 in flight', String(rawParRelaxed!.lat.length), `${fmt(rateOf(rawParRelaxed!))} tx/s`, fmt(pct(rawParRelaxed!.lat, 50), 2), fmt(pct(rawParRelaxed!.lat, 99), 2)],
      ['ref baseline worker, same 3 round trips, seq', String(baseXtSeq!.lat.length), `${fmt(rateOf(baseXtSeq!))} xt/s`, fmt(pct(baseXtSeq!.lat, 50), 2), fmt(pct(baseXtSeq!.lat, 99), 2)],
      ['ref baseline worker, same 3 round trips, 16 in flight', String(baseXtPar!.lat.length), `${fmt(rateOf(baseXtPar!))} xt/s`, fmt(pct(baseXtPar!.lat, 50), 2), fmt(pct(baseXtPar!.lat, 99), 2)],
      ['ref ledger in the page (no worker/HTTP), seq', String(lo.seq.lat.length), `${fmt(rateOf(lo.seq))} xt/s`, fmt(pct(lo.seq.lat, 50), 2), fmt(pct(lo.seq.lat, 99), 2)],
      ['ref ledger in the page (no worker/HTTP), 16 in flight', String(lo.par.lat.length), `${fmt(rateOf(lo.par))} xt/s`, fmt(pct(lo.par.lat, 50), 2), fmt(pct(lo.par.lat, 99), 2)]
    ];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ');
    lines.push('', line(head), widths.map((w) => '-'.repeat(w)).join('-+-'), ...rows.map(line));
    const steps = (x: XtTimed) => `build ${fmt(pct(x.build, 50), 2)}, sign ${fmt(pct(x.sign, 50), 2)}, submit ${fmt(pct(x.submit, 50), 2)}, status ${fmt(pct(x.status, 50), 2)} ms`;
    lines.push(`  · sequential: ${blocks.seq} blocks (${(xs.lat.length / Math.max(1, blocks.seq)).toFixed(2)} xt/block); per step p50: ${steps(xs)}`);
    lines.push(`  · 16 in flight: ${blocks.par} blocks (${(xp.lat.length / Math.max(1, blocks.par)).toFixed(2)} xt/block); per step p50: ${steps(xp)}`);
    lines.push(`  · baseline worker flow: build = 1 account get, sign in the page as above, submit = 1 raw 4-store rw tx (strict), status = 1 get; per step p50 (16 in flight): ${steps(baseXtPar!)}`);
    lines.push(`  · ledger in the page: pre-built, pre-signed transfers, timed submit → included under a Web Lock; seq ${lo.seqBlocks} blocks, 16 in flight ${lo.parBlocks} blocks (${(lo.par.lat.length / Math.max(1, lo.parBlocks)).toFixed(2)} xt/block)`);
    const perOp: Record<string, number> = { 'B1 GET token, sequential': rw.lat.length, 'B1 baseline worker': rb.lat.length, 'B2 signed transfers, sequential': xs.lat.length, 'B2 signed transfers, 16 in flight': xp.lat.length, 'B2 raw tx, 16 in flight': rawPar!.lat.length, 'B2 baseline worker flow, 16 in flight': baseXtPar!.lat.length };
    const cpuLines: string[] = [];
    for (const [label, spent] of cpu) {
      const list = [...spent.entries()].map(([k, s]): [string, number] => [k, (s * 1000) / perOp[label]]).filter(([, ms]) => ms >= 0.05).sort((a, b) => b[1] - a[1]);
      const total = list.reduce((a, [, ms]) => a + ms, 0);
      if (list.length) cpuLines.push(`  ${label}: ${total.toFixed(2)} ms per op — ${list.slice(0, 6).map(([k, ms]) => `${k} ${ms.toFixed(2)}`).join(', ')}`);
    }
    if (cpuLines.length) lines.push('', "Chromium CPU per operation by process/thread (Linux /proc; 10 ms ticks, so small numbers are coarse):", ...cpuLines);
    lines.push('', `breakdown (timed in the page, sequential, interleaved; µs per call, mean of the fastest 90%):`);
    for (const [label, us] of breakdown) lines.push(`  ${label.padEnd(72)} ${us.toFixed(0).padStart(7)} µs`);
    const failures = [...rw.failures, ...rb.failures, ...xs.failures, ...xp.failures, ...baseXtSeq!.failures, ...baseXtPar!.failures, ...lo.seq.failures, ...lo.par.failures];
    if (failures.length) lines.push(`  · FAILURES ${failures.length}: ${failures[0]}`);

    const verdict = (pass: boolean) => (pass && failures.length === 0 ? 'PASS' : 'MISS');
    const readRatio = rateOf(rw) / rateOf(rb);
    const xtRatio = rateOf(xp) / rateOf(baseXtPar!);
    lines.push('');
    lines.push(`TARGET B1 ${verdict(readRatio >= 0.9)}: GET token through the worker ${fmt(rateOf(rw))}/s = ${(100 * readRatio).toFixed(1)}% of the baseline worker's ${fmt(rateOf(rb))}/s (one Dexie get per request, no REST stack) (target ≥ 90%)`);
    lines.push(
      `TARGET B2 ${verdict(xtRatio >= 0.8)}: signed extrinsics 16 in flight ${fmt(rateOf(xp))} xt/s = ${(100 * xtRatio).toFixed(1)}% of the baseline worker's ${fmt(rateOf(baseXtPar!))} xt/s (the same three round trips, one raw transaction for the submit) (target ≥ 80%)`
    );
    lines.push(
      `  (not targets: sequential ${fmt(rateOf(xs))} xt/s = ${((100 * rateOf(xs)) / rateOf(baseXtSeq!)).toFixed(1)}% of the baseline worker's ${fmt(rateOf(baseXtSeq!))} xt/s; 16 in flight = ${((100 * rateOf(xp)) / rateOf(rawPar!)).toFixed(1)}% of raw 4-store rw transactions in the page, ${fmt(rateOf(rawPar!))} tx/s)`
    );
    for (const [label, list] of profiles) lines.push('', ...profileLines(label, mergeProfiles(list)));
    lines.push(`total ${((now() - started) / 1000).toFixed(1)} s`);
    return lines;
  } finally {
    await profiler?.detach();
    await browser.close();
    await pages.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log((await runBrowserBench()).join('\n'));
}
