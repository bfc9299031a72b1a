// The main pages at phone (390×844) and desktop (1280×800) sizes: a screenshot of each under
// test-results/screenshots/, no sideways scrolling on a phone, every control with an accessible
// name, and axe-core's WCAG A/AA rules (no serious or critical violations).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPreview } from '../../server/preview';
import { DESKTOP, PHONE, asAlice, axeViolations, createAccount, fundFromAlice, launchBrowser, screenshotPath, serveApp, unnamedControls, watchErrors } from './support';

const PASSWORD = 'screens-pass-1';

interface Screen {
  name: string;
  path: string;
  /** Visible once the page has its data. */
  ready: (page: Page) => Promise<unknown>;
  prepare?: (page: Page) => Promise<unknown>;
}

const SCREENS: Screen[] = [
  { name: 'home', path: '/', ready: (p) => p.getByTestId('head-block').waitFor() },
  { name: 'accounts', path: '/accounts', ready: (p) => p.getByTestId('balance').waitFor() },
  { name: 'wallet', path: '/wallet', ready: (p) => Promise.all(['No NFTs.', 'No pieces of refungible tokens.', 'No fungible balances.'].map((t) => p.getByText(t).waitFor())) },
  { name: 'history', path: '/wallet/history', ready: (p) => p.getByTestId('history-item').first().waitFor() },
  {
    name: 'collections',
    path: '/collections',
    prepare: (p) => p.getByRole('button', { name: 'All', exact: true }).click(),
    ready: (p) => p.getByRole('list', { name: 'All collections' }).getByRole('listitem').first().waitFor()
  },
  { name: 'collection', path: '/collections/1', ready: (p) => p.getByRole('list', { name: 'Tokens' }).getByRole('link').nth(2).waitFor() },
  { name: 'mint', path: '/collections/1/mint', ready: (p) => p.getByRole('button', { name: 'Mint token' }).waitFor() },
  { name: 'token', path: '/collections/1/tokens/2', ready: (p) => p.getByRole('tree').waitFor() },
  { name: 'extrinsics', path: '/extrinsics', ready: (p) => p.getByTestId('extrinsic').nth(3).waitFor() },
  { name: 'network', path: '/network', ready: (p) => p.getByTestId('reachability').getByText('yes').waitFor() },
  { name: 'api', path: '/api', ready: (p) => p.getByRole('heading', { name: /REST API v1/ }).waitFor() }
];

describe('screens', () => {
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

    // A person's account, and a small world made by //Alice (signed in the test, sent by the page).
    await createAccount(page, 'Ada', PASSWORD);
    await fundFromAlice(page, 'Ada');
    const image = await page.evaluate(async () => {
      const canvas = Object.assign(document.createElement('canvas'), { width: 64, height: 64 });
      const g = canvas.getContext('2d')!;
      const gradient = g.createLinearGradient(0, 0, 64, 64);
      gradient.addColorStop(0, '#5b3fd6');
      gradient.addColorStop(1, '#f0a');
      g.fillStyle = gradient;
      g.fillRect(0, 0, 64, 64);
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
      const form = new FormData();
      form.set('file', blob, 'art.png');
      return (await (await fetch('/sandbox/v1/ipfs/upload-file', { method: 'POST', body: form })).json()).cid as string;
    });
    const schema = {
      schemaName: 'unique',
      schemaVersion: '1.0.0',
      image: { urlTemplate: '{infix}' },
      coverPicture: { ipfsCid: image },
      attributesSchemaVersion: '1.0.0',
      attributesSchema: { '0': { name: { _: 'color' }, type: 'string', optional: true } }
    };
    await asAlice(page, 'POST', '/collections', {
      name: 'Gallery',
      description: 'Screens of Opalite',
      tokenPrefix: 'GAL',
      schema,
      permissions: { nesting: { tokenOwner: true } }
    });
    await asAlice(page, 'POST', '/tokens/create-multiple', {
      collectionId: 1,
      tokens: ['Sun', 'Moon', 'Star'].map((name, i) => ({ data: { name: { _: name }, image: { ipfsCid: image }, attributes: { color: ['gold', 'silver', 'white'][i] } } }))
    });
    await asAlice(page, 'POST', '/tokens/nest', { parent: { collectionId: 1, tokenId: 1 }, nested: { collectionId: 1, tokenId: 2 } });
  });

  afterAll(async () => {
    await browser?.close();
    await preview?.close();
  });

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE]
  ] as const) {
    it(`renders every main page at ${size} size (${viewport.width}×${viewport.height})`, async () => {
      await page.setViewportSize(viewport);
      const problems: string[] = [];
      for (const screen of SCREENS) {
        await page.goto(`${preview.url}${screen.path.slice(1)}`);
        await screen.prepare?.(page);
        await screen.ready(page);
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: screenshotPath(`${screen.name}-${size}`), fullPage: true });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (overflow > 1) problems.push(`${screen.name}: scrolls sideways by ${overflow}px`);
        for (const line of await unnamedControls(page)) problems.push(`${screen.name}: a control without a name: ${line}`);
      }
      // The sign dialog too.
      await page.goto(`${preview.url}collections/new`);
      await page.getByLabel('Name', { exact: true }).fill('Shot');
      await page.getByLabel('Token prefix').fill('SH');
      await page.getByRole('button', { name: 'Create collection' }).click();
      await page.getByRole('dialog').getByLabel('Password of Ada').waitFor();
      await page.screenshot({ path: screenshotPath(`sign-dialog-${size}`) });
      for (const line of await unnamedControls(page)) problems.push(`sign dialog: a control without a name: ${line}`);
      await page.keyboard.press('Escape');
      expect(problems).toEqual([]);
      expect(errors).toEqual([]);
    });
  }

  it('passes axe-core’s WCAG A and AA rules on every main page', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(preview.url);
    expect(await axeViolations(page), 'axe-core (a dev dependency through @axe-core/playwright) must be installed').not.toBeNull();
    const found: string[] = [];
    for (const screen of SCREENS) {
      await page.goto(`${preview.url}${screen.path.slice(1)}`);
      await screen.prepare?.(page);
      await screen.ready(page);
      for (const v of (await axeViolations(page)) ?? []) {
        if (v.impact === 'serious' || v.impact === 'critical') found.push(`${screen.name}: ${v.id} (${v.impact}, ${v.nodes} nodes): ${v.help}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('signs with the keyboard alone', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`${preview.url}collections/new`);
    await page.getByLabel('Name', { exact: true }).fill('Typed');
    await page.getByLabel('Token prefix').fill('TY');
    await page.getByLabel('Token prefix').press('Enter');
    // The dialog opens with the focus in its password field; Enter signs.
    const password = page.getByRole('dialog').getByLabel('Password of Ada');
    await expect.poll(() => password.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(PASSWORD);
    // Sign is armed a moment after the dialog shows what it signs: an Enter before then does nothing.
    await page.getByRole('dialog').getByRole('button', { name: 'Sign and submit' }).and(page.locator(':enabled')).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/collections\/2$/);
    await page.getByRole('heading', { level: 1, name: 'Typed' }).waitFor();
    // Unlocked now: the next dialog gives its sign button the focus once armed, Enter approves.
    await page.getByRole('link', { name: 'Mint tokens' }).click();
    await page.getByRole('radio', { name: 'No image' }).check();
    await page.getByLabel('Token name').fill('Keyed');
    await page.getByLabel('Token name').press('Enter');
    const sign = page.getByRole('dialog').getByRole('button', { name: 'Sign and submit' });
    await expect.poll(() => sign.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/collections\/2\/tokens\/1$/);
    await page.getByRole('heading', { level: 1, name: 'Keyed' }).waitFor();
  });
});
