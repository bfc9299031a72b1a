// Fungible and refungible collections in the app, as a creator uses them: create one, mint an
// amount or a token in pieces, read holders and shares, send some. Amounts a person types wrong
// are named before anything is signed.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPreview } from '../../server/preview';
import { DESKTOP, approve, axeViolations, createAccount, fundFromAlice, launchBrowser, nav, pickAddress, serveApp, watchErrors } from './support';

const PASSWORD = 'pieces-pass-1';

describe('fungible and refungible collections', () => {
  let preview: RunningPreview;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  async function newCollection(name: string, prefix: string, mode: 'Fungible' | 'ReFungible', decimals?: string): Promise<void> {
    await nav(page, 'Collections');
    await page.getByRole('link', { name: 'Create collection' }).click();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Token prefix').fill(prefix);
    await page.getByLabel('Mode', { exact: true }).selectOption(mode);
    if (decimals !== undefined) await page.getByLabel('Decimals').fill(decimals);
    await page.getByRole('button', { name: 'Create collection' }).click();
    expect((await approve(page, { password: PASSWORD })).call).toBe('unique.createCollectionEx');
    await page.getByRole('heading', { level: 1, name }).waitFor();
  }

  /** The holders table as rows of [account text, amount, share]. */
  async function holders(name: string): Promise<string[][]> {
    const rows = page.getByRole('table', { name }).getByRole('row');
    const out: string[][] = [];
    for (const row of (await rows.all()).slice(1)) out.push((await row.getByRole('cell').allTextContents()).map((t) => t.trim()));
    return out;
  }

  beforeAll(async () => {
    preview = await serveApp();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    errors = watchErrors(page);
    await page.goto(preview.url);
    await createAccount(page, 'Ada', PASSWORD);
    await fundFromAlice(page, 'Ada');
  });

  afterAll(async () => {
    await browser?.close();
    await preview?.close();
  });

  it('mints an amount of a fungible token, shows holders and shares, and sends some', async () => {
    await newCollection('Gold', 'GLD', 'Fungible', '2');
    const section = page.getByRole('region', { name: 'Fungible token' });
    await expect.poll(() => section.getByTestId('ft-supply').textContent()).toBe('0 GLD');

    // A third decimal is refused by the field's name, before any sign dialog.
    await section.getByLabel('Amount to mint').fill('10.125');
    await section.getByRole('button', { name: 'Mint', exact: true }).click();
    await section.getByText('Amount to mint may have at most 2 digits after the point').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);

    await section.getByLabel('Amount to mint').fill('1000.5');
    await pickAddress(section, 'Mint to', 'Ad', 'Ada');
    await section.getByRole('button', { name: 'Mint', exact: true }).click();
    expect((await approve(page)).call).toBe('unique.createItem');
    await expect.poll(() => section.getByTestId('ft-supply').textContent()).toBe('1000.5 GLD');
    await expect.poll(() => section.getByTestId('ft-mine').textContent()).toBe('1000.5 GLD');

    await section.getByLabel('Amount to send').fill('250.25');
    await pickAddress(section, 'Send to', 'Bo', 'Bob');
    await section.getByRole('button', { name: 'Send', exact: true }).click();
    expect((await approve(page)).call).toBe('unique.transferFrom');
    await expect.poll(() => section.getByTestId('ft-mine').textContent()).toBe('750.25 GLD');
    await expect.poll(() => holders('Holders')).toHaveLength(2);
    const rows = await holders('Holders');
    expect(rows[0].slice(1)).toEqual(['750.25 GLD', '74.99%']);
    expect(rows[0][0]).toContain('Ada');
    expect(rows[1].slice(1)).toEqual(['250.25 GLD', '25.01%']);

    await section.getByLabel('Amount to burn').fill('0.25');
    await section.getByRole('button', { name: 'Burn', exact: true }).click();
    expect((await approve(page)).call).toBe('unique.burnFrom');
    await expect.poll(() => section.getByTestId('ft-supply').textContent()).toBe('1000.25 GLD');
  });

  it('mints a refungible token in pieces, sends pieces and reads the shares', async () => {
    await newCollection('Shared art', 'SHA', 'ReFungible');
    const mint = page.getByRole('region', { name: 'Mint a token in pieces' });
    await mint.getByLabel('Name', { exact: true }).fill('Mural');
    await mint.getByLabel('Pieces').fill('1.5');
    await mint.getByRole('button', { name: 'Mint token' }).click();
    await mint.getByText('Pieces must be a whole number').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);

    await mint.getByLabel('Pieces').fill('8');
    await mint.getByRole('button', { name: 'Mint token' }).click();
    expect((await approve(page)).call).toBe('unique.createItem');
    await page.getByRole('heading', { level: 1, name: 'Mural' }).waitFor();

    const pieces = page.getByRole('region', { name: 'Pieces' });
    await expect.poll(() => pieces.getByTestId('rft-total').textContent()).toBe('8');
    await expect.poll(() => pieces.getByTestId('rft-mine').textContent()).toBe('8 (100%)');
    // Holding every piece, the owner may split the token anew.
    await pieces.getByRole('form', { name: 'Split into a new number of pieces' }).waitFor();

    await pieces.getByLabel('Pieces to send').fill('9');
    await pickAddress(pieces, 'Send to', 'Bo', 'Bob');
    await pieces.getByRole('button', { name: 'Send', exact: true }).click();
    await pieces.getByText('Pieces to send may be at most 8').waitFor();

    await pieces.getByLabel('Pieces to send').fill('2');
    await pieces.getByRole('button', { name: 'Send', exact: true }).click();
    expect((await approve(page)).call).toBe('unique.transferFrom');
    await expect.poll(() => pieces.getByTestId('rft-mine').textContent()).toBe('6 (75%)');
    await expect.poll(() => holders('Holders and shares')).toHaveLength(2);
    const rows = await holders('Holders and shares');
    expect(rows.map((r) => r.slice(1))).toEqual([
      ['6', '75%'],
      ['2', '25%']
    ]);
    // Split between two holders, the token has no single owner: the page says so and points to the shares.
    await expect.poll(() => page.getByTestId('token-owner').textContent()).toContain('several holders');
    expect(await page.getByTestId('token-owner').getByRole('link', { name: 'see their shares' }).getAttribute('href')).toBe('#pieces-h');
    // Split anew needs every piece: it is gone once some were sent.
    expect(await pieces.getByRole('form', { name: 'Split into a new number of pieces' }).count()).toBe(0);

    const violations = (await axeViolations(page)) ?? [];
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    expect(errors).toEqual([]);
  });
});
