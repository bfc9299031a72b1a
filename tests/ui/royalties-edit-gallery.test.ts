// Issue 10, items 4 and 5, as a creator meets them: royalties in the collection form (a refused
// 150%, then 5% to Bob) shown on the collection and its tokens; a token's name and attribute
// edited in plain fields, with the raw properties behind a collapsed "Advanced" section and
// their Delete asking first; fields the signer may not change disabled with the reason; the
// gallery's search, attribute filter, sort and counts per value.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPreview } from '../../server/preview';
import { BOB, DESKTOP, PHONE, approve, asAlice, axeViolations, createAccount, fundFromAlice, launchBrowser, pickAddress, png, screenshotPath, serveApp, watchErrors } from './support';

const PASSWORD = 'royalties-edit-1';

async function seriousAxe(page: Page, name: string): Promise<string[]> {
  const violations = await axeViolations(page);
  expect(violations, 'axe-core must be installed').not.toBeNull();
  return (violations ?? []).filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${name}: ${v.id} (${v.impact}): ${v.help}`);
}

describe('royalties, token editing and the gallery', () => {
  let preview: RunningPreview;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let ada: string;
  let collectionUrl: string;
  const axe: string[] = [];

  const tokenLinks = () => page.getByRole('list', { name: 'Tokens' }).getByRole('link').allTextContents();
  const tokenNames = async () => (await page.getByRole('list', { name: 'Tokens' }).locator('.name').allTextContents()).map((t) => t.trim());

  beforeAll(async () => {
    preview = await serveApp();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    errors = watchErrors(page);
    await page.goto(preview.url);
    ada = await createAccount(page, 'Ada', PASSWORD);
    await fundFromAlice(page, 'Ada');
  });

  afterAll(async () => {
    await browser?.close();
    await preview?.close();
  });

  it('refuses a 150% royalty by its field, creates 5% to Bob, and shows it on the collection and its token', async () => {
    await page.goto(`${preview.url}collections/new`);
    await page.getByLabel('Name', { exact: true }).fill('Gems');
    await page.getByLabel('Token prefix').fill('GEM');
    await page.getByRole('button', { name: 'Add attribute' }).click();
    await page.getByLabel('Attribute 1 name').fill('Rarity');
    await page.getByLabel('Allowed values').fill('common, rare, epic');
    await page.getByLabel('Token data can be edited after minting').check();
    await page.getByRole('button', { name: 'Add royalty' }).click();
    await pickAddress(page, 'Royalty 1 recipient', 'Bo', 'Bob');
    await page.getByLabel('Royalty 1 percent').fill('150');
    await page.getByRole('button', { name: 'Create collection' }).click();

    // Refused before anything is built: the message sits by the field, which is marked invalid.
    const percent = page.getByLabel('Royalty 1 percent');
    await expect.poll(() => percent.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await percent.getAttribute('aria-describedby'))!;
    expect(await page.locator(`#${describedBy}`).textContent()).toBe('Royalty 1 percent: 150% is more than 100%');
    expect(await page.getByRole('alert').filter({ hasText: 'Fix the royalty above' }).count()).toBe(1);
    expect(await page.getByRole('dialog').isVisible()).toBe(false);

    // Fixed, the message goes; 5% goes through the sign dialog.
    await percent.fill('5');
    expect(await page.getByText('150% is more than 100%').count()).toBe(0);
    await page.getByRole('button', { name: 'Create collection' }).click();
    await approve(page, { password: PASSWORD, call: 'unique.createCollectionEx' });
    await page.getByRole('heading', { level: 1, name: 'Gems' }).waitFor();
    collectionUrl = page.url();
    const onCollection = page.getByTestId('collection-royalties');
    expect((await onCollection.textContent())?.replace(/\s+/g, ' ')).toMatch(/^ ?5% to /);
    expect(await onCollection.locator(`[title="${BOB}"]`).count()).toBe(1);
    axe.push(...(await seriousAxe(page, 'collection')));

    // A token minted in it carries the collection's royalty.
    await page.getByRole('link', { name: 'Mint tokens' }).click();
    await page.getByLabel('Token name').fill('Garnet');
    await page.getByLabel('Image file').setInputFiles({ name: 'garnet.png', mimeType: 'image/png', buffer: png(7) });
    await page.getByLabel('Rarity').selectOption({ label: 'rare' });
    await page.getByRole('button', { name: 'Mint token' }).click();
    await approve(page, { call: 'unique.createItem' });
    await page.getByRole('heading', { level: 1, name: 'Garnet' }).waitFor();
    const onToken = page.getByTestId('token-royalties');
    expect((await onToken.textContent())?.replace(/\s+/g, ' ').trim()).toMatch(/^5% to .*\(the collection's\)$/);
    expect(await onToken.locator(`[title="${BOB}"]`).count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('edits the name and an attribute in plain fields; raw properties stay collapsed and ask before deleting', async () => {
    // The raw properties are there, but folded away.
    const raw = page.getByRole('table', { name: 'Raw properties' });
    expect(await raw.isVisible()).toBe(false);
    await page.getByText('Advanced: raw properties').click();
    await raw.waitFor();
    expect(await raw.getByRole('row', { name: /a\.0/ }).count()).toBe(1);
    // Delete asks first; keeping it signs nothing.
    await raw.getByRole('button', { name: 'Delete property a.0' }).click();
    const confirm = page.getByRole('group', { name: 'Confirm deleting property a.0' });
    await confirm.waitFor();
    expect(await page.getByRole('dialog').isVisible()).toBe(false);
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    expect(await confirm.count()).toBe(0);
    await page.getByText('Advanced: raw properties').click();
    await expect.poll(() => raw.isVisible()).toBe(false);

    const edit = page.getByRole('form', { name: 'Edit token' });
    expect(await edit.getByLabel('Name', { exact: true }).inputValue()).toBe('Garnet');
    await edit.getByLabel('Name', { exact: true }).fill('Garnet Prime');
    await edit.getByLabel('Rarity').selectOption({ label: 'epic' });
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await approve(page, { call: 'unique.setTokenProperties' });
    await page.getByRole('heading', { level: 1, name: 'Garnet Prime' }).waitFor();
    await expect.poll(() => page.getByTestId('attributes').textContent()).toContain('epic');
    expect(await edit.getByLabel('Name', { exact: true }).inputValue()).toBe('Garnet Prime');
    // Stored as the schema stores a mint: the name as localized JSON, the enum value by its index.
    await page.getByText('Advanced: raw properties').click();
    const stored = (await raw.textContent()) ?? '';
    expect(stored).toContain('n{"_":"Garnet Prime"}');
    expect(stored).toMatch(/a\.0\s*2(?!\d)/);
    await page.getByText('Advanced: raw properties').click();

    axe.push(...(await seriousAxe(page, 'token')));
    // Screenshots of the page as it reads after the edit (notifications dismissed, from the top).
    const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
    while ((await dismiss.count()) > 0) await dismiss.first().click();
    for (const [size, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP]
    ] as const) {
      await page.setViewportSize(viewport);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: screenshotPath(`token-edit-royalties-${size}`), fullPage: true });
    }

    // Nothing changed: said, and no dialog.
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.getByText('Nothing changed: edit a field first').waitFor();
    expect(await page.getByRole('dialog').isVisible()).toBe(false);
    expect(errors).toEqual([]);
  });

  it('disables the fields the signer may not change, with the reason', async () => {
    // //Alice's collection with the schema's default permissions (fixed once minted, admins
    // only), a token of it owned by Ada: she may change nothing.
    const { collectionId } = await asAlice(page, 'POST', '/collections', {
      name: 'Fixed',
      description: '',
      tokenPrefix: 'FIX',
      schema: {
        schemaName: 'unique',
        schemaVersion: '1.0.0',
        image: { urlTemplate: '{infix}' },
        coverPicture: { urlInfix: '' },
        attributesSchemaVersion: '1.0.0',
        attributesSchema: { '0': { name: { _: 'Mood' }, type: 'string', optional: true } }
      }
    });
    const { tokenId } = await asAlice(page, 'POST', '/tokens', { collectionId, owner: ada, data: { name: { _: 'Stone' }, attributes: { Mood: 'calm' } } });
    await page.goto(`${preview.url}collections/${collectionId}/tokens/${tokenId}`);
    await page.getByRole('heading', { level: 1, name: 'Stone' }).waitFor();
    const edit = page.getByRole('form', { name: 'Edit token' });
    const name = edit.getByLabel('Name', { exact: true });
    expect(await name.isDisabled()).toBe(true);
    expect(await page.locator(`#${await name.getAttribute('aria-describedby')}`).textContent()).toBe('Fixed at minting: the collection does not let it change');
    // Not set yet, so only the "who" rule holds: Ada owns the token, but only admins may write.
    const description = edit.getByLabel('Description');
    expect(await description.isDisabled()).toBe(true);
    expect(await page.locator(`#${await description.getAttribute('aria-describedby')}`).textContent()).toBe('Only the collection owner or an admin may change it');
    expect(await edit.getByLabel('Mood (optional)').isDisabled()).toBe(true);
    expect(await edit.getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
  });

  it('searches, filters and sorts the gallery, with counts per attribute value', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(collectionUrl);
    await page.getByRole('link', { name: 'Mint tokens' }).click();
    await page.getByRole('button', { name: 'Many tokens' }).click();
    const csv = ['name,Rarity', 'Ruby,epic', 'Amber,common', 'Onyx,common', 'Jade,rare', 'Opal,common', 'Beryl,epic', 'Topaz,common'].join('\n');
    await page.getByLabel('Tokens', { exact: true }).fill(csv);
    await page.getByRole('button', { name: 'Mint 7 tokens' }).click();
    await approve(page, { password: PASSWORD, call: 'unique.createMultipleItemsEx' });
    await expect.poll(() => page.getByTestId('minted-summary').textContent()).toMatch(/^Minted 7\b/);

    await page.goto(collectionUrl);
    await expect.poll(tokenLinks).toHaveLength(8);
    const counts = page.getByRole('definition').filter({ hasText: /\(\d+\)/ });
    expect((await page.getByLabel('Tokens per attribute value').textContent())?.replace(/\s+/g, ' ').trim()).toBe('Rarity: common (4), epic (3), rare (1)');
    expect(await counts.count()).toBe(1);

    await page.getByLabel('Search by name').fill('o');
    await expect.poll(tokenNames).toEqual(['Onyx', 'Opal', 'Topaz']);
    expect(await page.getByTestId('gallery-status').textContent()).toBe('3 of 8 tokens match');
    await page.getByLabel('Search by name').fill('');

    await page.getByLabel('Rarity', { exact: true }).selectOption({ label: 'epic (3)' });
    await expect.poll(tokenNames).toEqual(['Garnet Prime', 'Ruby', 'Beryl']);
    await page.getByLabel('Sort by').selectOption({ label: 'Name' });
    await expect.poll(tokenNames).toEqual(['Beryl', 'Garnet Prime', 'Ruby']);

    await page.getByLabel('Rarity', { exact: true }).selectOption({ label: 'Any' });
    await page.getByLabel('Sort by').selectOption({ label: 'Rarity (rarest first)' });
    // The rare one, then the three epics, then the four commons (each group by token id).
    await expect.poll(tokenNames).toEqual(['Jade', 'Garnet Prime', 'Ruby', 'Beryl', 'Amber', 'Onyx', 'Opal', 'Topaz']);
    axe.push(...(await seriousAxe(page, 'gallery')));

    await page.goto(`${preview.url}collections/new`);
    await page.getByRole('button', { name: 'Add royalty' }).click();
    axe.push(...(await seriousAxe(page, 'new collection')));
    expect(axe).toEqual([]);
    expect(errors).toEqual([]);
  });
});
