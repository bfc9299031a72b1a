// How fast `startSandbox()` gives another app's test suite a working sandbox in a fresh browser
// context (each context has its own service workers, IndexedDB and HTTP cache, as the contexts a
// test suite creates do): from the call to the first answered request (a GET balance, which
// opens the ledger), beside a bare service worker answering one fixed JSON, registered and asked
// the same way in a fresh context of the same browser. Samples of the two alternate.
//
//   S1  startSandbox() to the first answered request, median   target ≤ 3× the bare worker's
//
// Beside it, where the time goes: until startSandbox() resolves (download, parse and evaluation
// of the worker, install, activation, claim, the version question) and the first request (the
// ledger's first open in an empty IndexedDB, then the answer), and a second request.
// And the floor of any lazy start inside this bundle: the bare worker carrying the sandbox
// worker's bytes as a function it never calls, registered as a module as startSandbox() does
// (Chromium parses it and stores its compiled code before it installs; decision 0016).
//
//   npx tsx bench/sandbox-start.ts     (or import { runSandboxStartBench } and print its lines)
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildSandboxWorker, kib } from '../scripts/build-sandbox-worker.mjs';
import { launchBrowser, tempDir } from '../tests/e2e/support';
import { installedChromium } from '../tests/support/chromium';
import { serveStatic } from '../tests/package/static-site';

/** Fresh contexts per side. */
const SAMPLES = Number(process.env.BENCH_SANDBOX_START_SAMPLES ?? 12);
/** The target: the sandbox's first answer within this many times the bare worker's. */
const TARGET_RATIO = 3;
const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

/** The bare baseline: takes over at once and answers every /sandbox/ request with one fixed JSON. */
const BARE_WORKER = `self.addEventListener('install', (event) => event.waitUntil(self.skipWaiting()));
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  if (new URL(event.request.url).pathname.startsWith('/sandbox/')) event.respondWith(new Response('{"free":"0"}', { headers: { 'content-type': 'application/json' } }));
});`;

/** The page side: each function starts its worker, then times the first and a second request. */
const HARNESS = `import { startSandbox } from '${'/browser.js'}';
const first = async (base, t0, started) => {
  const path = base + '/balance?address=${ALICE}';
  const r1 = await fetch(path);
  const body = await r1.json();
  const answered = performance.now();
  const r2 = await fetch(path);
  await r2.json();
  return { started: started - t0, first: answered - started, total: answered - t0, second: performance.now() - answered, status: r1.status, body: JSON.stringify(body).slice(0, 200) };
};
window.measureSandbox = async () => {
  const t0 = performance.now();
  const base = await startSandbox();
  return first(base, t0, performance.now());
};
const measureFixed = async (url, type) => {
  const t0 = performance.now();
  const claimed = new Promise((done) => navigator.serviceWorker.addEventListener('controllerchange', done, { once: true }));
  await navigator.serviceWorker.register(url, { scope: '/', type, updateViaCache: 'none' });
  if (!navigator.serviceWorker.controller) await claimed;
  return first(location.origin + '/sandbox/v1', t0, performance.now());
};
window.measureBare = () => measureFixed('/bare-worker.js', 'classic');
window.measureCarry = () => measureFixed('/carry-worker.js', 'module');
`;

type Side = 'sandbox' | 'bare' | 'carry';
const MEASURE: Record<Side, string> = { sandbox: 'measureSandbox()', bare: 'measureBare()', carry: 'measureCarry()' };

interface Sample {
  started: number;
  first: number;
  total: number;
  second: number;
  status: number;
  body: string;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export async function runSandboxStartBench(): Promise<string[]> {
  const dir = tempDir('opalite-sandbox-start-');
  const root = join(dir, 'public');
  mkdirSync(root, { recursive: true });
  const built = await buildSandboxWorker({ outFile: join(root, 'opalite-sandbox-worker.js'), quiet: true });
  writeFileSync(join(root, 'harness.js'), HARNESS);
  writeFileSync(join(root, 'bare-worker.js'), BARE_WORKER);
  const sandboxBytes = readFileSync(join(root, 'opalite-sandbox-worker.js'), 'utf8');
  writeFileSync(join(root, 'carry-worker.js'), `${BARE_WORKER}\nfunction neverCalled() {\n${sandboxBytes}\n}\n`);
  writeFileSync(join(root, 'index.html'), '<!doctype html><meta charset="utf-8"><title>sandbox start</title><script type="module" src="/harness.js"></script>\n');
  await build({ entryPoints: ['src/pkg/browser.ts'], outfile: join(root, 'browser.js'), bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true, absWorkingDir: join(import.meta.dirname, '..'), logLevel: 'error' });
  // Served as an app's static host serves files: cacheable, so nothing but the contexts' own empty caches decides.
  const site = await serveStatic(root, { cacheControl: () => 'public, max-age=3600' });
  const browser = await launchBrowser([], installedChromium());
  const sides: Record<Side, Sample[]> = { sandbox: [], bare: [], carry: [] };
  try {
    const once = async (side: Side) => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(site.url);
        await page.waitForFunction(() => 'measureSandbox' in window);
        const sample = (await page.evaluate(MEASURE[side])) as Sample;
        if (sample.status !== 200) throw new Error(`${side}: the first request answered ${sample.status} ${sample.body}`);
        sides[side].push(sample);
      } finally {
        await context.close();
      }
    };
    // One of each unmeasured: the browser's own first-use costs fall on neither side.
    await once('bare');
    await once('sandbox');
    sides.bare.length = sides.sandbox.length = 0;
    for (let i = 0; i < SAMPLES; i++) {
      await once('sandbox');
      await once('bare');
      await once('carry');
    }
  } finally {
    await browser.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const m = (side: Sample[], key: keyof Omit<Sample, 'status' | 'body'>) => median(side.map((s) => s[key]));
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const sandbox = m(sides.sandbox, 'total');
  const bare = m(sides.bare, 'total');
  const ratio = sandbox / bare;
  return [
    '',
    `---- sandbox start in a fresh browser context (startSandbox(), ${SAMPLES} fresh contexts per side, medians) ----`,
    `sandbox worker ${kib(built.raw)} raw, ${kib(built.gzip)} gzipped`,
    `  · startSandbox() resolved after ${ms(m(sides.sandbox, 'started'))} (register, download, evaluation, install, activation, claim, version); bare worker controlled after ${ms(m(sides.bare, 'started'))}`,
    `  · first request (GET balance: the ledger's first open, then the answer) ${ms(m(sides.sandbox, 'first'))}; bare ${ms(m(sides.bare, 'first'))}`,
    `  · a second request ${m(sides.sandbox, 'second').toFixed(1)} ms; bare ${m(sides.bare, 'second').toFixed(1)} ms`,
    `  · the floor: the bare worker carrying the sandbox worker's bytes, never run, answers after ${ms(m(sides.carry, 'total'))} = ${(m(sides.carry, 'total') / bare).toFixed(2)}× the bare worker (decision 0016)`,
    `TARGET S1 ${ratio <= TARGET_RATIO ? 'PASS' : 'MISS'}: startSandbox() to the first answered request ${ms(sandbox)} = ${ratio.toFixed(2)}× a bare service worker answering fixed JSON, ${ms(bare)} (target ≤ ${TARGET_RATIO}×; fresh context each)`
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log((await runSandboxStartBench()).join('\n'));
}
