// A new version: it installs in the background and waits; the page offers to reload; accepting
// switches to it. The ledger is untouched. (The "new version" is the same build with another
// version name in service-worker.js, which is all a browser needs to see an update.)
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { RunningPreview } from '../../server/preview';
import { BUILD_DIR, call, createCollection, launchBrowser, openControlled, serveApp, tempDir } from './support';

let browser: Browser;
let app: RunningPreview;
let page: Page;
const root = tempDir('opalite-site-');

beforeAll(async () => {
  cpSync(BUILD_DIR, root, { recursive: true });
  [browser, app] = await Promise.all([launchBrowser(), serveApp(root)]);
  page = await openControlled(await browser.newContext(), app.url);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('updating the app', () => {
  it('offers the waiting version, switches on request, and keeps the ledger', async () => {
    const collectionId = await createCollection(page, 'Survives updates');
    const genesis = (await call(page, 'GET', '/sandbox/v1/dev/status')).json.genesisHash;

    const { version } = JSON.parse(readFileSync(join(root, '_app', 'version.json'), 'utf8')) as { version: string };
    const newer = String(Number(version) + 1000);
    const worker = join(root, 'service-worker.js');
    writeFileSync(worker, readFileSync(worker, 'utf8').replaceAll(JSON.stringify(version), JSON.stringify(newer)));

    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const prompt = page.getByRole('alert').filter({ hasText: 'A new version of Opalite is ready' });
    await prompt.waitFor({ timeout: 180_000 });
    // Until the person accepts, the old worker still answers.
    expect((await call(page, 'GET', '/sandbox/v1/dev/status')).json.appVersion).toBe(version);

    await Promise.all([page.waitForEvent('load', { timeout: 180_000 }), prompt.getByRole('button', { name: 'Reload to update' }).click()]);
    await page.locator('[data-host="service-worker"]').waitFor({ timeout: 180_000 });
    const status = await call(page, 'GET', '/sandbox/v1/dev/status');
    expect(status.json.appVersion).toBe(newer);
    expect(status.json.genesisHash).toBe(genesis);
    expect((await call(page, 'GET', `/sandbox/v1/collections?collectionId=${collectionId}`)).json.name).toBe('Survives updates');
    // This page is the older build, and it says so rather than pretending.
    await expect.poll(() => page.locator('[data-testid="version-notice"]').textContent()).toContain('A newer version of Opalite');
    // The old version's cache is gone.
    expect(await page.evaluate(() => caches.keys())).toEqual([`opalite-shell-${newer}`]);
  });
});
