// Offline: once the worker is installed, the app opens, the API reads and writes, and uploaded
// files are served from the browser's storage with no network at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningPreview } from '../../server/preview';
import { ALICE, PNG_1X1_BASE64, call, closeAppSession, createCollection, mint, openAppSession, uploadFile } from './support';

let browser: Browser;
let app: RunningPreview;
let context: BrowserContext;
let page: Page;

beforeAll(async () => ({ browser, app, context, page } = await openAppSession()));
afterAll(() => closeAppSession({ browser, app }));

describe('offline', () => {
  let cid: string;

  it('stores an upload under its CID', async () => {
    const upload = await uploadFile(page, PNG_1X1_BASE64, 'dot.png', 'image/png');
    expect(upload.status, upload.text).toBe(201);
    expect(upload.host).toBe('service-worker');
    cid = upload.json.cid;
    expect(cid).toMatch(/^Qm[1-9A-HJ-NP-Za-km-z]{44}$/);
    expect(upload.json.fileUrl).toBe(`${app.url}ipfs/${cid}`);
    await createCollection(page, 'Before the outage');
  });

  it('reloads into the app and keeps answering reads and writes', async () => {
    // No network at all, whatever the browser build does with emulated offline: the server that
    // served the app is gone too.
    await context.setOffline(true);
    await app.close();
    // Really offline: the static server cannot be reached.
    expect(await page.evaluate(() => fetch(`/_app/version.json?${Math.random()}`).then(() => 'reached', () => 'unreachable'))).toBe('unreachable');
    await page.reload();
    await page.locator('h1', { hasText: 'Opalite' }).waitFor();
    await page.locator('[data-host="service-worker"]').waitFor();

    expect((await call(page, 'GET', '/sandbox/v1/collections?collectionId=1')).json).toMatchObject({ id: 1, name: 'Before the outage' });
    const tokenId = await mint(page, 1, { name: 'Offline opal', image: { ipfsCid: cid } });
    const token = await call(page, 'GET', `/sandbox/v1/tokens?collectionId=1&tokenId=${tokenId}`);
    expect(token.json.owner).toBe(ALICE);
    expect(token.json.image).toMatchObject({ ipfsCid: cid, fullUrl: `${app.url}ipfs/${cid}` });

    // A navigation to any path of the app gets the shell offline too (the router takes it from there).
    const other = await context.newPage();
    const response = await other.goto(`${app.url}collections/1?from=offline`);
    expect(response?.status()).toBe(200);
    expect(await other.title()).toContain('Opalite');
    expect(await other.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await other.close();
  });

  it('keeps the install manifest and its icons available offline', async () => {
    const href = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel=manifest]')?.href ?? null);
    expect(href).toBe(`${app.url}manifest.webmanifest`);
    const manifest = await page.evaluate(async (url) => (await fetch(url)).json(), href!);
    expect(manifest).toMatchObject({ name: expect.stringContaining('Opalite'), display: 'standalone', start_url: '/' });
    const sizes = manifest.icons.map((i: { sizes: string }) => i.sizes);
    expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of manifest.icons as { src: string }[]) {
      const loaded = await page.evaluate(async (src) => {
        const image = new Image();
        image.src = src;
        await image.decode();
        return image.naturalWidth;
      }, icon.src);
      expect(loaded).toBeGreaterThanOrEqual(192);
    }
  });

  it('serves the uploaded file with its content type, and an <img> shows it', async () => {
    const file = await page.evaluate(async (cid) => {
      const response = await fetch(`/ipfs/${cid}`);
      return { status: response.status, type: response.headers.get('content-type'), size: (await response.arrayBuffer()).byteLength };
    }, cid);
    expect(file).toEqual({ status: 200, type: 'image/png', size: 70 });
    const width = await page.evaluate(async (cid) => {
      const img = document.createElement('img');
      img.src = `/ipfs/${cid}`;
      await img.decode();
      return img.naturalWidth;
    }, cid);
    expect(width).toBe(1);
    expect((await call(page, 'GET', '/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy')).status).toBe(404);
    await context.setOffline(false);
  });
});
