// The packed sandbox worker and `opalite/browser` in Chromium, in an app that may have a service
// worker of its own: startSandbox() never replaces the app's worker (scope-taken), runs beside it
// at a scope of its own or inside it (imported), refuses a worker of another version until
// `opalite init` is rerun, and the worker answers only the REST API's routes and GET /ipfs/<cid>:
// navigations and every other path reach the app's server. Each test has a browser context of
// its own (its own service workers); the site is a plain static server that records every request.
import { cpSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_MESSAGE_VERSION, SANDBOX_VERSION_MESSAGE } from '../../src/pkg/browser';
import { launchBrowser, tempDir } from '../e2e/support';
import { runOpalite } from './cli';
import { serveStatic, type StaticSite } from './static-site';
import { installPacked } from './tarball';

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const A_CID = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku';

/** The app's page: registers the app's own worker on load when asked to, and starts the sandbox on a click. */
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>An app</title>
<p id="app-worker">no app worker</p>
<button id="start">Start the sandbox</button>
<p id="status" data-state="idle">not started</p>
<script type="module" src="/harness.js"></script>
`;

const HARNESS = `import { startSandbox } from '/pkg/browser.js';
const params = new URLSearchParams(location.search);
const status = document.getElementById('status');
const show = (state, text) => { status.dataset.state = state; status.textContent = text; };
const appWorker = params.get('appWorker');
if (appWorker) {
  // The app's own service worker, registered on load as a PWA does.
  await navigator.serviceWorker.register(appWorker, { scope: '/' });
  if (!navigator.serviceWorker.controller) await new Promise((done) => navigator.serviceWorker.addEventListener('controllerchange', done, { once: true }));
  document.getElementById('app-worker').textContent = 'app worker ready';
}
document.getElementById('start').addEventListener('click', async () => {
  show('busy', 'starting');
  const options = {};
  if (params.get('script')) options.scriptUrl = params.get('script');
  if (params.get('scope')) options.scope = params.get('scope');
  try {
    show('ready', await startSandbox(options));
  } catch (error) {
    show('error', error.code + ': ' + error.message);
  }
});
`;

/** The app's own worker: it takes over at once and answers /app/ping; nothing else. */
const APP_FETCH = `self.addEventListener('fetch', (event) => {
  if (new URL(event.request.url).pathname === '/app/ping') event.respondWith(new Response('app worker', { headers: { 'content-type': 'text/plain' } }));
});`;
const APP_WORKER = `self.addEventListener('install', (event) => event.waitUntil(self.skipWaiting()));
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
${APP_FETCH}`;
/** The app's own worker with the sandbox imported first (the sandbox takes over at once itself). */
const APP_WORKER_WITH_SANDBOX = `importScripts('/opalite-sandbox-worker.js');
${APP_FETCH}`;

/** A sandbox worker copied by another opalite: it claims pages and tells version 0.0.1. */
const OTHER_VERSION_WORKER = `self.addEventListener('install', (event) => event.waitUntil(self.skipWaiting()));
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('message', (event) => {
  if (event.data?.type === ${JSON.stringify(SANDBOX_VERSION_MESSAGE)}) event.ports[0]?.postMessage({ type: ${JSON.stringify(SANDBOX_VERSION_MESSAGE)}, v: ${SANDBOX_MESSAGE_VERSION}, version: '0.0.1' });
});`;

let dir: string;
let site: StaticSite;
let browser: Browser;
let context: BrowserContext | undefined;

const publicDir = () => join(dir, 'public');

beforeAll(async () => {
  dir = tempDir('opalite-sandbox-worker-');
  await installPacked(dir);
  const init = await runOpalite(dir, ['init', 'public']);
  if (init.code !== 0) throw new Error(`opalite init public failed (${init.code}): ${init.stderr}`);
  // The package's browser entry as the app's bundler would include it (ES modules, served as they are).
  cpSync(join(dir, 'node_modules', 'opalite', 'dist', 'pkg'), join(publicDir(), 'pkg'), { recursive: true, filter: (source) => !/\.d\.ts$/.test(source) });
  const files: Record<string, string> = {
    'index.html': PAGE,
    'opalite/index.html': PAGE,
    'admin/index.html': PAGE,
    'old/index.html': PAGE,
    'harness.js': HARNESS,
    'app-sw.js': APP_WORKER,
    'admin/sw.js': APP_WORKER,
    'app-with-sandbox-sw.js': APP_WORKER_WITH_SANDBOX,
    'old/opalite-sandbox-worker.js': OTHER_VERSION_WORKER,
    'sandbox/notes.txt': 'a file of the app under /sandbox',
    'sandbox/v1/readme.txt': 'a file of the app under /sandbox/v1'
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(publicDir(), name, '..'), { recursive: true });
    writeFileSync(join(publicDir(), name), text);
  }
  [site, browser] = await Promise.all([serveStatic(publicDir()), launchBrowser()]);
}, 120_000);

afterEach(async () => {
  await context?.close();
  context = undefined;
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A fresh browser context (no service workers yet) and a page of the site at `path`. */
async function open(path: string): Promise<Page> {
  context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('[app]', error));
  await page.goto(new URL(path, site.url).href);
  return page;
}

/** Press "Start the sandbox" and read the status line once it has an outcome. */
async function startSandboxByClick(page: Page): Promise<{ state: string; text: string }> {
  await page.click('#start');
  const status = page.locator('#status:is([data-state="ready"], [data-state="error"])');
  await status.waitFor({ timeout: 135_000 });
  return { state: (await status.getAttribute('data-state')) ?? '', text: (await status.textContent()) ?? '' };
}

async function appWorkerReady(page: Page): Promise<void> {
  await page.locator('#app-worker', { hasText: 'app worker ready' }).waitFor({ timeout: 90_000 });
}

/** The origin's service worker registrations, as the browser holds them. */
function registrations(page: Page) {
  return page.evaluate(async () =>
    (await navigator.serviceWorker.getRegistrations()).map((r) => ({
      scope: new URL(r.scope).pathname,
      active: r.active && new URL(r.active.scriptURL).pathname,
      waiting: r.waiting && new URL(r.waiting.scriptURL).pathname,
      installing: r.installing && new URL(r.installing.scriptURL).pathname
    }))
  );
}

const controller = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller && new URL(navigator.serviceWorker.controller.scriptURL).pathname);

/** A request of the page: status, body, and which host answered (the sandbox's answers say). */
function request(page: Page, path: string, method = 'GET') {
  return page.evaluate(
    async ([path, method]) => {
      const response = await fetch(path, { method });
      return { status: response.status, host: response.headers.get('x-opalite-host'), text: method === 'HEAD' ? '' : await response.text() };
    },
    [path, method] as const
  );
}

/** The version the worker controlling the page tells, asked as startSandbox() asks it. */
function workerVersion(page: Page) {
  return page.evaluate(
    ([type, v]) =>
      new Promise<unknown>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(event.data);
        navigator.serviceWorker.controller!.postMessage({ type, v }, [channel.port2]);
      }),
    [SANDBOX_VERSION_MESSAGE, SANDBOX_MESSAGE_VERSION] as const
  );
}

const servedSince = (from: number) => site.served.slice(from);

/** What the page's requests brought to the server since `from`: the browser's own update checks of the worker script aside (they may come at any time). */
const appRequestsSince = (from: number) => servedSince(from).filter((line) => !line.startsWith('GET /opalite-sandbox-worker.js '));

describe("an app with a service worker of its own", () => {
  it("startSandbox() at the app worker's scope refuses with scope-taken, and the app's worker stays registered, in control and answering", async () => {
    const page = await open('/?appWorker=/app-sw.js');
    await appWorkerReady(page);
    // Preconditions: the app's worker holds the origin and answers.
    expect(await registrations(page)).toEqual([{ scope: '/', active: '/app-sw.js', waiting: null, installing: null }]);
    expect(await request(page, '/app/ping')).toMatchObject({ status: 200, text: 'app worker' });
    const from = site.served.length;

    const outcome = await startSandboxByClick(page);
    expect(outcome.state).toBe('error');
    expect(outcome.text).toContain(`scope-taken: The scope ${site.url} is registered to another service worker, ${site.url}app-sw.js`);
    expect(outcome.text).toContain("startSandbox({ scope: '/opalite/' })");

    expect(await registrations(page)).toEqual([{ scope: '/', active: '/app-sw.js', waiting: null, installing: null }]);
    expect(await controller(page)).toBe('/app-sw.js');
    expect(await request(page, '/app/ping')).toMatchObject({ status: 200, text: 'app worker' });
    // Not even fetched: nothing was registered.
    expect(servedSince(from).filter((line) => line.includes('opalite-sandbox-worker.js'))).toEqual([]);

    // Its next load is still the app's worker's.
    await page.reload();
    expect(await controller(page)).toBe('/app-sw.js');
    expect(await request(page, '/app/ping')).toMatchObject({ status: 200, text: 'app worker' });
  });

  it('refuses from a page under a narrower scope of another worker, which keeps that page', async () => {
    const page = await open('/admin/');
    await page.evaluate(async () => {
      await navigator.serviceWorker.register('/admin/sw.js', { scope: '/admin/' });
      if (!navigator.serviceWorker.controller) await new Promise((done) => navigator.serviceWorker.addEventListener('controllerchange', done, { once: true }));
    });
    const outcome = await startSandboxByClick(page);
    expect(outcome.text).toContain(`scope-taken: This page is under the scope ${site.url}admin/ of another service worker, ${site.url}admin/sw.js`);
    expect(await registrations(page)).toEqual([{ scope: '/admin/', active: '/admin/sw.js', waiting: null, installing: null }]);
  });

  it('runs the sandbox beside it at a scope of its own, for the pages under that scope', async () => {
    const page = await open('/?appWorker=/app-sw.js');
    await appWorkerReady(page);
    await page.goto(new URL('/opalite/?scope=/opalite/', site.url).href);
    // The app's worker (scope /) controls this page until the sandbox claims it.
    expect(await controller(page)).toBe('/app-sw.js');

    expect(await startSandboxByClick(page)).toEqual({ state: 'ready', text: `${site.url}sandbox/v1` });
    expect(await controller(page)).toBe('/opalite-sandbox-worker.js');
    const status = await request(page, '/sandbox/v1/dev/status');
    expect(status).toMatchObject({ status: 200, host: 'service-worker' });
    expect(JSON.parse(status.text)).toMatchObject({ appVersion: PACKAGE_VERSION });
    expect((await registrations(page)).sort((a, b) => a.scope.localeCompare(b.scope))).toEqual([
      { scope: '/', active: '/app-sw.js', waiting: null, installing: null },
      { scope: '/opalite/', active: '/opalite-sandbox-worker.js', waiting: null, installing: null }
    ]);

    // The app's pages elsewhere are still its worker's.
    await page.goto(site.url);
    expect(await controller(page)).toBe('/app-sw.js');
    expect(await request(page, '/app/ping')).toMatchObject({ status: 200, text: 'app worker' });
  });

  it("runs the sandbox inside the app's worker that imports it: startSandbox({ scriptUrl }) takes that worker as it is", async () => {
    const page = await open('/?appWorker=/app-with-sandbox-sw.js&script=/app-with-sandbox-sw.js');
    await appWorkerReady(page);
    expect(await startSandboxByClick(page)).toEqual({ state: 'ready', text: `${site.url}sandbox/v1` });
    expect(await registrations(page)).toEqual([{ scope: '/', active: '/app-with-sandbox-sw.js', waiting: null, installing: null }]);
    expect(await request(page, '/sandbox/v1/dev/status')).toMatchObject({ status: 200, host: 'service-worker' });
    expect(await request(page, '/app/ping')).toMatchObject({ status: 200, text: 'app worker' });
  });
});

describe('the sandbox worker', () => {
  it('starts, tells the version of the package it came with, and answers the REST API and GET /ipfs/<cid>', async () => {
    const page = await open('/');
    expect(await startSandboxByClick(page)).toEqual({ state: 'ready', text: `${site.url}sandbox/v1` });
    expect(await controller(page)).toBe('/opalite-sandbox-worker.js');
    expect(await workerVersion(page)).toEqual({ type: SANDBOX_VERSION_MESSAGE, v: SANDBOX_MESSAGE_VERSION, version: PACKAGE_VERSION });

    const from = site.served.length;
    for (const path of ['/sandbox/v1/dev/status', '/sandbox/dev/status']) {
      const answer = await request(page, path);
      expect(answer, path).toMatchObject({ status: 200, host: 'service-worker' });
      expect(JSON.parse(answer.text), path).toMatchObject({ host: 'service-worker', appVersion: PACKAGE_VERSION });
    }
    const file = await request(page, `/ipfs/${A_CID}`);
    expect(file).toMatchObject({ status: 404, host: 'service-worker' });
    expect(JSON.parse(file.text).error).toMatchObject({ name: 'NotFoundError' });
    expect(await request(page, `/ipfs/${A_CID}`, 'HEAD')).toMatchObject({ status: 404, host: 'service-worker' });
    expect(appRequestsSince(from)).toEqual([]);
  });

  it('leaves navigations, paths that are not API routes and other methods on /ipfs to the server', async () => {
    const page = await open('/');
    expect((await startSandboxByClick(page)).state).toBe('ready');
    const from = site.served.length;

    // Files and unknown paths of the app under /sandbox: the server's own answers.
    expect(await request(page, '/sandbox/notes.txt')).toEqual({ status: 200, host: null, text: 'a file of the app under /sandbox' });
    expect(await request(page, '/sandbox/v1/readme.txt')).toEqual({ status: 200, host: null, text: 'a file of the app under /sandbox/v1' });
    expect(await request(page, '/sandbox/v1/no-such-route')).toEqual({ status: 404, host: null, text: 'Not found' });
    expect(await request(page, `/ipfs/${A_CID}`, 'POST')).toEqual({ status: 404, host: null, text: 'Not found' });
    expect(await request(page, '/ipfs/not-a-cid')).toEqual({ status: 404, host: null, text: 'Not found' });

    // A navigation, even to an API path, is the app's to load.
    const navigation = await page.goto(new URL('/sandbox/v1/dev/status', site.url).href);
    expect(navigation?.status()).toBe(404);
    expect(await page.textContent('body')).toBe('Not found');
    await page.goto(new URL('/sandbox/notes.txt', site.url).href);
    expect(await page.textContent('body')).toBe('a file of the app under /sandbox');

    expect(appRequestsSince(from)).toEqual([
      'GET /sandbox/notes.txt 200',
      'GET /sandbox/v1/readme.txt 200',
      'GET /sandbox/v1/no-such-route 404',
      `POST /ipfs/${A_CID} 404`,
      'GET /ipfs/not-a-cid 404',
      'GET /sandbox/v1/dev/status 404',
      'GET /sandbox/notes.txt 200'
    ]);
    // Still controlled by the sandbox, which still answers the API.
    expect(await controller(page)).toBe('/opalite-sandbox-worker.js');
    expect(await request(page, '/sandbox/v1/dev/status')).toMatchObject({ status: 200, host: 'service-worker' });
  });

  it('of another version is refused with version-mismatch until `opalite init` is rerun, then taken without a reload', async () => {
    const page = await open('/old/?script=/old/opalite-sandbox-worker.js&scope=/old/');
    const refused = await startSandboxByClick(page);
    expect(refused.state).toBe('error');
    expect(refused.text).toContain(`version-mismatch: The sandbox worker ${site.url}old/opalite-sandbox-worker.js is from opalite 0.0.1, but this page's opalite/browser is ${PACKAGE_VERSION}`);
    expect(refused.text).toContain('Rerun `npx opalite init <your static folder>`');

    // What the message says to do: the worker of the installed package copied over the old one.
    const init = await runOpalite(dir, ['init', 'public/old']);
    expect(init.code).toBe(0);
    expect(await startSandboxByClick(page)).toEqual({ state: 'ready', text: `${site.url}sandbox/v1` });
    expect(await workerVersion(page)).toMatchObject({ version: PACKAGE_VERSION });
    expect(await registrations(page)).toEqual([{ scope: '/old/', active: '/old/opalite-sandbox-worker.js', waiting: null, installing: null }]);
  });
});
