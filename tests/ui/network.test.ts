// The network page: a reachability check that fails in words, switching to a remote REST
// base_url (a Node host of the same API on another origin, behind a small CORS relay) and
// working there, saying so when that service is out of reach, and the sandbox's export, reset and
// import of its ledger (with its images, into a fresh browser profile).
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../server/host';
import type { RunningPreview } from '../../server/preview';
import { approve, createAccount, fundFromAlice, launchBrowser, nav, png, restRelay, serveApp, watchErrors } from './support';

const PASSWORD = 'network-pass-1';

describe('network', () => {
  let preview: RunningPreview;
  let host: RunningHost;
  let relay: { url: string; server: Server };
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    preview = await serveApp();
    host = await startHost({ port: 0, log: () => {} });
    relay = await restRelay(host);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = await context.newPage();
    errors = watchErrors(page);
    await page.goto(preview.url);
    await createAccount(page, 'Ada', PASSWORD);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => relay?.server.close(resolve));
    await host?.stop();
    await preview?.close();
  });

  it('checks a base_url, switches to a remote REST service and works there', async () => {
    await nav(page, 'Network');
    await expect.poll(() => page.getByTestId('reachability').textContent()).toContain('yes');
    expect(await page.getByTestId('current-base-url').textContent()).toBe(`${preview.url}sandbox/v1`);

    await page.getByRole('radio', { name: /A remote Unique Network REST service/ }).check();
    await page.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
    await page.getByRole('button', { name: 'Check reachability' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/^Could not reach http:\/\/127\.0\.0\.1:9\/v1: /);

    await page.getByLabel('Base URL').fill(`${relay.url}/`);
    await page.getByRole('button', { name: 'Check reachability' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'answers' }).textContent()).toBe(`${relay.url} answers: OPL, SS58 prefix 42.`);
    await page.getByRole('button', { name: 'Use this network' }).click();
    await expect.poll(() => page.getByTestId('current-base-url').textContent()).toBe(relay.url);
    expect(await page.getByRole('link', { name: `Network: ${relay.url}` }).textContent()).toContain('Remote');
    // The sandbox's own tools are not offered for a remote service.
    expect(await page.getByRole('button', { name: 'Export ledger' }).count()).toBe(0);

    // The same account on the remote chain: fund it there, create a collection there.
    await nav(page, 'Accounts');
    expect(await page.getByRole('note', { name: 'Remote network notice' }).textContent()).toContain(relay.url);
    await fundFromAlice(page, 'Ada');
    await nav(page, 'Collections');
    await page.getByRole('link', { name: 'Create collection' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Far away');
    await page.getByLabel('Token prefix').fill('FAR');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await approve(page, { password: PASSWORD, call: 'unique.createCollectionEx' });
    await page.getByRole('heading', { level: 1, name: 'Far away' }).waitFor();
    expect((await host.ledger.read((tx) => tx.get('collections', 1)))?.name).toBe('Far away');

    // The remote service out of reach (offline, and its server gone): the app says so in words,
    // whatever the browser reports as navigator.onLine.
    await context.setOffline(true);
    relay.server.closeAllConnections();
    await new Promise((resolve) => relay.server.close(resolve));
    try {
      await nav(page, 'Network');
      await page.getByRole('button', { name: 'Check again' }).click();
      const reachability = () => page.getByTestId('reachability').textContent();
      await expect.poll(reachability).toMatch(/^no\s/);
      expect(await reachability()).toContain(`Could not reach ${relay.url}`);
    } finally {
      await context.setOffline(false);
    }

    // Back to the sandbox: its ledger never saw the remote collection.
    await nav(page, 'Network');
    await page.getByRole('radio', { name: /Built-in sandbox/ }).check();
    await page.getByRole('button', { name: 'Use this network' }).click();
    await expect.poll(() => page.getByTestId('current-base-url').textContent()).toBe(`${preview.url}sandbox/v1`);
    await nav(page, 'Collections');
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await page.getByText('This ledger has no collections yet').waitFor();
    expect(errors).toEqual([]);
  });

  it('exports, resets and imports the sandbox ledger', async () => {
    // Something on the sandbox to keep: Ada's funds.
    await nav(page, 'Accounts');
    const card = await fundFromAlice(page, 'Ada');

    await nav(page, 'Network');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /^Export ledger as JSON only/ }).click()]);
    const file = (await download.path())!;
    expect(JSON.parse(readFileSync(file, 'utf8'))).toBeTypeOf('object');

    await page.getByRole('button', { name: 'Reset ledger' }).click();
    await page.getByRole('button', { name: 'Reset the ledger' }).click();
    await page.getByText(/A fresh ledger started/).waitFor();
    await nav(page, 'Accounts');
    await expect.poll(() => card.getByTestId('balance').textContent()).toBe('0 OPL');

    await nav(page, 'Network');
    await page.getByLabel(/Ledger file to import/).setInputFiles(file);
    await page.getByRole('button', { name: 'Import ledger' }).click();
    await page.getByRole('button', { name: 'Replace the ledger' }).click();
    await page.getByText(/Ledger imported: head block \d+/).waitFor();
    await nav(page, 'Accounts');
    await expect.poll(() => card.getByTestId('balance').textContent()).toBe('1 000 OPL');

    // A file that is not a ledger changes nothing, and says why.
    await nav(page, 'Network');
    await page.getByLabel(/Ledger file to import/).setInputFiles({ name: 'nope.json', mimeType: 'application/json', buffer: Buffer.from('{"hello":1}') });
    await page.getByRole('button', { name: 'Import ledger' }).click();
    await page.getByRole('button', { name: 'Replace the ledger' }).click();
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'ledger export' }).textContent())
      .toBe('This file is not an Opalite ledger export (its "format" is not "opalite-ledger")');
    await nav(page, 'Accounts');
    await expect.poll(() => card.getByTestId('balance').textContent()).toBe('1 000 OPL');
    expect(errors).toEqual([]);
  });

  it('exports the ledger with its images by default; a fresh browser profile imports it and shows the image', async () => {
    // An image uploaded to the sandbox, as the app's image pickers do.
    const { cid } = await page.evaluate(async (bytes) => {
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'cover.png');
      return (await fetch('/sandbox/v1/ipfs/upload-file', { method: 'POST', body: form })).json();
    }, [...png(7)]);

    await nav(page, 'Network');
    const exportButton = page.getByRole('button', { name: /^Export ledger with images \(\d+(\.\d)? (KB|MB)\)$/ });
    const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const file = (await download.path())!;
    expect(readFileSync(file).subarray(0, 2).toString()).toBe('PK');

    const fresh = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const other = await fresh.newPage();
      const otherErrors = watchErrors(other);
      await other.goto(preview.url);
      await nav(other, 'Network');
      await other.getByLabel(/Ledger file to import/).setInputFiles(file);
      await other.getByRole('button', { name: 'Import ledger' }).click();
      await other.getByRole('button', { name: 'Replace the ledger' }).click();
      await other.getByText(/Ledger imported: head block \d+/).waitFor();

      // The image's gateway url (fileUrl), as an <img> of the app or a new tab opens it, once the worker runs.
      await other.evaluate(() => navigator.serviceWorker.ready);
      const shown = await other.goto(`${preview.url}ipfs/${cid}`);
      expect(shown?.status()).toBe(200);
      expect(await other.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
      expect(otherErrors).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});