// Key handling as a person meets it: import from a phrase, rename, export the keystore JSON,
// remove, import the file back (a wrong password refused), and a locked key asking for its
// password in the sign dialog (Escape cancels, a wrong password is refused in words).
import { readFileSync } from 'node:fs';
import { cryptoWaitReady, mnemonicGenerate } from '@polkadot/util-crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPreview } from '../../server/preview';
import { approve, fundFromAlice, launchBrowser, nav, serveApp, watchErrors } from './support';

const PASSWORD = 'first-pass-1';

describe('keys', () => {
  let preview: RunningPreview;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let address: string;

  beforeAll(async () => {
    await cryptoWaitReady();
    preview = await serveApp();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = await context.newPage();
    errors = watchErrors(page);
    await page.goto(`${preview.url}accounts`);
  });

  afterAll(async () => {
    await browser?.close();
    await preview?.close();
  });

  it('exports a keystore JSON and imports it back; a wrong password is refused', async () => {
    const phrase = mnemonicGenerate(12);
    await page.getByRole('button', { name: 'Import account' }).click();
    await page.getByLabel('Account name').fill('Kim');
    await page.getByLabel('Seed phrase', { exact: true }).fill(`  ${phrase.toUpperCase()} `);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Import account', exact: true }).last().click();
    let card = page.getByRole('article', { name: 'Kim' });
    await card.waitFor();
    address = (await card.locator('code').first().getAttribute('title'))!;

    await card.getByRole('button', { name: /^Rename/ }).click();
    await card.getByLabel('New name').fill('Kim B');
    await card.getByRole('button', { name: 'Save name' }).click();
    card = page.getByRole('article', { name: 'Kim B' });
    await card.waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: /^Export JSON/ }).click()]);
    expect(download.suggestedFilename()).toBe(`${address}.json`);
    const file = (await download.path())!;
    const text = readFileSync(file, 'utf8');
    const keystore = JSON.parse(text);
    expect(keystore).toMatchObject({
      address,
      encoding: { content: ['pkcs8', 'sr25519'], type: ['scrypt', 'xsalsa20-poly1305'], version: '3' },
      meta: { name: 'Kim B' }
    });
    // Encrypted: nothing of the phrase is in the file.
    for (const word of phrase.split(' ')) expect(text).not.toContain(` ${word} `);

    await card.getByRole('button', { name: /^Remove/ }).click();
    await card.getByRole('button', { name: 'Remove for good' }).click();
    await page.getByText('No accounts yet').waitFor();

    await page.getByRole('button', { name: 'Import account' }).click();
    await page.getByRole('button', { name: 'Keystore JSON file' }).click();
    await page.getByLabel('Keystore JSON file', { exact: true }).setInputFiles(file);
    await page.getByLabel('Password of the file').fill('not the password');
    await page.getByRole('button', { name: 'Import file' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Wrong password' }).count(), { timeout: 60_000 }).toBe(1);
    expect(await page.getByRole('article').count()).toBe(0);

    await page.getByLabel('Password of the file').fill(PASSWORD);
    await page.getByRole('button', { name: 'Import file' }).click();
    card = page.getByRole('article', { name: 'Kim B' });
    await card.waitFor();
    expect(await card.locator('code').first().getAttribute('title')).toBe(address);
    expect(errors).toEqual([]);
  });

  it('asks for the password of a locked key before signing, and refuses a wrong one', async () => {
    const card = await fundFromAlice(page, 'Kim B');

    // Unlock and lock by hand.
    await card.getByRole('button', { name: /^Unlock/ }).click();
    await card.getByLabel('Password of Kim B').fill(PASSWORD);
    await card.getByRole('button', { name: 'Unlock', exact: true }).click();
    await expect.poll(() => card.getByTestId('lock-state').textContent()).toBe('Unlocked');
    await card.getByRole('button', { name: /^Lock/ }).click();
    await expect.poll(() => card.getByTestId('lock-state').textContent()).toBe('Locked');

    await nav(page, 'Collections');
    await page.getByRole('link', { name: 'Create collection' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Keys');
    await page.getByLabel('Token prefix').fill('KEY');
    await page.getByRole('button', { name: 'Create collection' }).click();

    // Locked: the dialog asks for the password; Escape cancels and nothing is submitted.
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Password of Kim B').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Cancelled: nothing was submitted').waitFor();

    await page.getByRole('button', { name: 'Create collection' }).click();
    await dialog.getByLabel('Password of Kim B').fill('wrong password');
    await dialog.getByRole('button', { name: 'Sign and submit' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent(), { timeout: 60_000 }).toBe('Wrong password');
    expect(await dialog.isVisible()).toBe(true);

    const { askedPassword } = await approve(page, { password: PASSWORD, call: 'unique.createCollectionEx' });
    expect(askedPassword).toBe(true);
    await page.waitForURL(/\/collections\/1$/);
    await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
    // Now unlocked in memory (the header says so), until a reload or 5 idle minutes.
    expect(await page.getByLabel('Active account').locator('option:checked').textContent()).toContain('unlocked');
    await page.reload();
    await expect.poll(() => page.getByLabel('Active account').locator('option:checked').textContent()).toMatch(/^Kim B \(\w+…\w+\)$/);
    expect(errors).toEqual([]);
  });
});
