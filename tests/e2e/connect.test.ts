// `opalite/connect`: a page of a second origin (another site: `localhost` beside the app's
// `127.0.0.1`, so the browser partitions what it would frame) reaches the Opalite app's own
// sandbox through a first-party Opalite window, after the person allowed it there, and sees the
// very ledger the Opalite tab shows. Refused before consent, on Deny, and after revocation on the
// Network page; keys never cross (the app signs with its own key, or Opalite's sign dialog signs).
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningPreview } from '../../server/preview';
import { approve, axeViolations, createAccount } from '../ui/support';
import { PROJECT_ROOT } from './paths';
import { ALICE, BOB, call, createCollection, launchBrowser, openControlled, serveApp, submit } from './support';
import { bundleBrowserEntry } from './test-pages';

let browser: Browser;
let app: RunningPreview;
let other: { server: Server; origin: string };
let context: BrowserContext;
let opalite: Page;
let otherPage: Page;
let sharedId: number;
/** The Opalite window of the connection in use. */
let connected: Page;

/** The second origin: a bare static server for the app page and its bundle. */
async function serveOtherApp(bundle: string): Promise<{ server: Server; origin: string }> {
  const files: Record<string, { type: string; body: Buffer }> = {
    '/': { type: 'text/html; charset=utf-8', body: Buffer.from('<!doctype html><html><head><meta charset="utf-8"><title>Another app</title></head><body><h1>Another app</h1><script src="/connect-page.js"></script></body></html>') },
    '/connect-page.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(bundle) }
  };
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://localhost').pathname];
    res.writeHead(file ? 200 : 404, { 'content-type': file?.type ?? 'text/plain', 'cache-control': 'no-store' });
    res.end(file?.body ?? 'Not found');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { server, origin: `http://localhost:${address.port}` };
}

/** Calls `window.otherApp[name](...args)` in the other app's page. */
function otherApp(name: string, ...args: unknown[]): Promise<any> {
  return otherPage.evaluate(([n, a]) => (window as any).otherApp[n as string](...(a as unknown[])), [name, args] as const);
}

/** Clicks Connect in the other app's page; answers the Opalite window it opens. */
async function clickConnect(): Promise<Page> {
  const [popup] = await Promise.all([otherPage.waitForEvent('popup'), otherPage.getByRole('button', { name: 'Connect to Opalite' }).click()]);
  await popup.waitForLoadState();
  return popup;
}

/** What the last Connect came to, once it came to something. */
async function outcome(): Promise<any> {
  await otherPage.waitForFunction(() => (window as any).otherApp.state.outcome !== null, null, { timeout: 30_000 });
  return otherPage.evaluate(() => (window as any).otherApp.state.outcome);
}

beforeAll(async () => {
  const bundle = await bundleBrowserEntry(join(PROJECT_ROOT, 'tests/e2e/fixtures/connect-page.ts'), 'connect-page.js');
  [browser, app, other] = await Promise.all([launchBrowser(), serveApp(), serveOtherApp(bundle)]);
  context = await browser.newContext();
  opalite = await openControlled(context, app.url);
  sharedId = await createCollection(opalite, 'Made in the Opalite tab');
  otherPage = await context.newPage();
  otherPage.on('pageerror', (error) => console.error('[other app]', error));
  await otherPage.goto(`${other.origin}/?opalite=${encodeURIComponent(app.url)}`);
  await otherPage.waitForFunction(() => 'otherApp' in window);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await new Promise((done) => other?.server.close(done));
});

describe('before consent', () => {
  it('the Opalite window asks, and answers a request sent meanwhile with a 403 envelope', async () => {
    const [popup] = await Promise.all([otherPage.waitForEvent('popup'), otherPage.getByRole('button', { name: 'Probe without consent' }).click()]);
    await expect.poll(() => popup.getByTestId('connect-origin').textContent(), { timeout: 30_000 }).toBe(other.origin);
    await otherPage.waitForFunction(() => (window as any).otherApp.state.probe !== null);
    const probe = await otherPage.evaluate(() => (window as any).otherApp.state.probe);
    expect(probe.status).toBe(403);
    expect(probe.json.error).toMatchObject({ code: 'UN01004', name: 'ValidationError', message: `${other.origin} is not allowed to use this Opalite sandbox: connect again and allow it in Opalite` });
    await popup.close();
  });

  it('Deny refuses the connection, closes the window and remembers nothing', async () => {
    const popup = await clickConnect();
    await expect.poll(() => popup.getByTestId('connect-origin').textContent(), { timeout: 30_000 }).toBe(other.origin);
    await popup.getByRole('heading', { name: `${other.origin} wants to use your Opalite sandbox ledger` }).waitFor();
    const serious = ((await axeViolations(popup)) ?? []).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious).toEqual([]);
    await popup.getByRole('button', { name: 'Deny' }).click();
    expect(await outcome()).toEqual({ connected: false, code: 'refused', message: 'The person denied access to the Opalite sandbox' });
    await expect.poll(() => popup.isClosed()).toBe(true);
    expect(await opalite.evaluate(() => localStorage.getItem('opalite:connect:v1'))).toBeNull();
  });
});

describe('after Allow', () => {
  it('the other origin reads the very ledger the Opalite tab shows', async () => {
    const popup = await clickConnect();
    await popup.getByRole('button', { name: 'Allow' }).click();
    expect(await outcome()).toEqual({ connected: true, baseUrl: `${new URL(app.url).origin}/sandbox/v1` });
    await expect.poll(() => popup.getByTestId('connect-status').textContent()).toContain(`${other.origin} uses your sandbox ledger`);

    const path = `/sandbox/v1/collections?collectionId=${sharedId}`;
    const seen = await otherApp('fetch', path);
    const inOpalite = await call(opalite, 'GET', path);
    expect(seen).toMatchObject({ ok: true, status: 200, host: 'service-worker' });
    expect(seen.json).toMatchObject({ id: sharedId, name: 'Made in the Opalite tab', owner: ALICE });
    expect(seen.json).toEqual(inOpalite.json);
    // The same chain, not merely the same data: one genesis, one head.
    const chain = await otherApp('fetch', '/sandbox/v1/dev/status');
    const opaliteChain = await call(opalite, 'GET', '/sandbox/v1/dev/status');
    expect(chain.json.genesisHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect({ genesisHash: chain.json.genesisHash, head: chain.json.head }).toEqual({ genesisHash: opaliteChain.json.genesisHash, head: opaliteChain.json.head });
    // Allowed, remembered on Opalite's origin: the origin and the date, nothing else.
    const stored = JSON.parse((await opalite.evaluate(() => localStorage.getItem('opalite:connect:v1')))!);
    expect(stored).toEqual({ v: 1, origins: [{ origin: other.origin, allowedAt: expect.any(Number) }] });
  });

  it('a write from the other origin, signed with its own key through the SDK, appears in the Opalite tab', async () => {
    const id = await otherApp('createCollectionAsBob', 'Written from another origin');
    expect(id).toBeGreaterThan(sharedId);
    const inOpalite = await call(opalite, 'GET', `/sandbox/v1/collections?collectionId=${id}`);
    expect(inOpalite.json).toMatchObject({ id, name: 'Written from another origin', owner: BOB });
  });

  it('keys never cross, and the ledger tools and other paths stay out of reach', async () => {
    const body = { address: ALICE, name: 'x', description: 'x', tokenPrefix: 'X' };
    const seed = await otherApp('fetch', '/sandbox/v1/collections?use=Result', { method: 'POST', body, headers: { authorization: 'Seed //Alice' } });
    expect(seed).toMatchObject({ ok: false, code: 'credentials' });
    const reset = await otherApp('fetch', '/sandbox/v1/dev/reset', { method: 'POST', body: {} });
    expect(reset).toMatchObject({ ok: true, status: 403, json: { error: { message: expect.stringMatching(/for its owner/) } } });
    const page = await otherApp('fetch', '/network');
    expect(page).toMatchObject({ ok: true, status: 403, json: { error: { message: expect.stringMatching(/^Only the sandbox API/) } } });
    const elsewhere = await otherApp('fetch', `${other.origin}/sandbox/v1/collections`);
    expect(elsewhere).toMatchObject({ ok: false, code: 'outside-opalite' });
    // Nothing of that changed the ledger: the collection made first is still there.
    expect((await call(opalite, 'GET', `/sandbox/v1/collections?collectionId=${sharedId}`)).json).toMatchObject({ name: 'Made in the Opalite tab' });
  });

  it('an origin allowed once connects again without being asked', async () => {
    await otherApp('close');
    connected = await clickConnect();
    expect(await outcome()).toMatchObject({ connected: true });
    expect(await connected.getByRole('button', { name: 'Allow' }).count()).toBe(0);
    const seen = await otherApp('fetch', `/sandbox/v1/collections?collectionId=${sharedId}`);
    expect(seen).toMatchObject({ status: 200, json: { name: 'Made in the Opalite tab' } });
  });
});

describe('signPayload', () => {
  const PASSWORD = 'correct horse battery';
  let account: string;

  beforeAll(async () => {
    account = await createAccount(opalite, 'Signer for apps', PASSWORD);
    await submit(opalite, '/sandbox/v1/balance/transfer', { address: ALICE, destination: account, amount: 10 });
  });

  it("opens Opalite's sign dialog; the person unlocks the key and signs, and only the signature comes back", async () => {
    const popup = connected;
    const transfer = otherApp('transferSignedInOpalite', account, BOB);
    const dialog = popup.getByRole('dialog');
    await dialog.getByRole('heading', { name: `Sign: ${other.origin} asks you to sign` }).waitFor({ timeout: 30_000 });
    expect((await approve(popup, { password: PASSWORD, call: 'balances.transferKeepAlive', returnsSignature: true })).askedPassword).toBe(true);
    const result = await transfer;
    expect(result).toMatchObject({ ok: true, submitted: 201, signature: expect.stringMatching(/^0x01[0-9a-f]{128}$/), status: { isCompleted: true, isError: false } });
    expect(typeof result.id).toBe('number');
  });

  it('refuses without asking a payload of another chain or of an account not in the wallet, and reports a cancel', async () => {
    const popup = connected;
    const otherChain = await otherApp('transferSignedInOpalite', account, BOB, { genesisHash: `0x${'ab'.repeat(32)}` });
    expect(otherChain).toMatchObject({ ok: false, code: 'sign-refused', message: expect.stringMatching(/another chain/) });
    const notOurs = await otherApp('transferSignedInOpalite', ALICE, BOB);
    expect(notOurs).toMatchObject({ ok: false, code: 'sign-refused', message: expect.stringMatching(/is not an account of this Opalite wallet/) });

    const cancelled = otherApp('transferSignedInOpalite', account, BOB);
    const dialog = popup.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await cancelled).toMatchObject({ ok: false, code: 'cancelled' });
  });
});

describe('revocation', () => {
  it('the Network page lists the app; revoking it refuses the very next request', async () => {
    const popup = connected;
    await opalite.goto(`${app.url}network`);
    const apps = opalite.getByRole('list', { name: 'Allowed apps' });
    await expect.poll(() => apps.getByRole('listitem').allTextContents(), { timeout: 30_000 }).toEqual([expect.stringContaining(other.origin)]);
    await apps.getByRole('button', { name: `Revoke ${other.origin}` }).click();
    await opalite.getByTestId('no-allowed-apps').waitFor();

    const refused = await otherApp('fetch', `/sandbox/v1/collections?collectionId=${sharedId}`);
    expect(refused).toMatchObject({ ok: true, status: 403, json: { error: { code: 'UN01004', message: `${other.origin} is not allowed to use this Opalite sandbox: connect again and allow it in Opalite` } } });
    expect(await otherApp('connectionState')).toBe('revoked');
    await expect.poll(() => popup.getByTestId('connect-status').textContent()).toContain('was revoked');
  });

  it('a revoked origin is asked again when it connects again', async () => {
    await otherApp('close');
    const popup = await clickConnect();
    await popup.getByRole('heading', { name: `${other.origin} wants to use your Opalite sandbox ledger` }).waitFor({ timeout: 30_000 });
    await popup.getByRole('button', { name: 'Deny' }).click();
    expect(await outcome()).toMatchObject({ connected: false, code: 'refused' });
  });
});
