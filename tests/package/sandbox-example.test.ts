// examples/vite-dapp as another project would use it: the packed `opalite` installed into a copy
// of the example, `opalite init public/` copying the sandbox worker, a production Vite build,
// served by a plain static server (no ledger) and driven in Chromium. The app's own origin answers
// the REST API through @unique-nft/sdk, on line and off, and every other request of the app still
// reaches the server untouched.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Sr25519Account } from '@unique-nft/sdk/sr25519';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../e2e/paths';
import { ALICE, PNG_1X1_BASE64, call, launchBrowser, stopServiceWorkers, tempDir, uploadFile } from '../e2e/support';
import { runOpalite } from './cli';
import { serveStatic, type StaticSite } from './static-site';
import { installPacked } from './tarball';

const run = promisify(execFile);
const EXAMPLE = join(PROJECT_ROOT, 'examples', 'vite-dapp');
const WORKER_PATH = '/opalite-sandbox-worker.js';

/**
 * Files may be cached for an hour (so the browser's HTTP cache can open the app off line, as it
 * would for any app without a service worker of its own); the worker script never is, as static
 * hosts are told to.
 */
const serveApp = (root: string) => serveStatic(root, { cacheControl: (path) => (path === WORKER_PATH ? 'no-cache' : 'max-age=3600') });

let dir: string;
let packageDir: string;
let site: StaticSite;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  dir = tempDir('opalite-vite-dapp-');
  cpSync(EXAMPLE, dir, { recursive: true, filter: (source) => !/[\\/](node_modules|dist)$/.test(source) && !source.endsWith('opalite-sandbox-worker.js') });
  await installPacked(dir);
  packageDir = join(dir, 'node_modules', 'opalite');
  const init = await runOpalite(dir, ['init', 'public/']);
  if (init.code !== 0) throw new Error(`opalite init public/ failed (${init.code}): ${init.stderr}`);
  // vitest sets NODE_ENV=test, which would make this a development build.
  await run(process.execPath, [join(dir, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'production' }
  });
  [site, browser] = await Promise.all([serveApp(join(dir, 'dist')), launchBrowser()]);
  context = await browser.newContext();
  page = await context.newPage();
  page.on('pageerror', (error) => console.error('[vite-dapp]', error));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Wait for the example's status line to say `state` (and contain `text`); fails with what it says instead. */
async function statusOf(target: Page, state: 'ready' | 'error', text = ''): Promise<string> {
  const status = target.locator('#status');
  try {
    await target.locator(`#status[data-state="${state}"]`, { hasText: text }).waitFor({ timeout: 180_000 });
  } catch (error) {
    throw new Error(`the page's status is "${await status.textContent()}", not ${state} ${text}`, { cause: error });
  }
  return (await status.textContent()) ?? '';
}

const texts = (target: Page, testId: string) => target.locator(`[data-testid="${testId}"]`).allTextContents();

/** Requests that reached the static server on a ledger path (the worker should have taken every one). */
const ledgerRequestsServed = () => site.served.filter((line) => /^\w+ \/(sandbox|ipfs)(\/|$)/.test(line));

describe('the installed package', () => {
  it('`opalite init public/` copies the sandbox worker the package ships', () => {
    const copied = readFileSync(join(dir, 'public', 'opalite-sandbox-worker.js'));
    expect(copied.equals(readFileSync(join(packageDir, 'dist', 'pkg', 'sandbox-worker.js')))).toBe(true);
    // Vite copies public/ into the build as it is.
    expect(existsSync(join(dir, 'dist', 'opalite-sandbox-worker.js'))).toBe(true);
  });
});

describe('the example in Chromium', { timeout: 360_000 }, () => {
  it('starts the sandbox on its own origin and the SDK creates a collection and mints a token', async () => {
    await page.goto(site.url);
    await statusOf(page, 'ready', 'ready');
    expect(await page.textContent('#base-url')).toBe(`${site.url}sandbox/v1`);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${site.url}${WORKER_PATH.slice(1)}`);
    expect(await texts(page, 'token')).toEqual([]);

    await page.click('#mint');
    expect(await statusOf(page, 'ready', 'minted')).toBe('minted token 1 in collection 1');
    expect(await texts(page, 'collection')).toEqual(['1: Vite dapp']);
    expect(await texts(page, 'token')).toEqual(['collection 1 token 1: First token']);
    expect(ledgerRequestsServed()).toEqual([]);
  });

  it('keeps the ledger across a reload, and the page itself still comes from the server', async () => {
    await page.reload();
    // The page came from the server again: a worker answering navigations (a precached shell) would have kept it.
    expect(site.served.filter((line) => line === 'GET / 200').length).toBe(2);
    await statusOf(page, 'ready', 'ready');
    expect(await texts(page, 'token')).toEqual(['collection 1 token 1: First token']);
  });

  it('serves an uploaded file at <origin>/ipfs/<cid>', async () => {
    const upload = await uploadFile(page, PNG_1X1_BASE64, 'dot.png', 'image/png');
    expect(upload.status).toBe(201);
    expect(upload.json.fileUrl).toBe(`${site.url}ipfs/${upload.json.cid}`);
    const file = await page.evaluate(async (url) => {
      const response = await fetch(url);
      return { status: response.status, type: response.headers.get('content-type'), size: (await response.arrayBuffer()).byteLength };
    }, upload.json.fileUrl);
    expect(file).toEqual({ status: 200, type: 'image/png', size: atob(PNG_1X1_BASE64).length });
    expect(ledgerRequestsServed()).toEqual([]);
  });

  it('checks signatures without wasm: a signature by another key is refused, the signer\'s accepted', async () => {
    // The worker is built with polkadot's no-wasm init: sr25519 runs in @scure/sr25519.
    const built = await call(page, 'POST', '/sandbox/v1/collections/properties?use=Build', { address: ALICE, collectionId: 1, properties: [{ key: 'k', value: 'v' }] });
    expect(built.status).toBe(201);
    const submit = async (uri: string) => {
      const { signature } = await Sr25519Account.fromUri(uri).signer.sign(built.json);
      return call(page, 'POST', '/sandbox/v1/extrinsic/submit', { signerPayloadJSON: built.json.signerPayloadJSON, signature });
    };
    const byBob = await submit('//Bob');
    expect(byBob.status).toBe(400);
    expect(byBob.json.error.name).toBe('BadSignatureError');
    const byAlice = await submit('//Alice');
    expect(byAlice.status).toBe(201);
    expect(byAlice.host).toBe('service-worker');
  });

  it("leaves the app's other requests to the server and caches nothing", async () => {
    const answers = await page.evaluate(async () => {
      const statusOf = async (path: string) => (await fetch(path)).status;
      return { file: await statusOf('/hello.json'), missing: await statusOf('/missing.json'), nearby: await statusOf('/sandboxes/v1') };
    });
    expect(answers).toEqual({ file: 200, missing: 404, nearby: 404 });
    expect(site.served).toEqual(expect.arrayContaining(['GET /hello.json 200', 'GET /missing.json 404', 'GET /sandboxes/v1 404']));
    expect(await page.evaluate(() => caches.keys())).toEqual([]);
  });

  it('off line, the app opened again (worker stopped meanwhile) still shows the ledger and the SDK still mints', async () => {
    await context.setOffline(true);
    // The worker's memory is gone: what the page shows comes from IndexedDB. (Stopped after going
    // off line: Playwright hangs on the next navigation when its offline emulation comes second.)
    await stopServiceWorkers(page);
    const served = site.served.length;
    // A new tab, not a reload: a reload revalidates the page with the server, which only the
    // app's own offline support could answer; a navigation takes it from the HTTP cache.
    const again = await context.newPage();
    try {
      await again.goto(site.url);
      await statusOf(again, 'ready', 'ready');
      expect(await texts(again, 'token')).toEqual(['collection 1 token 1: First token']);
      await again.click('#mint');
      expect(await statusOf(again, 'ready', 'minted')).toBe('minted token 1 in collection 2');
      expect(await texts(again, 'token')).toEqual(['collection 2 token 1: First token', 'collection 1 token 1: First token']);
      // Off line indeed: a request of the app past the HTTP cache fails, and nothing of the app
      // reached the server. (The browser's own update check of the worker script is not taken off
      // line by Playwright's emulation, and may come at any time.)
      expect(await again.evaluate(() => fetch('/hello.json', { cache: 'no-store' }).then(() => 'answered', () => 'failed'))).toBe('failed');
      expect(site.served.slice(served).filter((line) => !line.startsWith(`GET ${WORKER_PATH} `))).toEqual([]);
    } finally {
      await again.close();
      await context.setOffline(false);
    }
  });
});
