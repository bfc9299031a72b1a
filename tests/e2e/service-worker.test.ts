// The REST contract through the service worker: a page's plain fetch to /sandbox/v1 is answered
// by the worker from IndexedDB, custodial signing included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningPreview } from '../../server/preview';
import { DB_SCHEMA_VERSION } from '../../src/lib/storage/schema';
import { ALICE, BOB, call, closeAppSession, createCollection, mint, openAppSession, stopServiceWorkers, submit } from './support';

let browser: Browser;
let app: RunningPreview;
let context: BrowserContext;
let page: Page;

beforeAll(async () => ({ browser, app, context, page } = await openAppSession()));
afterAll(() => closeAppSession({ browser, app }));

describe('the REST API through the service worker', () => {
  it('greets the page with the same build and schema (no notice)', async () => {
    await expect.poll(() => page.locator('[data-testid="head-block"]').textContent()).toBe('0');
    expect(await page.locator('[data-testid="version-notice"]').count()).toBe(0);
    const status = await call(page, 'GET', '/sandbox/v1/dev/status');
    expect(status.status).toBe(200);
    expect(status.host).toBe('service-worker');
    expect(status.json).toMatchObject({ host: 'service-worker', network: 'sandbox', dbSchemaVersion: DB_SCHEMA_VERSION, head: { number: 0 } });
  });

  it('creates a collection custodially, mints, and reads both back', async () => {
    const collectionId = await createCollection(page, 'Worker opals');
    expect(collectionId).toBe(1);
    const tokenId = await mint(page, collectionId, { name: 'First opal', image: { url: 'https://example.com/opal.png' } });
    expect(tokenId).toBe(1);

    const collection = await call(page, 'GET', `/sandbox/v1/collections?collectionId=${collectionId}`);
    expect(collection.host).toBe('service-worker');
    expect(collection.json).toMatchObject({ id: 1, owner: ALICE, name: 'Worker opals', mode: 'NFT' });
    const token = await call(page, 'GET', `/sandbox/v1/tokens?collectionId=${collectionId}&tokenId=${tokenId}`);
    expect(token.status).toBe(200);
    expect(token.json).toMatchObject({ collectionId: 1, tokenId: 1, owner: ALICE, image: { url: 'https://example.com/opal.png' } });
    // Singular roots and the unversioned base answer the same.
    expect((await call(page, 'GET', `/sandbox/token?collectionId=1&tokenId=1`)).json.owner).toBe(ALICE);

    const transfer = await submit(page, '/sandbox/v1/tokens/transfer', { address: ALICE, to: BOB, collectionId, tokenId }, '//Alice', 'PATCH');
    expect(transfer.isError).toBe(false);
    expect((await call(page, 'GET', `/sandbox/v1/tokens/owner?collectionId=1&tokenId=1`)).json).toMatchObject({ owner: BOB });
    // The page heard the blocks on the ledger channel.
    await expect.poll(() => page.locator('[data-testid="head-block"]').textContent()).toBe('3');
    // The first block holding a user's extrinsic made the page ask for persistent storage.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('opalite.persist-asked'))).not.toBeNull();
  });

  it('starts again after the browser stopped it, reopening the database lazily', async () => {
    const before = (await call(page, 'GET', '/sandbox/v1/dev/status')).json;
    await stopServiceWorkers(page);
    const after = await call(page, 'GET', '/sandbox/v1/dev/status');
    expect(after.host).toBe('service-worker');
    expect(after.json).toMatchObject({ genesisHash: before.genesisHash, head: before.head });
    expect(await createCollection(page, 'After a restart')).toBe(2);
  });

  it('answers errors in the envelope, and the OpenAPI document', async () => {
    const missing = await call(page, 'GET', '/sandbox/v1/tokens?collectionId=99&tokenId=1');
    expect(missing.status).toBeGreaterThanOrEqual(400);
    expect(missing.json.error).toMatchObject({ code: expect.any(String), name: expect.any(String) });
    const unknown = await call(page, 'GET', '/sandbox/v1/no/such/route');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.name).toBe('NotFoundError');
    const openapi = await call(page, 'GET', '/sandbox/v1/openapi.json');
    expect(openapi.json.paths['/sandbox/v1/dev/export']).toBeDefined();
    expect(openapi.json.paths['/sandbox/v1/ipfs/upload-file']).toBeDefined();
  });

  it('serves page routes with the app shell and lets other requests through', async () => {
    const other = await context.newPage();
    const shell = await other.goto(`${app.url}collections/1`);
    expect(shell?.status()).toBe(200);
    expect(await other.title()).toContain('Opalite');
    expect(await other.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    // A navigation to the API shows its JSON, not the app.
    const json = await other.goto(`${app.url}sandbox/v1/collections?collectionId=1`);
    expect(json?.headers()['content-type']).toMatch(/application\/json/);
    await other.close();
  });
});
