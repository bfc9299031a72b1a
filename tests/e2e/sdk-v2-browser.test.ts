// The schema-2, collection-extras and state-query scenarios of the real @unique-nft/sdk 0.7.7
// client, run inside a page on the app's origin that the service worker controls (the contract
// suites run the same scenarios against the Node host, with the same expectations).
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byGroup as stateQueryGroups } from '../support/sdk-state-query-expectations';
import { byGroup as v2Groups, describeExpectations } from '../support/sdk-v2-expectations';
import { PROJECT_ROOT } from './paths';
import { launchBrowser } from './support';
import { bundleBrowserEntry, controlByAppWorker, servePages, testPageHtml, type ServedPages } from './test-pages';

let browser: Browser;
let page: Page;
let pages: ServedPages;

/** Every /sandbox response the page saw: who answered it. */
const apiResponses: { url: string; fromServiceWorker: boolean; host: string | undefined }[] = [];

beforeAll(async () => {
  const bundle = await bundleBrowserEntry(join(PROJECT_ROOT, 'tests/e2e/fixtures/sdk-v2-page.ts'), 'sdk-v2-page.js');
  [pages, browser] = await Promise.all([
    servePages({
      'sdk-v2-e2e/index.html': testPageHtml('Opalite SDK v2 e2e', ['/sdk-v2-e2e/sdk-v2-page.js']),
      'sdk-v2-e2e/sdk-v2-page.js': { copyFrom: bundle }
    }),
    launchBrowser()
  ]);
  page = await (await browser.newContext()).newPage();
  page.on('pageerror', (error) => console.error('[sdk v2 page]', error));
  page.on('response', (response) => {
    if (!new URL(response.url()).pathname.startsWith('/sandbox/')) return;
    apiResponses.push({ url: response.url(), fromServiceWorker: response.fromServiceWorker(), host: response.headers()['x-opalite-host'] });
  });
  await page.goto(`${pages.preview.url}sdk-v2-e2e/`);
  await page.waitForFunction(() => 'opaliteSdkV2E2E' in window);
  await controlByAppWorker(page);
});

afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

function run(name: string): Promise<any> {
  return page.evaluate((n) => (window as any).opaliteSdkV2E2E.run(n), name);
}

describeExpectations(new Map([...v2Groups(), ...stateQueryGroups()]), run);

describe('who answered', () => {
  it('the service worker answered every request of the client', () => {
    expect(apiResponses.length).toBeGreaterThan(50);
    expect(apiResponses.filter((r) => !r.fromServiceWorker || r.host !== 'service-worker')).toEqual([]);
  });
});
