// Issue 19, part 1, as a person meets it: a collection of 300 tokens (minted over REST, quickly)
// searched, filtered and sorted by a whole-number attribute over the whole collection; the grid
// keeps only what is in view in the page; a token opened from a filtered, scrolled grid, and Back
// returns to the same place with the same filters.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPreview } from '../../server/preview';
import { DESKTOP, asAlice, launchBrowser, serveApp, watchErrors } from './support';

const TOKENS = 300;
const BACKGROUNDS = ['red', 'blue', 'green', 'gold'];

describe('the gallery of a few hundred tokens', () => {
  let preview: RunningPreview;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let collectionUrl: string;

  const grid = () => page.getByRole('list', { name: 'Tokens' });
  const names = async () => (await grid().locator('.name').allTextContents()).map((t) => t.trim());
  const status = () => page.getByTestId('gallery-status').textContent();

  beforeAll(async () => {
    preview = await serveApp();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    errors = watchErrors(page);
    await page.goto(preview.url);
    // The built-in ledger answers once the app has started its host.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 180_000 });
    const { collectionId } = await asAlice(page, 'POST', '/collections', {
      name: 'Birds',
      description: 'A flock',
      tokenPrefix: 'BRD',
      schema: {
        schemaName: 'unique',
        schemaVersion: '1.0.0',
        coverPicture: { url: 'https://img.example/cover.png' },
        image: { urlTemplate: 'https://img.example/{infix}.png' },
        attributesSchemaVersion: '1.0.0',
        attributesSchema: { '0': { name: { _: 'Background' }, type: 'string' }, '1': { name: { _: 'Level' }, type: 'string' } }
      }
    });
    for (let first = 1; first <= TOKENS; first += 120) {
      const tokens = Array.from({ length: Math.min(120, TOKENS - first + 1) }, (_, i) => {
        const n = first + i;
        // Level counts down, so number order and text order ("10" before "2") differ.
        return { data: { name: `Bird #${n}`, image: { urlInfix: `b${n}` }, attributes: { Background: BACKGROUNDS[n % 4], Level: String(TOKENS + 1 - n) } } };
      });
      await asAlice(page, 'POST', '/tokens/create-multiple', { collectionId, tokens });
    }
    collectionUrl = `${preview.url}collections/${collectionId}`;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await preview?.close();
  });

  it('searches, filters and sorts numbers as numbers over all the tokens, keeping only the visible ones in the page', async () => {
    await page.goto(collectionUrl);
    await expect.poll(status).toBe(`${TOKENS} tokens`);
    // Virtualised: a few rows are in the page, not 300 cells.
    const cells = await grid().getByRole('link').count();
    expect(cells).toBeGreaterThan(0);
    expect(cells).toBeLessThan(100);

    await page.getByLabel('Search by name').fill('bird #25');
    await expect.poll(status).toBe(`11 of ${TOKENS} tokens match`);
    expect(await names()).toEqual(['Bird #25', ...Array.from({ length: 10 }, (_, i) => `Bird #${250 + i}`)]);
    await page.getByLabel('Search by name').fill('');

    await page.getByLabel('Background', { exact: true }).selectOption({ label: 'gold (75)' });
    await page.getByLabel('Sort by').selectOption({ label: 'Level (number)' });
    await expect.poll(async () => (await names()).slice(0, 3)).toEqual(['Bird #299', 'Bird #295', 'Bird #291']);
    expect(await status()).toBe(`75 of ${TOKENS} tokens match`);
    expect(errors).toEqual([]);
  });

  it('opens a token from a scrolled, filtered grid and Back returns to the same place and filters', async () => {
    await page.goto(collectionUrl);
    await page.getByLabel('Background', { exact: true }).selectOption({ label: 'red (75)' });
    await expect.poll(status).toBe(`75 of ${TOKENS} tokens match`);
    const target = grid().getByRole('link', { name: 'Bird #200 (token 200)' });
    // Scroll the grid with the wheel until the token shows, as a person would.
    await grid().hover();
    for (let i = 0; i < 40 && !(await target.isVisible()); i++) await page.mouse.wheel(0, 300);
    await target.scrollIntoViewIfNeeded();
    const scroller = grid().locator('..');
    /** Where the token sits in the grid's visible area. */
    const place = async () => (await target.boundingBox())!.y - (await scroller.boundingBox())!.y;
    const before = await place();
    const height = (await target.boundingBox())!.height;
    await target.click();
    await page.waitForURL(/\/tokens\/200$/);
    await page.goBack();
    await expect.poll(status).toBe(`75 of ${TOKENS} tokens match`);
    expect(await page.getByLabel('Background', { exact: true }).inputValue()).toBe('red');
    await expect.poll(() => target.isVisible()).toBe(true);
    // The same row of the grid is in view, within one row of where it was.
    expect(Math.abs((await place()) - before)).toBeLessThan(height);
    expect(await target.isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });
});
