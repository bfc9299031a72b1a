// The explorer offline: once the worker is installed, its pages open with no network at all (the
// server that served the app gone), read the ledger in the browser, and show what an extrinsic
// changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningPreview } from '../../server/preview';
import { createCollection, closeAppSession, mint, openAppSession } from './support';

let browser: Browser;
let app: RunningPreview;
let context: BrowserContext;
let page: Page;

beforeAll(async () => ({ browser, app, context, page } = await openAppSession()));
afterAll(() => closeAppSession({ browser, app }));

describe('the explorer offline', () => {
  it('opens blocks, a block, an extrinsic with its changes, and search, with no network', async () => {
    const collectionId = await createCollection(page, 'Seen offline');
    await mint(page, collectionId, { name: { _: 'Offline token' } });

    await context.setOffline(true);
    await app.close();
    // Really offline: the static server cannot be reached.
    expect(await page.evaluate(() => fetch(`/_app/version.json?${Math.random()}`).then(() => 'reached', () => 'unreachable'))).toBe('unreachable');

    // A navigation straight to the explorer gets the shell and the page's code from the worker.
    await page.goto(`${app.url}explorer`);
    const rows = page.getByTestId('block-row');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.first().getByRole('rowheader').textContent()).toBe('2');

    await rows.first().getByRole('link', { name: '2' }).click();
    await page.getByRole('heading', { level: 1, name: 'Block 2' }).waitFor();
    await page.getByTestId('block-extrinsic').getByRole('link', { name: 'Mint a token' }).click();
    await page.getByRole('heading', { level: 1, name: 'Mint a token' }).waitFor();
    const changes = page.getByRole('group', { name: 'What it changed' });
    await expect.poll(() => changes.getByRole('region', { name: 'Alice' }).textContent()).toContain('Gets a new token #1 of collection “Seen offline”');

    await page.getByLabel('Search the explorer').fill('1');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('list', { name: 'Search results' }).getByRole('link', { name: 'Block 1' }).click();
    await page.getByRole('heading', { level: 1, name: 'Block 1' }).waitFor();
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await context.setOffline(false);
  });
});
