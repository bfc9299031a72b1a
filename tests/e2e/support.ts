// What the browser tests share: Chromium, the built app on a random port, and the REST calls a
// page makes with plain `fetch` (so they go wherever the page's requests go: worker or in-page).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startPreview, type RunningPreview } from '../../server/preview';
import { launchPersistentTestChromium, launchTestChromium, testChromium } from '../support/chromium';
import { E2E_BUILD_DIR } from './paths';

/** The app as globalSetup built it for these tests. */
export const BUILD_DIR = E2E_BUILD_DIR;

export const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
export const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
export const CHARLIE = '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y';


/**
 * `extraArgs`: more Chromium switches (e.g. --host-resolver-rules for a host name of one's own);
 * `executablePath`: the benchmarks run the browser a person runs (installedChromium).
 */
export function launchBrowser(extraArgs: string[] = [], executablePath = testChromium()): Promise<Browser> {
  return launchTestChromium(extraArgs, executablePath);
}

/** A browser profile kept on disk, so a test can close the browser and open it again. */
export function launchPersistent(userDataDir: string): Promise<BrowserContext> {
  return launchPersistentTestChromium(userDataDir);
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function serveApp(root: string = BUILD_DIR): Promise<RunningPreview> {
  return startPreview({ root, port: 0 });
}

/** Chromium, the built app, and one page of it that the service worker controls. */
export interface AppSession {
  browser: Browser;
  app: RunningPreview;
  context: BrowserContext;
  page: Page;
}

export async function openAppSession(): Promise<AppSession> {
  const [browser, app] = await Promise.all([launchBrowser(), serveApp()]);
  const context = await browser.newContext();
  return { browser, app, context, page: await openControlled(context, app.url) };
}

/** Close what openAppSession opened (either may be missing when it failed half-way). */
export async function closeAppSession(session: { browser?: Browser; app?: RunningPreview }): Promise<void> {
  await session.browser?.close();
  await session.app?.close();
}

/** Open the app and wait until the service worker controls the page and the page shows its host. */
export async function openControlled(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await waitForWorker(page);
  return page;
}

export async function waitForWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 180_000 });
  await page.locator('[data-host="service-worker"]').waitFor({ timeout: 180_000 });
}

/** Shift+reload: the page loads past the service worker, which then does not control it. */
export async function hardReload(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await Promise.all([page.waitForEvent('load'), cdp.send('Page.reload', { ignoreCache: true })]);
  await cdp.detach();
}

/** Stop the service worker, as the browser does when it is idle: its globals are gone. */
export async function stopServiceWorkers(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await cdp.detach();
}

export interface Answer {
  status: number;
  json: any;
  text: string;
  host: string | null;
  headers: Record<string, string>;
}

/** A request from the page with its own `fetch`; a non-string body is sent as JSON. */
export function call(page: Page, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return page.evaluate(
    async ({ method, path, body, headers }) => {
      const init: RequestInit = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const response = await fetch(path, init);
      const text = await response.text();
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      const all: Record<string, string> = {};
      response.headers.forEach((v, k) => (all[k] = v));
      return { status: response.status, json, text, host: response.headers.get('x-opalite-host'), headers: all };
    },
    { method, path, body, headers }
  );
}

/** A custodial `use=Result` mutation (`Authorization: Seed …`); fails unless included without error. */
export async function submit(page: Page, path: string, body: unknown, seed = '//Alice', method = 'POST'): Promise<any> {
  const answer = await call(page, method, `${path}${path.includes('?') ? '&' : '?'}use=Result`, body, { authorization: `Seed ${seed}` });
  // DECISIONS.md: POST answers 201; PATCH and DELETE 200.
  const expected = method === 'POST' ? 201 : 200;
  if (answer.status !== expected) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text}`);
  if (answer.json.isError) throw new Error(`${method} ${path} failed on chain: ${JSON.stringify(answer.json.error)}`);
  return answer.json;
}

export async function createCollection(page: Page, name: string, seed = '//Alice', address = ALICE): Promise<number> {
  const result = await submit(page, '/sandbox/v1/collections', { address, name, description: `${name} collection`, tokenPrefix: 'E2E' }, seed);
  return result.parsed.collectionId as number;
}

export async function mint(page: Page, collectionId: number, data: Record<string, unknown> = {}, seed = '//Alice', address = ALICE): Promise<number> {
  const result = await submit(page, '/sandbox/v1/tokens', { address, collectionId, data }, seed);
  return result.parsed.tokenId as number;
}

/** A 1×1 PNG (a real image, so an `<img>` can show it). */
export const PNG_1X1_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Upload bytes (base64) as the multipart field `file`, from the page. */
export function uploadFile(page: Page, base64: string, name: string, type: string): Promise<Answer> {
  return page.evaluate(
    async ({ base64, name, type }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const form = new FormData();
      form.set('file', new Blob([bytes], { type }), name);
      const response = await fetch('/sandbox/v1/ipfs/upload-file', { method: 'POST', body: form });
      const text = await response.text();
      return { status: response.status, json: JSON.parse(text), text, host: response.headers.get('x-opalite-host'), headers: {} };
    },
    { base64, name, type }
  );
}
