// A full quota: the write that does not fit answers 507 StorageFullError and leaves the ledger
// as it was; smaller writes go on working. (The quota is lowered with the DevTools protocol.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { RunningPreview } from '../../server/preview';
import { call, createCollection, launchBrowser, serveApp, waitForWorker } from './support';

let browser: Browser;
let app: RunningPreview;
let page: Page;

beforeAll(async () => {
  [browser, app] = await Promise.all([launchBrowser(), serveApp()]);
  const context = await browser.newContext();
  page = await context.newPage();
  // Room for the app (precache and worker, about 2.5 MB) and a small ledger, not much more.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: app.url.replace(/\/$/, ''), quotaSize: 5 * 1024 * 1024 });
  await page.goto(app.url);
  await waitForWorker(page);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('a full quota', () => {
  it('refuses an upload that does not fit with 507, and keeps working', async () => {
    const big = await page.evaluate(async () => {
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(8 * 1024 * 1024).fill(7)], { type: 'application/octet-stream' }), 'big.bin');
      const response = await fetch('/sandbox/v1/ipfs/upload-file', { method: 'POST', body: form });
      return { status: response.status, json: await response.json() };
    });
    expect(big.status).toBe(507);
    expect(big.json.error).toMatchObject({ name: 'StorageFullError', code: 'UN01020' });
    expect(big.json.error.message).toMatch(/storage for this site is full/);
    expect(await createCollection(page, 'Still fits')).toBe(1);
  });

  it('refuses an import that does not fit with 507 and keeps the ledger as it was', async () => {
    const before = await call(page, 'GET', '/sandbox/v1/dev/export');
    const snapshot = JSON.parse(before.text);
    // Padding the export with 60,000 funded accounts: several megabytes of rows.
    for (let i = 0; i < 60_000; i++) snapshot.tables.accounts.push({ address: `pad-${i}-${'x'.repeat(60)}`, free: { $bigint: '1' }, nonce: 0 });
    const answer = await call(page, 'POST', '/sandbox/v1/dev/import', JSON.stringify(snapshot));
    expect(answer.status, answer.text.slice(0, 300)).toBe(507);
    expect(answer.json.error.name).toBe('StorageFullError');
    const after = await call(page, 'GET', '/sandbox/v1/dev/export');
    expect(JSON.parse(after.text).tables).toEqual(JSON.parse(before.text).tables);
    expect((await call(page, 'GET', '/sandbox/v1/collections?collectionId=1')).json.name).toBe('Still fits');
  });
});
