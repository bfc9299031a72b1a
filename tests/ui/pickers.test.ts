// Pick, don't type: the address field offers the wallet's accounts, contacts and dev accounts;
// addresses show an identicon and a name; a dev key imports; approvals are listed with a one-click
// revoke; a parent token is chosen from a list with thumbnails.
import { encodeAddress } from '@polkadot/util-crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPreview } from '../../server/preview';
import { BOB, DESKTOP, PHONE, approve, asAlice, axeViolations, createAccount, fundFromAlice, launchBrowser, nav, screenshotPath, serveApp, watchErrors } from './support';

const PASSWORD = 'pickers-pass-1';
/** An address no dev account or wallet account has: the contact's. */
const CAROL = encodeAddress(new Uint8Array(32).fill(7), 42);

describe('pickers', () => {
  let preview: RunningPreview;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let ada: string;
  let collectionId: number;

  const tokenPage = (tokenId: number) => page.goto(`${preview.url}collections/${collectionId}/tokens/${tokenId}`);
  const serious = async () => ((await axeViolations(page)) ?? []).filter((v) => v.impact === 'serious' || v.impact === 'critical');

  beforeAll(async () => {
    preview = await serveApp();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    errors = watchErrors(page);
    await page.goto(preview.url);
    ada = await createAccount(page, 'Ada', PASSWORD);
    await fundFromAlice(page, 'Ada');

    // //Alice's collection (nesting by token owners) with three tokens of Ada's, each with an image; Ada is an admin.
    const image = await page.evaluate(async () => {
      const canvas = Object.assign(document.createElement('canvas'), { width: 16, height: 16 });
      const g = canvas.getContext('2d')!;
      g.fillStyle = '#5b3fd6';
      g.fillRect(0, 0, 16, 16);
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
      const form = new FormData();
      form.set('file', blob, 'box.png');
      return (await (await fetch('/sandbox/v1/ipfs/upload-file', { method: 'POST', body: form })).json()).cid as string;
    });
    ({ collectionId } = await asAlice(page, 'POST', '/collections', {
      name: 'Picks',
      description: '',
      tokenPrefix: 'PCK',
      schema: { schemaName: 'unique', schemaVersion: '1.0.0', image: { urlTemplate: '{infix}' }, coverPicture: { ipfsCid: image } },
      permissions: { nesting: { tokenOwner: true } }
    }));
    await asAlice(page, 'POST', '/tokens/create-multiple', {
      collectionId,
      tokens: ['Box', 'Gem', 'Ring'].map((name) => ({ owner: ada, data: { name: { _: name }, image: { ipfsCid: image } } }))
    });
    await asAlice(page, 'POST', '/collections/admins', { collectionId, newAdmin: ada });
  });

  afterAll(async () => {
    await browser?.close();
    await preview?.close();
  });

  it('picks Bob by typing part of his name; the new owner shows as Bob with his identicon', async () => {
    await tokenPage(2);
    await page.getByRole('heading', { level: 1, name: 'Gem' }).waitFor();
    const field = page.getByRole('combobox', { name: 'Recipient address' });

    // Anything else is refused in words, under the field, once the person leaves it.
    await field.fill('not-an-address');
    await field.blur();
    await page.getByText('Not an account address: pick one from the list').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');

    await field.fill('Bo');
    expect(await field.getAttribute('aria-expanded')).toBe('true');
    const options = page.getByRole('form', { name: 'Transfer' }).getByRole('listbox').getByRole('option');
    expect(await options.count()).toBe(1);
    await options.filter({ hasText: 'Bob' }).click();
    expect(await field.inputValue()).toBe(BOB);
    expect(await field.getAttribute('aria-expanded')).toBe('false');
    await page.getByText('Bob · development account').waitFor();

    await page.getByRole('button', { name: 'Transfer token' }).click();
    expect((await approve(page, { password: PASSWORD })).call).toMatch(/^unique\.transfer(From)?$/);
    const owner = page.getByTestId('token-owner');
    await expect.poll(() => owner.textContent()).toContain('Bob');
    expect(await owner.getByTestId('identicon').locator('circle').count()).toBe(20);
    expect(await owner.locator('code').getAttribute('title')).toBe(BOB);
    expect(errors).toEqual([]);
  });

  it('adds a contact, picks it with the keyboard to approve, lists the approval and revokes it in one click', async () => {
    await nav(page, 'Accounts');
    const contacts = page.getByRole('region', { name: 'Contacts' });
    await contacts.getByLabel('Contact name').fill('Caro');
    await contacts.getByLabel('Contact address').fill('not-an-address');
    await contacts.getByRole('button', { name: 'Add contact' }).click();
    await expect.poll(() => contacts.getByRole('alert').textContent()).toBe('Contact address: "not-an-address" is not an account address');
    await contacts.getByLabel('Contact address').fill(CAROL);
    await contacts.getByRole('button', { name: 'Add contact' }).click();
    await contacts.getByRole('button', { name: 'Rename Caro' }).click();
    await contacts.getByLabel('New name of Caro').fill('Carol');
    await contacts.getByRole('button', { name: 'Save name' }).click();
    await contacts.getByRole('list', { name: 'Contacts' }).getByRole('button', { name: 'Rename Carol' }).waitFor();
    expect(await serious()).toEqual([]);

    await tokenPage(1);
    await page.getByRole('heading', { level: 1, name: 'Box' }).waitFor();
    const approvals = page.getByRole('region', { name: 'Current approvals' });
    await approvals.getByText(/^No approvals among the \d+ addresses/).waitFor();
    const spender = page.getByRole('combobox', { name: 'Spender address' });
    await spender.fill('car');
    await spender.press('ArrowDown');
    expect(await page.locator(`#${await spender.getAttribute('aria-activedescendant')}`).textContent()).toContain('Carol');
    await page.getByRole('form', { name: 'Approve' }).screenshot({ path: screenshotPath('pickers-address-field') });
    await spender.press('Enter');
    expect(await spender.inputValue()).toBe(CAROL);
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    expect((await approve(page, { password: PASSWORD })).call).toBe('unique.approve');

    const listed = approvals.getByRole('list', { name: 'Current approvals' }).getByRole('listitem');
    await expect.poll(() => listed.count()).toBe(1);
    expect(await listed.textContent()).toContain('Carol');
    await page.getByRole('region', { name: 'Actions' }).screenshot({ path: screenshotPath('pickers-token-actions') });
    await listed.getByRole('button', { name: /^Revoke/ }).click();
    expect((await approve(page)).call).toBe('unique.approve');
    await approvals.getByText(/^No approvals among/).waitFor();
    expect(await serious()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('nests a token into a parent chosen from a list with thumbnails; the bundle tree shows them', async () => {
    await tokenPage(3);
    await page.getByRole('heading', { level: 1, name: 'Ring' }).waitFor();
    const nest = page.getByRole('form', { name: 'Nest' });
    const box = nest.getByRole('radio', { name: `Box, token ${collectionId}/1` });
    await box.waitFor();
    // Gem went to Bob, Ring is this token: only Box is offered.
    expect(await nest.getByRole('radio').count()).toBe(1);
    await nest.getByRole('img', { name: 'Thumbnail of Box' }).waitFor();
    expect(await nest.getByRole('img', { name: 'Thumbnail of Box' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(16);
    await box.check();
    expect(await nest.getByLabel('Parent token id').inputValue()).toBe('1');
    const viewport = page.viewportSize();
    for (const [name, size] of [['nesting-desktop', DESKTOP], ['nesting-phone', PHONE]] as const) {
      await page.setViewportSize(size);
      await nest.scrollIntoViewIfNeeded();
      await page.screenshot({ path: screenshotPath(name) });
    }
    if (viewport) await page.setViewportSize(viewport);
    await nest.getByRole('button', { name: 'Nest token' }).click();
    expect((await approve(page, { password: PASSWORD })).call).toBe('unique.transferFrom');
    const tree = page.getByRole('tree', { name: `Bundle of token ${collectionId}/1` });
    await tree.waitFor();
    await tree.getByRole('img', { name: 'Thumbnail of Ring' }).waitFor();
    await tree.getByRole('img', { name: 'Thumbnail of Box' }).waitFor();
    expect(await tree.getByRole('treeitem', { name: `Ring, token ${collectionId}/3` }).getAttribute('aria-current')).toBe('page');
    expect(await serious()).toEqual([]);

    // "Nested" is Ring's news: Box's page, opened from the tree, does not carry it over.
    const actions = page.getByRole('region', { name: 'Actions' });
    expect(await actions.getByRole('status').filter({ hasText: /^Nested$/ }).count()).toBe(1);
    await tree.getByRole('treeitem', { name: `Ring, token ${collectionId}/3` }).press('Home');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Box' }).waitFor();
    expect(await actions.getByRole('status').filter({ hasText: /^Nested$/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows admins by their wallet names', async () => {
    await page.goto(`${preview.url}collections/${collectionId}?tab=admins`);
    const admins = page.getByRole('region', { name: 'Admins' });
    const item = admins.getByRole('listitem');
    await expect.poll(() => item.textContent()).toContain('Ada');
    expect(await item.getByTestId('identicon').count()).toBe(1);
    expect(await item.locator('code').getAttribute('title')).toBe(ada);
  });

  it('imports //Bob as a development key, said to be public', async () => {
    await nav(page, 'Accounts');
    await page.getByRole('button', { name: 'Import account' }).click();
    await page.getByRole('button', { name: 'Development key' }).click();
    await page.getByText('anyone can sign with them').waitFor();
    await page.getByLabel('Development key', { exact: true }).fill('Bob');
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Import development key' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Development key: write it as // and a name, for example //Bob');
    await page.getByLabel('Development key', { exact: true }).fill('//Bob');
    await page.getByRole('button', { name: 'Import development key' }).click();
    const card = page.getByRole('article', { name: 'Bob' });
    await card.waitFor({ timeout: 90_000 });
    expect(await card.locator('code').first().getAttribute('title')).toBe(BOB);
    // Ada still signs; Bob is now offered as an account of the wallet.
    expect(await page.getByLabel('Active account').locator('option:checked').textContent()).toMatch(/^Ada \(/);
    expect(errors).toEqual([]);
  });
});
