// Managing what one owns: a collection's properties, property permissions, admins, limits,
// permissions, transfers switch, owner and destruction; a token's approval, unnesting and burn;
// a refused request said in words before anything is signed. And the API page's try-it.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPreview } from '../../server/preview';
import { BOB, approve, createAccount, fundFromAlice, launchBrowser, nav, serveApp, setting, watchErrors } from './support';

const PASSWORD = 'manage-pass-1';

describe('managing collections and tokens', () => {
  let preview: RunningPreview;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  async function newCollection(name: string, prefix: string): Promise<void> {
    await nav(page, 'Collections');
    await page.getByRole('link', { name: 'Create collection' }).click();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Token prefix').fill(prefix);
    await page.getByRole('button', { name: 'Create collection' }).click();
    await approve(page, { password: PASSWORD });
    await page.getByRole('heading', { level: 1, name }).waitFor();
  }

  beforeAll(async () => {
    preview = await serveApp();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    errors = watchErrors(page);
    await page.goto(preview.url);
    await createAccount(page, 'Ada', PASSWORD);
    await fundFromAlice(page, 'Ada');
  });

  afterAll(async () => {
    await browser?.close();
    await preview?.close();
  });

  it('changes every setting of a collection, then hands it over', async () => {
    await newCollection('Settings', 'SET');

    const properties = await setting(page, 'Properties');
    await properties.getByLabel('Key').fill('website');
    await properties.getByLabel('Value').fill('https://example.com');
    await properties.getByRole('button', { name: 'Set property' }).click();
    expect((await approve(page)).call).toBe('unique.setCollectionProperties');
    await expect.poll(() => properties.getByRole('table').textContent()).toContain('https://example.com');

    const keys = await setting(page, 'Token property permissions');
    await keys.getByRole('button', { name: 'Add or change a key' }).click();
    await keys.getByLabel('Property key 1').fill('mood');
    await keys.getByLabel('Token owner may set').uncheck();
    await keys.getByRole('button', { name: 'Save permissions' }).click();
    expect((await approve(page)).call).toBe('unique.setTokenPropertyPermissions');
    await expect.poll(() => keys.getByRole('row', { name: /mood/ }).textContent()).toMatch(/mood\s*yes\s*yes\s*no/);

    const admins = await setting(page, 'Admins');
    await admins.getByLabel('Admin address').fill(BOB);
    await admins.getByRole('button', { name: 'Add admin' }).click();
    expect((await approve(page)).call).toBe('unique.addCollectionAdmin');
    await admins.getByRole('button', { name: /^Remove admin/ }).waitFor();
    await admins.getByRole('button', { name: /^Remove admin/ }).click();
    expect((await approve(page)).call).toBe('unique.removeCollectionAdmin');
    await admins.getByText('No admins').waitFor();

    const limits = await setting(page, 'Limits');
    await limits.getByRole('button', { name: 'Change limits' }).click();
    await limits.getByLabel('Token limit').fill('10');
    await limits.getByLabel('Owner can destroy').selectOption('yes');
    await limits.getByRole('button', { name: 'Save limits' }).click();
    expect((await approve(page)).call).toBe('unique.setCollectionLimits');
    await expect.poll(() => limits.getByTestId('limit-tokenLimit').textContent()).toBe('10');

    const permissions = await setting(page, 'Permissions');
    await permissions.getByRole('button', { name: 'Change permissions' }).click();
    await permissions.getByLabel('Anyone may mint (mint mode)').check();
    await permissions.getByRole('button', { name: 'Save permissions' }).click();
    expect((await approve(page)).call).toBe('unique.setCollectionPermissions');
    await permissions.getByText('anyone may mint').waitFor();

    const ownership = await setting(page, 'Transfers and ownership');
    await ownership.getByRole('button', { name: 'Turn transfers off' }).click();
    expect((await approve(page)).call).toBe('unique.setTransfersEnabledFlag');
    await expect.poll(() => ownership.getByTestId('transfers-state').textContent()).toBe('off');

    // A bad address is refused before Build, in words naming the field, before any dialog opens.
    await ownership.getByLabel('New owner address').fill('not-an-address');
    await ownership.getByRole('button', { name: 'Change owner' }).click();
    await expect.poll(() => ownership.getByRole('alert').textContent()).toBe('New owner: "not-an-address" is not an account address');
    expect(await page.getByRole('dialog').isVisible()).toBe(false);

    await ownership.getByLabel('New owner address').fill(BOB);
    await ownership.getByRole('button', { name: 'Change owner' }).click();
    expect((await approve(page)).call).toBe('unique.changeCollectionOwner');
    await page.getByRole('note').filter({ hasText: 'neither the owner nor an admin' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('approves a spender, unnests, burns and destroys', async () => {
    await newCollection('Short-lived', 'SL');
    await page.getByRole('link', { name: 'Mint tokens' }).click();
    await page.getByRole('button', { name: 'Many tokens' }).click();
    await page.getByLabel('Tokens', { exact: true }).fill('[{"name": "Box"}, {"name": "Gem"}]');
    await page.getByRole('button', { name: 'Mint 2 tokens' }).click();
    await approve(page);
    await page.getByRole('link', { name: 'See them in the collection' }).click();

    await page.getByRole('link', { name: 'Gem (token 2)' }).click();
    await page.getByLabel('Spender address').fill(BOB);
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    expect((await approve(page)).call).toBe('unique.approve');
    await page.getByText('Spender approved').waitFor();

    await page.getByLabel('Parent collection id').fill(page.url().match(/collections\/(\d+)/)![1]);
    await page.getByLabel('Parent token id').fill('1');
    await page.getByRole('button', { name: 'Nest token' }).click();
    await approve(page);
    await page.getByRole('tree').waitFor();
    await page.getByRole('button', { name: /^Unnest from/ }).click();
    expect((await approve(page)).call).toBe('unique.transferFrom');
    await page.getByRole('tree').waitFor({ state: 'detached' });

    for (const token of ['Gem', 'Box']) {
      await page.getByRole('heading', { level: 1, name: token }).waitFor();
      await page.getByRole('button', { name: 'Burn token' }).click();
      await page.getByRole('button', { name: 'Burn for good' }).click();
      expect((await approve(page)).call).toBe('unique.burnFrom');
      await page.waitForURL(/\/collections\/\d+$/);
      if (token === 'Gem') await page.getByRole('link', { name: 'Box (token 1)' }).click();
    }
    await page.getByText('No tokens yet').waitFor();
    await setting(page, 'Transfers and ownership');
    await page.getByRole('button', { name: 'Destroy collection' }).click();
    await page.getByRole('button', { name: 'Destroy for good' }).click();
    expect((await approve(page)).call).toBe('unique.destroyCollection');
    await page.waitForURL(/\/collections$/);
    // "Settings" went to Bob, "Short-lived" is gone: Ada owns nothing now.
    await page.getByText('You have no collections yet').waitFor();
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await page.getByRole('list', { name: 'All collections' }).getByRole('link', { name: 'Settings' }).waitFor();
    expect(await page.getByRole('link', { name: 'Short-lived' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('renders the OpenAPI document and tries requests against the base URL', async () => {
    await nav(page, 'API');
    await page.getByRole('heading', { name: /REST API v1/ }).waitFor();
    await page.getByLabel('Filter operations').fill('chain-properties');
    const op = page.getByRole('group').filter({ hasText: '/sandbox/v1/common/chain-properties' });
    await op.getByText('/sandbox/v1/common/chain-properties').click();
    await op.getByRole('button', { name: 'Send GET' }).click();
    await expect.poll(() => op.getByLabel('Response body').textContent()).toContain('"token": "OPL"');
    expect(await op.getByRole('status').textContent()).toMatch(/^\s*200\s*in \d+ ms/);

    // A mutation answers the payload to sign (use=Build), never signed here.
    await page.getByLabel('Filter operations').fill('balance transfer');
    const transfer = page.getByRole('group').filter({ hasText: '/sandbox/v1/balance/transfer' });
    await transfer.getByText('/sandbox/v1/balance/transfer').click();
    await transfer.getByLabel('Request body (JSON)').fill(JSON.stringify({ address: BOB, destination: BOB, amount: '1' }));
    await transfer.getByRole('button', { name: 'Send POST' }).click();
    await expect.poll(() => transfer.getByLabel('Response body').textContent()).toContain('"signerPayloadHex"');
    // And a refusal comes back in the error envelope.
    await transfer.getByLabel('Request body (JSON)').fill('{"address": "x"}');
    await transfer.getByRole('button', { name: 'Send POST' }).click();
    await expect.poll(() => transfer.getByLabel('Response body').textContent()).toContain('"ValidationError"');
    expect(errors).toEqual([]);
  });
});
