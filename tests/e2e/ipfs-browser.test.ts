// The real @unique-nft/sdk 0.7.7 `ipfs` section, bundled into a test page on the app's origin
// (fixtures/ipfs-page.ts), against the app's service worker: uploadFile, uploadFiles, addFiles and
// uploadZip with the same paths, answers and errors as against the Node host
// (tests/contract/ipfs.test.ts), and the files served back at `<origin>/ipfs/<cid>/<path>`.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { NESTED_ZIP_ENTRIES, PNG_1X1, README_TEXT, readFixture, referenceFile, referenceFolder } from '../unit/fixtures/ipfs/reference';
import { PROJECT_ROOT } from './paths';
import { launchBrowser } from './support';
import { bundleBrowserEntry, controlByAppWorker, servePages, testPageHtml, type ServedPages } from './test-pages';

let browser: Browser;
let page: Page;
let pages: ServedPages;
let origin: string;

/** Every answer the page saw for /sandbox/…/ipfs/…, and whether the worker gave it. */
const ipfsCalls: { method: string; path: string; status: number; fromServiceWorker: boolean }[] = [];

beforeAll(async () => {
  const bundle = await bundleBrowserEntry(join(PROJECT_ROOT, 'tests/e2e/fixtures/ipfs-page.ts'), 'ipfs-page.js');
  [pages, browser] = await Promise.all([
    servePages({
      'ipfs-e2e/index.html': testPageHtml('Opalite IPFS e2e', ['/ipfs-e2e/ipfs-page.js']),
      'ipfs-e2e/ipfs-page.js': { copyFrom: bundle }
    }),
    launchBrowser()
  ]);
  page = await (await browser.newContext()).newPage();
  page.on('pageerror', (error) => console.error('[ipfs page]', error));
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/sandbox/v1/ipfs/')) return;
    ipfsCalls.push({ method: response.request().method(), path: url.pathname, status: response.status(), fromServiceWorker: response.fromServiceWorker() });
  });
  // First navigation of a fresh context: the preview server serves the page, then the app's worker claims it.
  await page.goto(`${pages.preview.url}ipfs-e2e/`);
  await page.waitForFunction(() => 'opaliteIpfsE2E' in window);
  expect(await controlByAppWorker(page)).toBe(`${pages.preview.url}service-worker.js`);
  origin = new URL(pages.preview.url).origin;
});

afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

function run(name: string, input: Record<string, string> = {}): Promise<any> {
  return page.evaluate(([n, i]) => window.opaliteIpfsE2E.run(n, i), [name, input] as const);
}

/** The page's `patternBytes`, made here to compute the CID it must get. */
function patternBytes(size: number): Uint8Array {
  return Uint8Array.from({ length: size }, (_, i) => (i * 31 + (i >>> 9)) & 0xff);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('the SDK ipfs section through the service worker', () => {
  it('uploadFile: the CID `ipfs add` gives, the file served by the worker at fileUrl', async () => {
    const r = await run('uploadFile');
    expect(r.answer).toEqual({ cid: 'Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD', fileUrl: `${origin}/ipfs/Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD` });
    expect(r.file).toMatchObject({ status: 200, host: 'service-worker', type: 'text/plain', text: 'hello world' });
  });

  it('uploadFile of 5 MiB: the chunked CID, and the same bytes back', async () => {
    const bytes = patternBytes(5 * 1024 * 1024);
    const r = await run('uploadLargeFile', { size: String(bytes.length) });
    expect(r.answer.cid).toBe(await referenceFile(bytes));
    expect(r.file).toMatchObject({ status: 200, size: bytes.length, sha256: sha256(bytes) });
  });

  it('uploadFiles then addFiles: one folder, then a new folder with the file added', async () => {
    const r = await run('uploadAndAddFiles');
    const first = await referenceFolder([
      { path: 'a.txt', content: utf8('apple') },
      { path: 'b.txt', content: utf8('banana') }
    ]);
    const added = await referenceFolder([
      { path: 'a.txt', content: utf8('apple') },
      { path: 'b.txt', content: utf8('banana') },
      { path: 'c.txt', content: utf8('cherry') }
    ]);
    expect(r.first).toEqual({ cid: first, fileUrl: `${origin}/ipfs/${first}` });
    expect(r.added).toEqual({ cid: added, fileUrl: `${origin}/ipfs/${added}` });
    expect(r.a).toMatchObject({ status: 200, host: 'service-worker', type: 'text/plain', text: 'apple' });
    expect(r.c).toMatchObject({ status: 200, text: 'cherry' });
    expect(r.cInFirst).toBe(404);
    expect(r.listing.links.map((l: { name: string }) => l.name)).toEqual(['a.txt', 'b.txt', 'c.txt']);
  });

  it("uploadZip: the archive's files under one folder CID", async () => {
    const r = await run('uploadZip', { zip: Buffer.from(readFixture('nested.zip')).toString('base64') });
    const folder = await referenceFolder(NESTED_ZIP_ENTRIES);
    expect(r.answer).toEqual({ cid: folder, fileUrl: `${origin}/ipfs/${folder}` });
    expect(r.readme).toMatchObject({ status: 200, type: 'text/plain', text: README_TEXT });
    expect(r.png).toMatchObject({ status: 200, type: 'image/png', sha256: sha256(PNG_1X1) });
  });

  it('serves ?thumb=256 of an uploaded picture as a WebP drawn by the worker at most 256 px on its longer side; a small one as it is', async () => {
    const r = await run('thumbnails');
    expect(r.png.thumb).toMatchObject({ status: 200, type: 'image/webp', width: 256, height: 128 });
    expect(r.jpeg.thumb).toMatchObject({ status: 200, type: 'image/webp', width: 171, height: 256 });
    expect(r.png.thumb.bytes).toBeLessThan(r.png.original);
    expect(r.small.thumb).toMatchObject({ status: 200, type: 'image/png', width: 100, height: 80, bytes: r.small.original });
  });

  it('rejects with the service errors (ApiError from the envelope)', async () => {
    const r = await run('errors');
    expect(r.unknownFolder).toMatchObject({ name: 'NotFoundError', code: 'UN01008' });
    expect(r.notAZip).toMatchObject({ name: 'ValidationError', code: 'UN01004' });
    expect(r.twice).toMatchObject({ name: 'ValidationError', message: expect.stringMatching(/twice/) });
  });

  it('was answered by the worker on the real paths, with 201 for POST and 200 for PATCH', () => {
    const seen = new Set(ipfsCalls.filter((c) => c.status < 400).map((c) => `${c.method} ${c.path} ${c.status}`));
    expect([...seen].sort()).toEqual([
      'PATCH /sandbox/v1/ipfs/add-files 200',
      'POST /sandbox/v1/ipfs/upload-file 201',
      'POST /sandbox/v1/ipfs/upload-files 201',
      'POST /sandbox/v1/ipfs/upload-zip 201'
    ]);
    expect(ipfsCalls.every((c) => c.fromServiceWorker)).toBe(true);
  });
});
