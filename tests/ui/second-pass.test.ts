// The creator's app, second pass (issue 10): each bug a new creator found, as they met it. One
// account (Ada) and one collection with a schema (Rarity: common or rare; Power: an integer), made
// for her by //Alice, serve every test.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyring } from '@polkadot/keyring';
import { cryptoWaitReady, mnemonicGenerate } from '@polkadot/util-crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPreview } from '../../server/preview';
import { BOB, approve, asAlice, createAccount, fundFromAlice, launchBrowser, nav, png, serveApp, watchErrors } from './support';

const PASSWORD = 'second-pass-1';
const MiB = 1024 * 1024;
const TOKEN_LIMIT = 250;

/** A port on 127.0.0.1 that nothing listens on (taken from the system, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 9;
}

describe('the creator app, second pass', () => {
  let preview: RunningPreview;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let ada: string;
  let collectionId: number;

  const mintPage = async (mode: 'One token' | 'Many tokens') => {
    await page.goto(`${preview.url}collections/${collectionId}/mint`);
    await page.getByRole('heading', { level: 1, name: 'Mint tokens in Creatures' }).waitFor();
    await page.getByRole('button', { name: mode }).click();
  };
  const listProblems = () => page.getByRole('alert').filter({ hasText: 'The list needs fixing' }).getByRole('listitem').allTextContents();

  beforeAll(async () => {
    await cryptoWaitReady();
    preview = await serveApp();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    errors = watchErrors(page);
    await page.goto(preview.url);
    ada = await createAccount(page, 'Ada', PASSWORD);
    await fundFromAlice(page, 'Ada');
    // Her collection, made by //Alice in the test process and handed over.
    const attributesSchema = {
      '0': { name: { _: 'Rarity' }, type: 'string', optional: true, enumValues: { '0': { _: 'common' }, '1': { _: 'rare' } } },
      '1': { name: { _: 'Power' }, type: 'integer', optional: true }
    };
    const created = await asAlice(page, 'POST', '/collections', {
      name: 'Creatures',
      description: 'Second pass',
      tokenPrefix: 'CRT',
      // Room for the runs below: a list of as many tokens as the limit is refused before signing.
      limits: { tokenLimit: TOKEN_LIMIT },
      schema: { schemaName: 'unique', schemaVersion: '1.0.0', image: { urlTemplate: '{infix}' }, coverPicture: { url: 'https://example.invalid/cover.png' }, attributesSchemaVersion: '1.0.0', attributesSchema }
    });
    collectionId = created.collectionId;
    await asAlice(page, 'PATCH', '/collections/transfer', { collectionId, to: ada });
  });

  afterAll(async () => {
    await browser?.close();
    await preview?.close();
  });

  it('bug 1: the rows of a finished mint cannot be submitted again', async () => {
    await mintPage('Many tokens');
    await page.getByLabel('Tokens', { exact: true }).fill('name,Rarity\nOne,common\nTwo,rare\n');
    await page.getByRole('button', { name: 'Mint 2 tokens' }).click();
    await approve(page, { password: PASSWORD, call: 'unique.createMultipleItemsEx' });
    await expect.poll(() => page.getByTestId('minted-summary').textContent()).toMatch(/^Minted 2\b/);

    // Nothing of it can be sent again; what was minted stays on record.
    expect(await page.getByRole('button', { name: /^Mint \d+ tokens?$/ }).count()).toBe(0);
    expect(await page.getByTestId('minted-summary').textContent()).toMatch(/^Minted 2 tokens: 1, 2\b/);
    expect(await page.getByLabel('Tokens', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Mint another list' }).click();
    expect(await page.getByLabel('Tokens', { exact: true }).inputValue()).toBe('');
    expect(await page.getByTestId('minted-summary').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Mint 0 tokens' }).isDisabled()).toBe(true);
    expect(await page.getByRole('dialog').isVisible()).toBe(false);

    // A list longer than the collection has room for is refused before signing, naming the first
    // row that does not fit (a run that stops part way, and its resume, are in bulk-mint.test.ts).
    const rows = Array.from({ length: TOKEN_LIMIT - 1 }, (_, i) => `Many ${i + 1}`);
    await page.getByLabel('Tokens', { exact: true }).fill(`name\n${rows.join('\n')}\n`);
    await expect.poll(listProblems).toEqual([`Line ${TOKEN_LIMIT}: the collection has room for ${TOKEN_LIMIT - 2} more tokens (its token limit is ${TOKEN_LIMIT}, 2 minted): this row does not fit`]);
    expect(await page.getByRole('button', { name: `Mint ${TOKEN_LIMIT - 1} tokens` }).isDisabled()).toBe(true);
    expect(await page.getByRole('dialog').isVisible()).toBe(false);
    // 121 rows go in two create-multiple calls under one signature; none can be sent twice.
    await page.getByLabel('Tokens', { exact: true }).fill(`name\n${rows.slice(0, 121).join('\n')}\n`);
    await expect.poll(() => page.getByTestId('mint-plan').textContent()).toBe('121 tokens, 1 signature');
    await page.getByRole('button', { name: 'Mint 121 tokens' }).click();
    await approve(page, { call: 'utility.batch' });
    await expect.poll(() => page.getByTestId('minted-summary').textContent(), { timeout: 180_000 }).toMatch(/^Minted 121 tokens: 3–123\. /);
    expect(await page.getByRole('button', { name: /^Mint \d+ tokens?$/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Mint the \d+ rows? not minted$/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Mint another list' }).click();
    expect(errors).toEqual([]);
  });

  it('bug 2: an unclosed quote is an error naming its CSV line, and nothing is minted', async () => {
    await mintPage('Many tokens');
    await page.getByLabel('Tokens', { exact: true }).fill('name,description,Rarity\nGood,fine,common\n"Unclosed quote,x,common\nAfter,it,rare\n');
    await expect.poll(listProblems).toEqual(['Line 3: the quote that opens this cell is never closed (a cell that starts with " ends with ")']);
    expect(await page.getByTestId('mint-ready').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Mint \d+ tokens?$/ }).isDisabled()).toBe(true);
  });

  it('bug 3: every row is checked against the schema and its owner before signing, by CSV line and column', async () => {
    await mintPage('Many tokens');
    const csv = ['name,Rarity,Power,Owner', `Ok,rare,3,${BOB}`, 'Epic,epic,1,', 'Weak,common,lots,', '', 'Lost,common,2,not-an-address'].join('\n');
    await page.getByLabel('Tokens', { exact: true }).fill(csv);
    await expect.poll(listProblems).toEqual([
      'Line 3, column Rarity: "epic" is not one of the allowed values (common, rare)',
      'Line 4, column Power: "lots" is not a whole number',
      'Line 6, column Owner: "not-an-address" is not an account address'
    ]);
    expect(await page.getByRole('button', { name: /^Mint \d+ tokens?$/ }).isDisabled()).toBe(true);
  });

  it('bug 5: an error goes away once its input changes', async () => {
    await mintPage('One token');
    await page.getByLabel('Token name').fill('Fox');
    await page.getByRole('button', { name: 'Mint token' }).click();
    const imageError = page.getByRole('alert').filter({ hasText: 'Choose an image file to upload' });
    await imageError.waitFor();
    await page.getByLabel('Image file').setInputFiles({ name: 'fox.png', mimeType: 'image/png', buffer: png(5) });
    await imageError.waitFor({ state: 'detached' });

    await nav(page, 'Accounts');
    await page.getByRole('button', { name: 'Import account' }).click();
    await page.getByRole('button', { name: 'Keystore JSON file' }).click();
    await page.getByLabel('Keystore JSON file', { exact: true }).setInputFiles({ name: 'nope.json', mimeType: 'application/json', buffer: Buffer.from('{"hello":1}') });
    await page.getByLabel('Password of the file').fill(PASSWORD);
    await page.getByRole('button', { name: 'Import file' }).click();
    const fileError = page.getByRole('alert').filter({ hasText: 'not a polkadot{.js} account export' });
    await fileError.waitFor();
    const pair = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromMnemonic(mnemonicGenerate(12), { name: 'Imported' });
    const keystore = Buffer.from(JSON.stringify(pair.toJson(PASSWORD)));
    await page.getByLabel('Keystore JSON file', { exact: true }).setInputFiles({ name: 'imported.json', mimeType: 'application/json', buffer: keystore });
    await fileError.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('bug 6: a large image is pointed out before upload, with its size and the limit', async () => {
    await mintPage('One token');
    const large = Buffer.concat([png(6), Buffer.alloc(Math.round(10.8 * MiB) - png(6).length)]);
    await page.getByLabel('Image file').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: large });
    await expect
      .poll(() => page.getByTestId('image-size-note').textContent())
      .toBe('This image is 10.8 MB: everyone who views the token downloads it, and images above 5 MB load slowly. The service takes files up to 20 MB.');

    // The same for a picked image of a list.
    await page.getByRole('button', { name: 'Many tokens' }).click();
    await page.getByLabel('Image files').setInputFiles([
      { name: 'small.png', mimeType: 'image/png', buffer: png(7) },
      { name: 'huge.png', mimeType: 'image/png', buffer: large }
    ]);
    await expect.poll(() => page.getByTestId('image-size-note').textContent()).toBe('huge.png is 10.8 MB: everyone who views the token downloads it, and images above 5 MB load slowly. The service takes files up to 20 MB.');

    // One over the limit is left out; a list row naming it is told why, not that it is no file name.
    // (A sparse file on disk: Chromium reads only its size, and nothing is copied over the wire.)
    const dir = mkdtempSync(join(tmpdir(), 'opalite-giant-'));
    try {
      const giant = join(dir, 'giant.png');
      writeFileSync(giant, png(8));
      truncateSync(giant, 21 * MiB);
      await page.getByLabel('Image files').setInputFiles(giant);
      await page.getByText('giant.png is 21 MB, and the service takes files up to 20 MB: left out').waitFor();
      await page.getByLabel('Tokens', { exact: true }).fill('name,image\nSmall,small.png\nGiant,giant.png');
      await expect.poll(listProblems).toEqual(['Line 3, column image: The image file giant.png was picked but left out: it is 21 MB, and the service takes files up to 20 MB']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(errors).toEqual([]);
  });

  it('gaps: counts agree with their nouns, messages name the fields shown, and a new account does not take over signing', async () => {
    await mintPage('Many tokens');
    await page.getByLabel('Tokens', { exact: true }).fill('name\nSolo\n');
    await expect.poll(() => page.getByTestId('mint-ready').textContent()).toBe('1 token ready to mint.');
    // Enabled once the list is also compared with the collection's tokens ("Comparing the list…").
    await expect.poll(() => page.getByRole('button', { name: 'Mint 1 token', exact: true }).isEnabled()).toBe(true);

    await page.getByRole('button', { name: 'One token' }).click();
    await page.getByRole('radio', { name: 'No image' }).check();
    await page.getByLabel('Owner', { exact: true }).fill('not-an-address');
    await page.getByRole('button', { name: 'Mint token' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Owner: "not-an-address" is not an account address');

    await page.goto(`${preview.url}collections/${collectionId}/tokens/1`);
    await page.getByLabel('Recipient address').fill('not-an-address');
    await page.getByRole('button', { name: 'Transfer token' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Recipient: "not-an-address" is not an account address');
    expect(await page.getByRole('dialog').isVisible()).toBe(false);

    await page.goto(`${preview.url}collections/${collectionId}?tab=admins`);
    const admins = page.getByRole('region', { name: 'Admins' });
    await admins.getByLabel('Admin address').fill('not-an-address');
    await admins.getByRole('button', { name: 'Add admin' }).click();
    await expect.poll(() => admins.getByRole('alert').textContent()).toBe('New admin: "not-an-address" is not an account address');

    // A second account is made as a recipient: Ada keeps signing, and the app says so.
    await createAccount(page, 'Bea', PASSWORD);
    await expect.poll(() => page.getByRole('status', { name: 'Notifications' }).textContent()).toContain('Account Bea created. Ada still signs');
    expect(await page.getByLabel('Active account').locator('option:checked').textContent()).toMatch(/^Ada \(/);
    expect(await page.getByRole('article', { name: 'Ada' }).getByText('Signs now').count()).toBe(1);
    expect(errors).toEqual([]);
  });
  it('found meanwhile: a collection with attributes and no cover image is created (the schema gets an empty cover)', async () => {
    await nav(page, 'Collections');
    await page.getByRole('link', { name: 'Create collection' }).click();
    await page.getByLabel('Name', { exact: true }).fill('No cover');
    await page.getByLabel('Token prefix').fill('NOC');
    await page.getByLabel('Description').fill('Attributes without a cover image');
    await page.getByRole('button', { name: 'Add attribute' }).click();
    await page.getByLabel('Attribute 1 name').fill('color');
    await page.getByLabel('Allowed values').fill('red, green');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await approve(page, { password: PASSWORD, call: 'unique.createCollectionEx' });
    await page.waitForURL(/\/collections\/\d+$/);
    await page.getByRole('heading', { level: 1, name: 'No cover' }).waitFor();
    const id = Number(/\/collections\/(\d+)$/.exec(page.url())![1]);
    const stored = await page.evaluate(async (collectionId) => (await fetch(`/sandbox/v1/collections?collectionId=${collectionId}`)).json(), id);
    expect(Object.keys(stored.schema.attributesSchema).length).toBe(1);
    expect(stored.schema.coverPicture).toEqual({ urlInfix: '', fullUrl: '' });
    expect(await page.getByRole('img', { name: 'Cover of No cover (no image)', exact: true }).count()).toBe(1);
  });

  it('bug 4: an unreachable network is said in words and not switched to unless confirmed', async () => {
    const sandbox = `${preview.url}sandbox/v1`;
    const unreachable = `http://127.0.0.1:${await closedPort()}/v1`;
    await nav(page, 'Network');
    await expect.poll(() => page.getByTestId('current-base-url').textContent()).toBe(sandbox);
    await page.getByRole('radio', { name: /A remote Unique Network REST service/ }).check();
    await page.getByLabel('Base URL').fill(unreachable);
    await page.getByRole('button', { name: 'Use this network' }).click();

    const confirm = page.getByRole('group', { name: 'Confirm switching' });
    await confirm.waitFor({ timeout: 60_000 });
    const said = (await confirm.textContent()) ?? '';
    expect(said).toContain(`${unreachable} does not answer: Could not reach ${unreachable}: `);
    expect(said).not.toContain('null');
    expect(await page.getByTestId('current-base-url').textContent()).toBe(sandbox);

    await confirm.getByRole('button', { name: 'Stay on the current network' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await page.getByTestId('current-base-url').textContent()).toBe(sandbox);

    // Said explicitly, it switches (and back again).
    await page.getByRole('button', { name: 'Use this network' }).click();
    await confirm.getByRole('button', { name: 'Switch anyway' }).click();
    await expect.poll(() => page.getByTestId('current-base-url').textContent()).toBe(unreachable);
    await page.getByRole('radio', { name: /Built-in sandbox/ }).check();
    await page.getByRole('button', { name: 'Use this network' }).click();
    await expect.poll(() => page.getByTestId('current-base-url').textContent()).toBe(sandbox);
    expect(errors).toEqual([]);
  });
});
