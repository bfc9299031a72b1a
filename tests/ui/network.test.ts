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
import { ALICE, custodial } from '../contract/support';
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

  it("shows a collection's tokens a page at a time, and says what needs an Opalite ledger, on a service without its extensions", async () => {
    // A REST service of the real kind: the same host behind a relay without Opalite's extension routes.
    const extension = /\/v1\/(explorer\/|tokens\/gallery$|tokens\/holdings$)/;
    const plain = await restRelay(host, (_method, path) => (extension.test(path) ? { status: 404, json: { statusCode: 404, message: `Cannot GET ${path}` } } : null));
    const schema = { schemaName: 'unique', schemaVersion: '1.0.0', coverPicture: { url: `${plain.url}/none/cover.png` }, image: { urlTemplate: `${plain.url}/none/{infix}.png` } };
    const created = await custodial(host, 'POST', '/collections', { address: ALICE, name: 'Plain drop', description: 'Tokens on a plain REST service', tokenPrefix: 'PLN', schema });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const collectionId = created.body.parsed.collectionId;
    const tokens = Array.from({ length: 30 }, (_, i) => ({ data: { name: `Plain #${i + 1}`, image: { urlInfix: `p${i + 1}` } } }));
    expect((await custodial(host, 'POST', '/tokens/create-multiple', { address: ALICE, collectionId, tokens })).body.isError).toBe(false);

    const remote = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    try {
      await remote.goto(preview.url);
      await nav(remote, 'Network');
      await remote.getByRole('radio', { name: /A remote Unique Network REST service/ }).check();
      await remote.getByLabel('Base URL').fill(plain.url);
      await remote.getByRole('button', { name: 'Use this network' }).click();
      await expect.poll(() => remote.getByTestId('current-base-url').textContent()).toBe(plain.url);

      await remote.goto(`${preview.url}collections/${collectionId}`);
      await remote.getByTestId('plain-token-pages').waitFor();
      expect(await remote.getByTestId('plain-token-pages').textContent()).toContain('Search, filters, counts and rarity need an Opalite ledger');
      // The count is the service's, not a read of every id.
      expect(await remote.getByTestId('token-count').textContent()).toContain('30');
      const grid = remote.getByRole('list', { name: 'Tokens' });
      await grid.getByRole('link', { name: 'Plain #24 (token 24)' }).waitFor();
      expect(await grid.getByRole('listitem').count()).toBe(24);
      await remote.getByRole('link', { name: 'Next →' }).click();
      await grid.getByRole('link', { name: 'Plain #30 (token 30)' }).waitFor();
      expect(await grid.getByRole('listitem').count()).toBe(6);
      expect(await remote.getByRole('status').filter({ hasText: 'page 2 of 2' }).count()).toBe(1);
      await grid.getByRole('link', { name: 'Plain #27 (token 27)' }).click();
      await remote.getByRole('heading', { level: 1, name: 'Plain #27' }).waitFor();
      await remote.goBack();
      await grid.getByRole('link', { name: 'Plain #30 (token 30)' }).waitFor();

      // The wallet's tokens need the ledger's holdings route: said once, in words.
      await remote.goto(`${preview.url}wallet?account=${ALICE}`);
      const said = remote.getByRole('alert').filter({ hasText: 'needs an Opalite ledger' });
      await said.waitFor();
      expect(await said.textContent()).toContain(`${plain.url} does not answer GET /tokens/holdings`);
      expect(await remote.getByRole('alert').count()).toBe(1);
    } finally {
      await remote.context().close();
      await new Promise((resolve) => plain.server.close(resolve));
    }
  });
});
