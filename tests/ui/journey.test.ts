// A new creator's first session, as a person would go through it: an account, funding, a
// collection with a schema, tokens (one with an uploaded image, three from a file), nesting with
// the bundle tree, a property, a transfer, a refused burn in words, the extrinsics log; then the
// same app with no network at all after a reload: it opens, reads and writes.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPreview } from '../../server/preview';
import { BOB, approve, createAccount, fundFromAlice, launchBrowser, nav, png, serveApp, setting, watchErrors } from './support';

const PASSWORD = 'correct horse battery';

describe('a new creator', () => {
  let preview: RunningPreview;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    preview = await serveApp();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = await context.newPage();
    errors = watchErrors(page);
  });

  afterAll(async () => {
    await browser?.close();
    await preview?.close();
  });

  it('creates an account, funds it, builds a collection and follows every step', async () => {
    await page.goto(preview.url);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Opalite');

    // ---- keys ----
    await nav(page, 'Accounts');
    await expect.poll(() => page.getByRole('note', { name: 'Sandbox notice' }).textContent()).toMatch(/sandbox[\s\S]*development keys/);
    const address = await createAccount(page, 'Ada', PASSWORD);
    expect(address).toMatch(/^5[1-9A-HJ-NP-Za-km-z]{47}$/);
    const card = page.getByRole('article', { name: 'Ada' });
    expect(await card.getByTestId('lock-state').textContent()).toBe('Locked');

    await fundFromAlice(page, 'Ada');
    expect(await card.getByText('signed in this page with its public development key').count()).toBe(1);

    // ---- a collection with a schema ----
    await nav(page, 'Collections');
    await page.getByRole('link', { name: 'Create collection' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Creatures');
    await page.getByLabel('Token prefix').fill('CRT');
    await page.getByLabel('Description').fill('Small creatures, drawn by hand');
    await page.getByRole('radio', { name: 'Upload a file' }).check();
    await page.getByLabel('Image file').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: png(1) });
    await page.getByRole('button', { name: 'Add attribute' }).click();
    await page.getByLabel('Attribute 1 name').fill('color');
    await page.getByLabel('Allowed values').fill('red, green, blue');
    expect(await page.getByLabel('Token owners may nest tokens into their tokens').isChecked()).toBe(true);
    await page.getByText('Custom token properties').click();
    await page.getByRole('button', { name: 'Add property key' }).click();
    await page.getByLabel('Property key 1').fill('note');
    await page.getByRole('button', { name: 'Create collection' }).click();
    const signed = await approve(page, { password: PASSWORD, call: 'unique.createCollectionEx' });
    expect(signed.askedPassword).toBe(true);
    await page.waitForURL(/\/collections\/1$/);
    await page.getByRole('heading', { level: 1, name: 'Creatures' }).waitFor();
    expect(await (await setting(page, 'Permissions')).getByTestId('nesting-permission').textContent()).toContain('token owners may nest');
    expect(await (await setting(page, 'Limits')).getByRole('table', { name: 'Effective limits' }).getByTestId('limit-tokenLimit').textContent()).toBe('4,294,967,295');
    expect(await page.getByRole('img', { name: 'Cover of Creatures' }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);

    // ---- one token, with an uploaded image ----
    await page.getByRole('link', { name: 'Mint tokens' }).click();
    await page.getByLabel('Token name').fill('Fox');
    await page.getByLabel('Image file').setInputFiles({ name: 'fox.png', mimeType: 'image/png', buffer: png(2) });
    await page.getByLabel('color').selectOption({ label: 'red' });
    await page.getByRole('button', { name: 'Mint token' }).click();
    // The key was unlocked by the first signature: no password this time.
    expect((await approve(page, { call: 'unique.createItem' })).askedPassword).toBe(false);
    await page.waitForURL(/\/collections\/1\/tokens\/1$/);
    await page.getByRole('heading', { level: 1, name: 'Fox' }).waitFor();
    await expect.poll(() => page.getByRole('img', { name: 'Fox' }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    expect(await page.getByTestId('attributes').textContent()).toContain('red');

    // ---- three more from a CSV file, one image picked beside it ----
    await page.getByRole('link', { name: '← Creatures' }).click();
    await page.getByRole('link', { name: 'Mint tokens' }).click();
    await page.getByRole('button', { name: 'Many tokens' }).click();
    const csv = 'name,image,color\nOwl,owl.png,green\nBee,,blue\nCat,https://example.invalid/cat.png,red\n';
    await page.getByLabel('Image files').setInputFiles({ name: 'owl.png', mimeType: 'image/png', buffer: png(3) });
    await page.getByLabel('List file (CSV or JSON)').setInputFiles({ name: 'creatures.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => page.getByTestId('mint-ready').textContent()).toBe('3 tokens ready to mint.');
    await page.getByRole('button', { name: 'Mint 3 tokens' }).click();
    await approve(page, { call: 'unique.createMultipleItemsEx' });
    await expect.poll(() => page.getByTestId('minted-summary').textContent()).toContain('Minted 3 tokens: 2–4.');
    const progressOf = (name: RegExp) => page.getByRole('progressbar', { name }).evaluate((p: HTMLProgressElement) => [p.value, p.max]);
    expect(await progressOf(/^Images uploaded/)).toEqual([1, 1]);
    expect(await progressOf(/^Calls minted/)).toEqual([1, 1]);

    // ---- nest Owl (2) into Fox (1), and see the bundle ----
    await page.getByRole('link', { name: 'See them in the collection' }).click();
    await page.getByRole('list', { name: 'Tokens' }).getByRole('link', { name: 'Owl (token 2)' }).click();
    await page.getByLabel('Parent collection id').fill('1');
    await page.getByLabel('Parent token id').fill('1');
    await page.getByRole('button', { name: 'Nest token' }).click();
    expect((await approve(page)).call).toBe('unique.transferFrom');
    const tree = page.getByRole('tree', { name: 'Bundle of token 1/1' });
    await tree.waitFor();
    expect(await tree.getByRole('treeitem').count()).toBe(2);
    const owl = tree.getByRole('treeitem', { name: 'Owl, token 1/2' });
    expect(await owl.getAttribute('aria-current')).toBe('page');
    expect(await tree.getByRole('treeitem', { name: 'Fox, token 1/1, holds 1' }).getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByTestId('token-owner').textContent()).toContain('nested in token 1/1');
    // The tree by keyboard: up to the parent, Enter opens it.
    await owl.focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/tokens\/1$/);
    await page.getByRole('heading', { level: 1, name: 'Fox' }).waitFor();
    await page.getByRole('tree', { name: 'Bundle of token 1/1' }).getByRole('treeitem', { name: 'Owl, token 1/2' }).waitFor();

    // ---- a property the token owner may set ----
    await page.getByLabel('Property key').fill('note');
    await page.getByLabel('Property value').fill('first of its kind');
    await page.getByRole('button', { name: 'Set property' }).click();
    expect((await approve(page)).call).toBe('unique.setTokenProperties');
    await expect.poll(() => page.getByRole('table', { name: 'Token properties' }).textContent()).toContain('first of its kind');

    // ---- the chain would refuse to burn a token that holds another: said in words before signing ----
    await page.getByRole('button', { name: 'Burn token' }).click();
    await page.getByRole('button', { name: 'Burn for good' }).click();
    const dialog = page.getByRole('dialog');
    const refusal = dialog.getByTestId('sign-refusal');
    await expect.poll(() => refusal.textContent(), { timeout: 60_000 }).toMatch(/^Refused\. The chain would refuse this call: [\s\S]*\w+ \(\w+\.\w+\)/);
    expect(await dialog.getByRole('button', { name: 'Sign and submit' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // ---- transfer Bee (3) to Bob ----
    await page.getByRole('link', { name: '← Creatures' }).click();
    await page.getByRole('list', { name: 'Tokens' }).getByRole('link', { name: 'Bee (token 3)' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bee' }).waitFor();
    await page.getByLabel('Recipient address').fill(BOB);
    await page.getByRole('button', { name: 'Transfer token' }).click();
    expect((await approve(page)).call).toBe('unique.transferFrom');
    await expect.poll(() => page.getByTestId('token-owner').textContent()).toContain('5FHneW…94ty');

    // ---- every step in the extrinsics log ----
    await nav(page, 'Extrinsics');
    const log = page.getByRole('list', { name: 'Extrinsics' });
    await log.waitFor();
    // The refused burn was never signed, so it is not in the log.
    await expect.poll(() => log.getByTestId('extrinsic').count()).toBe(7);
    const text = (await log.textContent()) ?? '';
    for (const step of [
      /Fund 5\w+… with 1000 from \/\/Alice\s*InBlock/,
      /Create collection “Creatures”\s*InBlock/,
      /Mint “Fox” in collection 1\s*InBlock/,
      /Mint 3 tokens in collection 1\s*InBlock/,
      /Nest token 1\/2 into token 1\/1\s*InBlock/,
      /Set property “note” of token 1\/1\s*InBlock/,
      /Transfer token 1\/3\s*InBlock/
    ]) {
      expect(text).toMatch(step);
    }
    // One entry opened: the decoded call, the result and the events.
    const mintMany = log.getByTestId('extrinsic').filter({ hasText: 'Mint 3 tokens' });
    await mintMany.getByText('Mint 3 tokens in collection 1').click();
    await mintMany.getByRole('heading', { name: 'Decoded call' }).waitFor();
    expect(await mintMany.textContent()).toMatch(/common\.ItemCreated[\s\S]*common\.ItemCreated[\s\S]*common\.ItemCreated/);
    expect(await log.getByTestId('extrinsic').filter({ hasText: 'Burn token 1/1' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('opens offline after a reload, answered by the service worker', async () => {
    // Needs the service worker of the browser host (src/service-worker.ts).
    await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, null, { timeout: 180_000 });
    // No network at all, whatever the browser reports as navigator.onLine: emulated offline, and
    // the server that served the app is gone.
    await context.setOffline(true);
    await preview.close();
    try {
      expect(await page.evaluate(() => fetch(`/_app/version.json?${Math.random()}`).then(() => 'reached', () => 'unreachable'))).toBe('unreachable');
      await page.reload();
      await nav(page, 'Home');
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Opalite');
      await page.locator('[data-host="service-worker"]').waitFor();
      await nav(page, 'Collections');
      await page.getByRole('link', { name: 'Creatures' }).first().click();
      await page.getByRole('heading', { level: 1, name: 'Creatures' }).waitFor();
      await expect.poll(() => page.getByRole('list', { name: 'Tokens' }).getByRole('link').count()).toBe(4);
      // The uploaded image comes from the browser's file store, offline.
      await page.getByRole('link', { name: 'Fox (token 1)' }).click();
      // The token's own image comes first; the bundle tree below shows it again as a thumbnail.
      await expect.poll(() => page.getByRole('img', { name: 'Fox' }).first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
      // And a change still goes through: Build → sign → Submit, all in the browser.
      await page.getByLabel('Property key').fill('note');
      await page.getByLabel('Property value').fill('written offline');
      await page.getByRole('button', { name: 'Set property' }).click();
      const { askedPassword } = await approve(page, { password: PASSWORD });
      expect(askedPassword).toBe(true); // a reload locks every key
      await expect.poll(() => page.getByRole('table', { name: 'Token properties' }).textContent()).toContain('written offline');
    } finally {
      await context.setOffline(false);
    }
    expect(errors).toEqual([]);
  });
});
