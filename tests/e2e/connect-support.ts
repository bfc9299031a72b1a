// What the connect e2e tests share (tests/e2e/connect*.test.ts): the app's own origin on
// 127.0.0.1 and another app on a second site (localhost, or a name mapped to 127.0.0.1), served
// by a bare static server, and the person's side of the Opalite window.
import { createServer, type Server } from 'node:http';
import type { Locator, Page } from 'playwright-core';

export interface OtherSite {
  server: Server;
  /** `http://<host>:<port>` */
  origin: string;
  close(): Promise<void>;
}

/**
 * A bare static server on 127.0.0.1 for `files` (path → body), named `http://<host>:<port>`
 * (`localhost` is another site than the app's 127.0.0.1). No CSP, no worker: a plain app.
 */
export async function serveOtherSite(files: Record<string, string | Buffer>, host = 'localhost'): Promise<OtherSite> {
  const type = (path: string) => (path.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/html; charset=utf-8');
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const body = files[path];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': body === undefined ? 'text/plain' : type(path), 'cache-control': 'no-store' });
    res.end(body ?? 'Not found');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { server, origin: `http://${host}:${address.port}`, close: () => new Promise((done) => server.close(() => done())) };
}

/** A page of the other app that loads `script`. */
export function appPageHtml(title: string, script: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><script src="${script}"></script></body></html>`;
}

/** Clicks `button` in `page` and answers the Opalite window it opens, loaded. */
export async function popupFrom(page: Page, button: string): Promise<Page> {
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: button }).click()]);
  await popup.waitForLoadState();
  return popup;
}

/** The person checks `names` (account names) in the Opalite window's question and allows. */
export async function allowWith(popup: Page, origin: string, names: string[]): Promise<void> {
  await popup.getByRole('heading', { name: `${origin} wants to use your Opalite sandbox ledger` }).waitFor({ timeout: 90_000 });
  for (const name of names) await popup.getByRole('checkbox', { name: new RegExp(`^${name} `) }).check();
  // Allow arms itself 0.8 s after the question shows; Playwright waits for it to be enabled.
  await popup.getByRole('button', { name: 'Allow' }).click();
}

/** Counts, from now on, each time a sign dialog opens in `popup` (its `open` attribute appears). */
export async function countDialogs(popup: Page): Promise<void> {
  await popup.evaluate(() => {
    const w = window as unknown as { dialogsOpened: number };
    w.dialogsOpened = 0;
    new MutationObserver((records) => {
      for (const record of records) if ((record.target as Element).hasAttribute('open')) w.dialogsOpened++;
    }).observe(document.body, { attributes: true, attributeFilter: ['open'], subtree: true });
  });
}

export function dialogsOpened(popup: Page): Promise<number> {
  return popup.evaluate(() => (window as unknown as { dialogsOpened: number }).dialogsOpened);
}

/** The person signs in the open dialog of `popup`: the password when the key is locked, then Sign (armed after 0.8 s). */
export async function signInDialog(popup: Page, password: string): Promise<void> {
  const dialog = popup.getByRole('dialog');
  await dialog.waitFor({ timeout: 90_000 });
  const field = dialog.getByLabel(/^Password of/);
  if (await field.isVisible()) await field.fill(password);
  await dialog.getByRole('button', { name: 'Sign', exact: true }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 90_000 });
}

/**
 * Clicks `target` in `window`, which the click closes (the app closes the Opalite window it no
 * longer needs): the click may not see its own end, and the window must close.
 */
export async function clickClosingWindow(window: Page, target: Locator): Promise<void> {
  const closed = window.waitForEvent('close', { timeout: 90_000 });
  await target.click().catch((error: unknown) => {
    if (!window.isClosed()) throw error;
  });
  await closed;
}

/** Calls `window.otherApp[name](...args)` in `page` (tests/e2e/fixtures/connect-page.ts); plain JSON back. */
export function callOtherApp(page: Page, name: string, ...args: unknown[]): Promise<any> {
  return page.evaluate(([n, a]) => (window as any).otherApp[n as string](...(a as unknown[])), [name, args] as const);
}

/** What the last Connect click in `page` came to, once it came to something. */
export async function connectOutcome(page: Page): Promise<any> {
  await page.waitForFunction(() => (window as any).otherApp.state.outcome !== null, null, { timeout: 90_000 });
  return page.evaluate(() => (window as any).otherApp.state.outcome);
}
