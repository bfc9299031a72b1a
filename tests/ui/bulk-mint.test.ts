// Bulk minting as a creator does it (issue 10, item 2): images dropped and picked as thumbnails,
// a CSV template that fits the collection's schema, every row checked against the schema, the
// owners and the limits before anything is signed, one signature for the whole run, and a
// cancelled run that leaves a record and resumes without sending a row twice.
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPreview } from '../../server/preview';
import { BOB, DESKTOP, PHONE, approve, asAlice, axeViolations, createAccount, fundFromAlice, launchBrowser, png, screenshotPath, serveApp, watchErrors } from './support';

const PASSWORD = 'bulk-mint-1';
/** Tokens one account may own: the two runs below (12 tokens for Ada) fit, 13 for Bob do not. */
const PER_ACCOUNT = 12;

const pngFile = (name: string, seed: number) => ({ name, mimeType: 'image/png', buffer: png(seed) });

describe('bulk minting', () => {
  let preview: RunningPreview;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let ada: string;
  let collectionId: number;

  const mintPage = async () => {
    await page.goto(`${preview.url}collections/${collectionId}/mint`);
    await page.getByRole('heading', { level: 1, name: 'Mint tokens in Beasts' }).waitFor();
    await page.getByRole('button', { name: 'Many tokens' }).click();
  };
  const listProblems = () => page.getByRole('alert').filter({ hasText: 'The list needs fixing' }).getByRole('listitem').allTextContents();
  const thumbnails = () => page.getByRole('list', { name: 'Picked images' }).getByRole('img');
  /** Extrinsics Ada signed, as the API lists them. */
  const signedByAda = () => page.evaluate(async (address) => (await (await fetch(`/sandbox/v1/extrinsic/list?address=${address}&limit=500`)).json()).extrinsics.length as number, ada);
  /** The tokens the collection page shows. */
  const tokensShown = async () => {
    await page.goto(`${preview.url}collections/${collectionId}`);
    await page.getByRole('heading', { level: 1, name: 'Beasts' }).waitFor();
    await page.getByTestId('gallery-status').waitFor();
    return page.getByRole('list', { name: 'Tokens' }).getByRole('link').count();
  };
  /** Drops `files` on the images zone as a person dragging them from a folder would. */
  const drop = async (files: { name: string; buffer: Buffer; mimeType?: string }[]) => {
    const dataTransfer = await page.evaluateHandle((list) => {
      const transfer = new DataTransfer();
      for (const f of list) transfer.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.type }));
      return transfer;
    }, files.map((f) => ({ name: f.name, type: f.mimeType ?? 'image/png', bytes: [...f.buffer] })));
    const zone = page.getByRole('region', { name: 'Token images' });
    await zone.dispatchEvent('dragover', { dataTransfer });
    await zone.dispatchEvent('drop', { dataTransfer });
  };

  beforeAll(async () => {
    preview = await serveApp();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: DESKTOP, acceptDownloads: true })).newPage();
    errors = watchErrors(page);
    await page.goto(preview.url);
    ada = await createAccount(page, 'Ada', PASSWORD);
    await fundFromAlice(page, 'Ada');
    const attributesSchema = {
      '0': { name: { _: 'Rarity' }, type: 'string', optional: true, enumValues: { '0': { _: 'common' }, '1': { _: 'rare' } } },
      '1': { name: { _: 'Power' }, type: 'integer', optional: true }
    };
    const created = await asAlice(page, 'POST', '/collections', {
      name: 'Beasts',
      description: 'Bulk minting',
      tokenPrefix: 'BST',
      limits: { accountTokenOwnershipLimit: PER_ACCOUNT },
      schema: { schemaName: 'unique', schemaVersion: '1.0.0', image: { urlTemplate: '{infix}' }, coverPicture: { url: 'https://example.invalid/cover.png' }, attributesSchemaVersion: '1.0.0', attributesSchema }
    });
    collectionId = created.collectionId;
    await asAlice(page, 'PATCH', '/collections/transfer', { collectionId, to: ada });
  });

  afterAll(async () => {
    await browser?.close();
    await preview?.close();
  });

  it('takes images picked and dropped as thumbnails, and makes a row for each', async () => {
    await mintPage();
    await page.getByLabel('Image files').setInputFiles([1, 2, 3].map((n) => pngFile(`beast-${n}.png`, n)));
    await drop([4, 5, 6].map((n) => ({ name: `beast-${n}.png`, buffer: png(n) })));
    await expect.poll(() => thumbnails().count()).toBe(6);
    expect(await page.getByTestId('image-count').textContent()).toBe('6 images picked');

    // Removing one lets its object URL go; picking it again brings it back.
    const src = (await page.getByRole('img', { name: 'beast-1.png' }).getAttribute('src'))!;
    expect(await page.evaluate(async (url) => (await fetch(url)).ok, src)).toBe(true);
    await page.getByRole('button', { name: 'Remove beast-1.png' }).click();
    await expect.poll(() => thumbnails().count()).toBe(5);
    expect(await page.evaluate(async (url) => fetch(url).then(() => 'read', () => 'revoked'), src)).toBe('revoked');
    await page.getByLabel('Image files').setInputFiles([pngFile('beast-1.png', 1)]);
    await expect.poll(() => thumbnails().count()).toBe(6);

    // A file that is not an image is left out, named.
    await drop([{ name: 'notes.txt', buffer: Buffer.from('hello'), mimeType: 'text/plain' }]);
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'notes.txt' }).textContent()).toBe('notes.txt is not an image: left out');
    expect(await thumbnails().count()).toBe(6);

    // Rows to fill in, one per image, named after the file.
    await page.getByRole('button', { name: 'Add 6 rows for the images to fill in' }).click();
    const lines = (await page.getByLabel('Tokens', { exact: true }).inputValue()).trim().split('\n');
    expect(lines[0]).toBe('name,description,image,Rarity,Power,owner');
    expect(lines.slice(1).sort()).toEqual([1, 2, 3, 4, 5, 6].map((n) => `beast-${n},,beast-${n}.png,,,`));
    await expect.poll(() => page.getByTestId('mint-plan').textContent()).toBe('6 tokens, 1 signature');
    expect(errors).toEqual([]);
  });

  it('gives a CSV template whose header is the schema’s columns', async () => {
    await mintPage();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV template' }).click()]);
    expect(download.suggestedFilename()).toBe(`Beasts-${collectionId}-template.csv`);
    const text = await readFile((await download.path())!, 'utf8');
    const [header, example] = text.trim().split('\n');
    expect(header).toBe('name,description,image,Rarity,Power,owner');
    expect(example).toBe('Token 1,The first token,token-1.png,common,1,');
  });

  it('refuses a bad owner and a row over the per-account limit by line and column, before any signature', async () => {
    await mintPage();
    const rows = Array.from({ length: PER_ACCOUNT + 1 }, (_, i) => `Bob ${i + 1},common,${BOB}`);
    await page.getByLabel('Tokens', { exact: true }).fill(['name,Rarity,Owner', ...rows, 'Lost,rare,not-an-address'].join('\n'));
    await expect
      .poll(listProblems)
      .toEqual([
        `Line ${PER_ACCOUNT + 3}, column Owner: "not-an-address" is not an account address`,
        `Line ${PER_ACCOUNT + 2}, column Owner: ${BOB} would own ${PER_ACCOUNT + 1} tokens of the collection, above its limit of ${PER_ACCOUNT} per account`
      ]);
    expect(await page.getByRole('button', { name: /^Mint \d+ tokens?$/ }).isDisabled()).toBe(true);
    expect(await page.getByRole('dialog').isVisible()).toBe(false);
    expect(errors).toEqual([]);
  });

  it('mints a valid run of 6 rows with exactly 1 signature', async () => {
    await mintPage();
    await page.getByLabel('Image files').setInputFiles([1, 2, 3, 4, 5, 6].map((n) => pngFile(`beast-${n}.png`, n)));
    const csv = ['name,image,Rarity,Power', ...[1, 2, 3, 4, 5, 6].map((n) => `Beast ${n},beast-${n}.png,${n % 2 ? 'common' : 'rare'},${n}`)].join('\n');
    await page.getByLabel('Tokens', { exact: true }).fill(csv);
    await expect.poll(() => page.getByTestId('mint-plan').textContent()).toBe('6 tokens, 1 signature');
    const before = await signedByAda();
    await page.getByRole('button', { name: 'Mint 6 tokens' }).click();
    await approve(page, { password: PASSWORD, call: 'unique.createMultipleItemsEx' });
    await expect.poll(() => page.getByTestId('minted-summary').textContent()).toMatch(/^Minted 6 tokens: 1–6\. /);
    expect(await page.getByText('Images uploaded: 6 of 6').count()).toBe(1);
    expect(await signedByAda()).toBe(before + 1);
    expect(await page.getByRole('button', { name: /^Mint \d+ tokens?$/ }).count()).toBe(0);

    expect(await tokensShown()).toBe(6);
    const token = await page.evaluate(async (id) => (await fetch(`/sandbox/v1/tokens?collectionId=${id}&tokenId=4`)).json(), collectionId);
    expect(token.name?._ ?? token.name).toBe('Beast 4');
    expect(token.image?.ipfsCid ?? token.image?.fullUrl).toBeTruthy();
    expect(errors).toEqual([]);
  });

  it('keeps a record of a run cancelled after the upload, and resumes it exactly once', async () => {
    await mintPage();
    await page.getByLabel('Image files').setInputFiles([7, 8, 9, 10, 11, 12].map((n) => pngFile(`beast-${n}.png`, n)));
    await page.getByRole('button', { name: 'Add 6 rows for the images to fill in' }).click();
    const before = await signedByAda();
    await page.getByRole('button', { name: 'Mint 6 tokens' }).click();
    // The images are uploaded; the person cancels at the signature.
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await page.getByText('Images uploaded: 6 of 6').count()).toBe(1);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('not-minted').textContent()).toBe('6 rows of the list were not minted.');
    expect(await page.getByTestId('minted-summary').textContent()).toMatch(/^Nothing is minted yet\./);
    const record = page.getByRole('table', { name: 'Run record' });
    expect(await record.getByRole('row').filter({ hasText: 'Not minted' }).count()).toBe(6);
    expect(await page.getByRole('button', { name: /^Mint \d+ tokens?$/ }).count()).toBe(0);

    await page.getByRole('button', { name: 'Mint the 6 rows not minted' }).click();
    await approve(page, { password: PASSWORD, call: 'unique.createMultipleItemsEx' });
    await expect.poll(() => page.getByTestId('minted-summary').textContent()).toMatch(/^Minted 6 tokens: 7–12\. /);
    expect(await record.getByRole('row').filter({ hasText: /Minted: token (7|8|9|10|11|12)$/ }).count()).toBe(6);
    // Nothing is left to send: no button takes these rows again.
    expect(await page.getByRole('button', { name: /^Mint the \d+ rows? not minted$/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Mint \d+ tokens?$/ }).count()).toBe(0);
    expect(await signedByAda()).toBe(before + 1);
    expect(await tokensShown()).toBe(12);
    expect(errors).toEqual([]);
  });

  it('recognises rows minted before, names them, and mints only the new row when asked', async () => {
    await mintPage();
    await page.getByLabel('Image files').setInputFiles([1, 2, 3, 4, 5, 6, 13].map((n) => pngFile(`beast-${n}.png`, n)));
    // The six rows of the first run (in another column order, one name spaced differently) and one new row for Bob.
    const again = [1, 2, 3, 4, 5, 6].map((n) => `${n === 3 ? ' Beast  3' : `Beast ${n}`},${n},beast-${n}.png,${n % 2 ? 'common' : 'rare'},`);
    await page.getByLabel('Tokens', { exact: true }).fill(['name,Power,image,Rarity,owner', ...again, `Beast 13,13,beast-13.png,rare,${BOB}`].join('\n'));
    const warning = page.getByTestId('already-minted');
    await expect.poll(() => warning.innerText()).toContain('6 rows of this list are in this collection already:');
    expect(await warning.getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(/^Lines 2–7 were minted on .+ as tokens 1–6$/)]);
    // Nothing is signed before the person chooses.
    expect(await page.getByRole('button', { name: 'Mint 7 tokens' }).isDisabled()).toBe(true);
    await page.getByRole('radio', { name: 'Only the 1 new row' }).check();
    const before = await signedByAda();
    await page.getByRole('button', { name: 'Mint 1 token' }).click();
    await approve(page, { password: PASSWORD, call: 'unique.createMultipleItemsEx' });
    await expect.poll(() => page.getByTestId('minted-summary').textContent()).toMatch(/^Minted 1 token: 13\. /);
    expect(await signedByAda()).toBe(before + 1);

    // As in another browser (nothing remembered here): the ledger itself still knows the rows by name.
    await page.evaluate(() => localStorage.removeItem('opalite.mint-history'));
    await mintPage();
    await page.getByLabel('Image files').setInputFiles([1, 2, 3, 4, 5, 6, 13].map((n) => pngFile(`beast-${n}.png`, n)));
    await page.getByLabel('Tokens', { exact: true }).fill(['name,Power,image,Rarity,owner', ...again, `Beast 13,13,beast-13.png,rare,${BOB}`].join('\n'));
    await expect.poll(() => warning.innerText()).toContain('Every row of this list is in this collection already:');
    expect(await warning.getByRole('listitem').allTextContents()).toEqual(['Lines 2–8 match tokens 1–6, 13 already in this collection (same names)']);
    expect(await page.getByRole('button', { name: 'Mint 7 tokens' }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('does not start a run whose fees the signer cannot pay, and says how much is missing', async () => {
    const setBalance = (amount: string) =>
      page.evaluate(
        async ({ address, amount }) => (await fetch('/sandbox/v1/dev/set-balance', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address, amount }) })).status,
        { address: ada, amount }
      );
    expect(await setBalance('0.0001')).toBe(201);
    try {
      await mintPage();
      // For Bob: Ada owns as many tokens as the collection lets one account own.
      await page.getByLabel('Tokens', { exact: true }).fill(`name,Rarity,owner\nPoor 1,common,${BOB}\n`);
      const before = await signedByAda();
      await page.getByRole('button', { name: 'Mint 1 token', exact: true }).click();
      const said = page.getByRole('alert').filter({ hasText: 'this run' });
      await said.waitFor();
      expect(await said.textContent()).toMatch(/The signer has 0\.0001 OPL and this run's fees come to ≈?\d[\d.]* OPL: ≈?\d[\d.]* OPL missing\. Fund the account, or mint fewer rows; nothing was uploaded or minted\./);
      expect(await page.getByRole('dialog').isVisible()).toBe(false);
      expect(await signedByAda()).toBe(before);
      expect(await page.getByRole('table', { name: 'Run record' }).getByRole('row').filter({ hasText: 'Not minted' }).count()).toBe(1);
    } finally {
      expect(await setBalance('1000')).toBe(201);
    }
    expect(errors).toEqual([]);
  });

  it('has no serious accessibility problems, and looks right on a phone and a desktop', async () => {
    await mintPage();
    await page.getByLabel('Image files').setInputFiles([1, 2, 3].map((n) => pngFile(`beast-${n}.png`, n)));
    // For Bob: Ada owns as many tokens as the collection lets one account own.
    await page.getByLabel('Tokens', { exact: true }).fill(`name,image,Rarity,owner\n${[1, 2, 3].map((n) => `Beast ${n},beast-${n}.png,${n === 2 ? 'rare' : 'common'},${BOB}`).join('\n')}\n`);
    await page.getByTestId('mint-plan').waitFor();
    const violations = await axeViolations(page);
    expect(violations, 'axe-core must be installed').not.toBeNull();
    expect(violations!.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    // From the top: the sticky header stays where it belongs in a full-page shot.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath('bulk-mint-desktop'), fullPage: true });
    await page.setViewportSize(PHONE);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath('bulk-mint-phone'), fullPage: true });
    await page.setViewportSize(DESKTOP);
    expect(errors).toEqual([]);
  });
});
