// "Act as…" and the dev tools (issue 18, parts 4 and 5), as a person uses them on the built-in
// sandbox: impersonation switched on, a balance set and read, blocks sealed, the owner of a
// collection whose key the app never had acted as to change its limits (the sign dialog and the
// explorer mark it impersonated), and "Act as" gone once impersonation is off.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPreview } from '../../server/preview';
import { BOB, asAlice, launchBrowser, nav, serveApp, setting, watchErrors } from './support';

/** //Alice: funded at genesis; the app's wallet never holds her key. */
const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

describe('act as any address in the sandbox', () => {
  let preview: RunningPreview;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    preview = await serveApp();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    errors = watchErrors(page);
    await page.goto(preview.url);
  });

  afterAll(async () => {
    await browser?.close();
    await preview?.close();
  });

  it('switches impersonation on, sets a balance, seals blocks, acts as a collection owner and marks what it did', async () => {
    const chooser = page.getByLabel('Active account');
    await nav(page, 'Network');
    const impersonation = page.getByRole('switch', { name: /Act as any address without its key/ });
    expect(await impersonation.isChecked()).toBe(false);
    await impersonation.check();
    await page.getByText('Impersonation is on').waitFor();

    const balance = page.getByRole('form', { name: 'Set a balance' });
    await balance.getByRole('combobox', { name: 'Account' }).fill(BOB);
    await balance.getByLabel(/^Free balance/).fill('1234.5');
    await balance.getByRole('button', { name: 'Set balance' }).click();
    const done = (await balance.getByText(/is now 1234\.5 OPL \(block \d+\)/).textContent()) ?? '';
    const head = Number(/block (\d+)/.exec(done)![1]);
    await expect.poll(() => page.getByTestId('head-block').textContent()).toBe(String(head));
    await page.getByLabel(/^Blocks to seal/).fill('3');
    await page.getByRole('button', { name: 'Seal blocks' }).click();
    await page.getByText(`3 blocks sealed: the head is block ${head + 3}`).waitFor();
    await expect.poll(() => page.getByTestId('head-block').textContent()).toBe(String(head + 3));

    // A collection of //Alice's, made over REST with her key; the app acts as her without it.
    await asAlice(page, 'POST', '/collections', { name: 'Hers', description: 'Not ours', tokenPrefix: 'HER' });
    await chooser.selectOption({ label: 'Act as any address…' });
    const actAs = page.getByRole('dialog', { name: 'Act as any address' });
    await actAs.getByRole('combobox', { name: 'Address to act as' }).fill(ALICE);
    await actAs.getByRole('button', { name: 'Act as this address' }).click();
    await page.getByTestId('acting-badge').waitFor();
    expect(await chooser.inputValue()).toBe(ALICE);

    await nav(page, 'Collections');
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await page.getByRole('link', { name: /Hers/ }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Hers' }).waitFor();
    const limits = await setting(page, 'Limits');
    await limits.getByRole('button', { name: 'Change limits' }).click();
    await limits.getByLabel('Token limit').fill('7');
    await limits.getByRole('button', { name: 'Save limits' }).click();
    const dialog = page.getByRole('dialog', { name: /^Sign:/ });
    expect(await dialog.getByTestId('sign-impersonated').textContent()).toContain(`Acting as ${ALICE} — impersonated, no key; valid only in this sandbox`);
    expect(await dialog.getByTestId('sign-call').textContent()).toBe('unique.setCollectionLimits');
    expect(await dialog.getByLabel(/^Password of/).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Submit as this address' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 90_000 });
    await expect.poll(() => limits.getByTestId('limit-tokenLimit').textContent()).toBe('7');

    // Marked in the extrinsics log and in the explorer (what she signed lately, and its own page).
    await nav(page, 'Extrinsics');
    await page.getByTestId('extrinsic').filter({ hasText: 'unique.setCollectionLimits' }).getByTestId('impersonated-badge').waitFor();
    await page.goto(`${preview.url}explorer/account/${ALICE}`);
    const signed = page.getByRole('list', { name: 'Extrinsics it signed' }).getByRole('listitem').first();
    await signed.getByTestId('impersonated-badge').waitFor();
    await signed.getByRole('link').click();
    await page.getByTestId('extrinsic-outcome').waitFor();
    await page.getByTestId('impersonated-badge').waitFor();
    // The balance set above, read where a person looks for an account's balance.
    await page.goto(`${preview.url}explorer/account/${BOB}`);
    await page.getByText('1 234.5 OPL').first().waitFor();

    // Impersonation off: acting ends, and "Act as" is offered no more.
    await nav(page, 'Network');
    await impersonation.uncheck();
    await page.getByText('Impersonation is off').waitFor();
    expect(await page.getByTestId('acting-badge').count()).toBe(0);
    expect(await page.getByRole('option', { name: 'Act as any address…' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
