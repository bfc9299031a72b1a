// The app on a 390x844 phone (issue 10, item 8): a header of one short row, the navigation behind
// a menu button, and a sign dialog whose main button stays on screen however long the call is.
// Screenshots of the home, mint and token pages at phone and desktop sizes go to test-results/.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPreview } from '../../server/preview';
import { DESKTOP, PHONE, asAlice, axeViolations, smallTapTargets, createAccount, fundFromAlice, launchBrowser, screenshotPath, serveApp, watchErrors } from './support';

const PASSWORD = 'phone password 1';
const MAX_HEADER_PX = 64;

describe('phone layout', () => {
  let preview: RunningPreview;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    preview = await serveApp();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: DESKTOP });
    page = await context.newPage();
    errors = watchErrors(page);
    await page.goto(preview.url);
    await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, null, { timeout: 180_000 });
    await createAccount(page, 'Pia', PASSWORD);
    await fundFromAlice(page, 'Pia');
    await asAlice(page, 'POST', '/collections', { name: 'Pocket', description: 'Made on a phone', tokenPrefix: 'PKT' });
    await asAlice(page, 'POST', '/tokens/create-multiple', { collectionId: 1, tokens: [{}] });
  });

  afterAll(async () => {
    await browser?.close();
    await preview?.close();
  });

  it('keeps the header to one short row and folds the navigation behind a menu button', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(preview.url);
    await page.getByRole('heading', { name: 'Opalite', level: 1 }).waitFor();
    const header = await page.getByRole('banner').boundingBox();
    expect(header!.height).toBeLessThanOrEqual(MAX_HEADER_PX);

    const menu = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.getByRole('link', { name: 'Collections' }).isVisible()).toBe(false);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    // Open, the menu lies over the page: the header row itself does not grow.
    expect((await page.getByRole('banner').boundingBox())!.height).toBeLessThanOrEqual(MAX_HEADER_PX);
    await nav.getByRole('link', { name: 'Collections' }).click();
    await page.getByRole('heading', { name: 'Collections', level: 1 }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');

    // Escape closes it too.
    await menu.click();
    await nav.getByRole('link', { name: 'Home' }).waitFor();
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');

    // The desktop shows the navigation itself and no menu button.
    await page.setViewportSize(DESKTOP);
    expect(await menu.isVisible()).toBe(false);
    expect(await nav.getByRole('link', { name: 'Collections' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it("shows the sign dialog's main button without scrolling, even for a long call", async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${preview.url}collections/new`);
    await page.getByLabel('Name', { exact: true }).fill('A collection with a long story');
    await page.getByLabel('Token prefix').fill('LONG');
    await page.getByLabel('Description').fill('A description long enough to make the call arguments run over many lines. '.repeat(3).slice(0, 250));
    await page.getByRole('button', { name: 'Create collection' }).click();

    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Password of Pia').waitFor();
    // Everything the call says, unfolded: more than a phone screen holds.
    const args = dialog.getByText('Call arguments', { exact: true });
    if (!(await dialog.locator('details[open]').count())) await args.click();
    const overflows = await dialog.evaluate((element) => [...element.querySelectorAll('*')].some((node) => node.scrollHeight > node.clientHeight + 1 && getComputedStyle(node).overflowY === 'auto'));
    expect(overflows, 'the dialog content is longer than the screen').toBe(true);

    const sign = dialog.getByRole('button', { name: 'Sign and submit' });
    const box = (await sign.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    const violations = await axeViolations(page);
    expect(violations!.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await page.screenshot({ path: screenshotPath('phone-sign-dialog-phone') });

    // Clicked where it is, as a thumb would: the collection is created.
    await dialog.getByLabel('Password of Pia').fill(PASSWORD);
    await sign.click();
    await dialog.waitFor({ state: 'hidden', timeout: 90_000 });
    expect(errors).toEqual([]);
  });

  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP]
  ] as const) {
    it(`lays out the home, mint and token pages at ${size} size (${viewport.width}x${viewport.height})`, async () => {
      await page.setViewportSize(viewport);
      for (const [name, path, heading] of [
        ['home', '', 'Opalite'],
        ['mint', 'collections/1/mint', /Mint/],
        ['token', 'collections/1/tokens/1', 'Token 1']
      ] as const) {
        await page.goto(`${preview.url}${path}`);
        await page.getByRole('heading', { name: heading, level: 1 }).first().waitFor();
        // Nothing wider than the screen: no sideways scrolling on a phone.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        const violations = await axeViolations(page);
        expect(violations!.filter((v) => v.impact === 'serious' || v.impact === 'critical'), name).toEqual([]);
        // A thumb's targets: at least 24 by 24 px (WCAG 2.2's 2.5.8 as axe judges it, and without its spacing exception).
        if (size === 'phone') {
          expect((await axeViolations(page, ['target-size']))!.flatMap((v) => v.targets), name).toEqual([]);
          expect(await smallTapTargets(page), name).toEqual([]);
        }
        await page.screenshot({ path: screenshotPath(`phone-layout-${name}-${size}`), fullPage: true });
      }
      expect(errors).toEqual([]);
    });
  }
});
