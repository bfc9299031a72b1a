// The explorer, used as a person would: blocks newest first and paged, a block, an extrinsic in
// words with what it changed (a transfer's two balances, a mint's new token, a property), an
// account's history paged, search of every kind, and the ways in (the Extrinsics log, an
// address's and a token's history links). Then the Network page: a snapshot, a change, a revert
// after a confirmation that says what is lost (every open tab shows the state as it was), and
// the history kept.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPreview } from '../../server/preview';
import { BOB, asAlice, createAccount, fundFromAlice, launchBrowser, nav, screenshotPath, serveApp, unnamedControls, watchErrors } from './support';

const PASSWORD = 'explorer-pass-1';
/** Blocks on one page of the explorer. */
const PAGE = 20;
/** Small transfers from //Alice to Ada, so there is more than a page of blocks and of history. */
const DRIPS = 22;

describe('explorer', () => {
  let preview: RunningPreview;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let ada: string;
  let collectionId: number;

  /** The head block, as the ledger's own status says it. */
  const head = async (): Promise<number> => page.evaluate(async () => (await (await fetch('/sandbox/v1/dev/status')).json()).head.number as number);

  beforeAll(async () => {
    preview = await serveApp();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    errors = watchErrors(page);
    await page.goto(preview.url);
    ada = await createAccount(page, 'Ada', PASSWORD);
    await fundFromAlice(page, 'Ada');
    ({ collectionId } = await asAlice(page, 'POST', '/collections', { name: 'Explorer test', description: 'Seen through the explorer', tokenPrefix: 'EXP' }));
    await asAlice(page, 'POST', '/tokens', { collectionId, owner: ada, data: { name: { _: 'First' } } });
    await asAlice(page, 'POST', '/collections/properties', { collectionId, properties: [{ key: 'website', value: 'https://example.com/explorer' }] });
    for (let i = 0; i < DRIPS; i++) await asAlice(page, 'POST', '/balance/transfer', { destination: ada, amount: 1 });
  });

  afterAll(async () => {
    await browser?.close();
    await preview?.close();
  });

  /** Opens the explorer page of the newest extrinsic in the log titled `title`, by the row's own link. */
  async function openFromLog(title: string): Promise<void> {
    await nav(page, 'Extrinsics');
    // Newest first: the latest of them.
    const row = page.getByTestId('extrinsic').filter({ hasText: title }).first();
    await row.getByRole('link', { name: `${title} in the explorer` }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
  }

  const changes = () => page.getByRole('group', { name: 'What it changed' });
  /** What a person reads: the text with its line breaks and indents as single spaces. */
  const read = async (locator: ReturnType<Page['locator']>) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();

  it('lists blocks newest first, a page at a time, older and newer', async () => {
    const top = await head();
    expect(top).toBeGreaterThan(PAGE + 1);
    await nav(page, 'Explorer');
    const rows = page.getByTestId('block-row');
    await expect.poll(() => page.getByTestId('explorer-head').textContent()).toContain(`block ${top}`);
    await expect.poll(() => rows.count()).toBe(PAGE);
    expect(await rows.first().getByRole('rowheader').textContent()).toBe(String(top));
    expect(await rows.last().getByRole('rowheader').textContent()).toBe(String(top - PAGE + 1));
    expect(await page.getByRole('link', { name: '← Newer' }).count()).toBe(0);
    expect(await unnamedControls(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath('explorer-blocks'), fullPage: true });

    await page.getByRole('link', { name: 'Older →' }).click();
    await expect.poll(() => rows.first().getByRole('rowheader').textContent()).toBe(String(top - PAGE));
    expect(await rows.last().getByRole('rowheader').textContent()).toBe(String(Math.max(0, top - 2 * PAGE + 1)));
    if (top - 2 * PAGE + 1 <= 0) expect(await page.getByRole('link', { name: 'Older →' }).count()).toBe(0);

    await page.getByRole('link', { name: '← Newer' }).click();
    await expect.poll(() => rows.first().getByRole('rowheader').textContent()).toBe(String(top));
    expect(new URL(page.url()).search).toBe('');

    // A block: its header and its one extrinsic, whose page is a click away.
    await rows.first().getByRole('link', { name: String(top) }).click();
    await page.getByRole('heading', { level: 1, name: `Block ${top}` }).waitFor();
    // The block's extrinsics come after its header: wait for them, as a person would.
    const item = page.getByTestId('block-extrinsic');
    await expect.poll(() => item.count()).toBe(1);
    expect(await item.getByRole('link', { name: 'Transfer funds' }).count()).toBe(1);
    await page.getByRole('link', { name: `← Block ${top - 1}` }).click();
    await page.getByRole('heading', { level: 1, name: `Block ${top - 1}` }).waitFor();
    expect(errors).toEqual([]);
  });

  it('says a transfer in words: both balances before and after in display units, the fee and who paid', async () => {
    await openFromLog('Transfer funds');
    expect(await page.getByTestId('extrinsic-outcome').textContent()).toMatch(/Succeeded\.\s+Included in block \d+/);
    expect(await page.getByTestId('extrinsic-signer').textContent()).toContain('Alice');
    expect(await page.getByTestId('extrinsic-fee').textContent()).toMatch(/^\s*0\.\d+ OPL,\s+paid by the signer\s*$/);
    const adaGroup = changes().getByRole('region', { name: 'Ada' });
    // The last drip: Ada's balance went from 1 021 to 1 022 OPL.
    expect(await adaGroup.textContent()).toContain(`+1 OPL (balance 1 ${String(DRIPS - 1).padStart(3, '0')} OPL → 1 ${String(DRIPS).padStart(3, '0')} OPL)`);
    const aliceLine = await changes().getByRole('region', { name: 'Alice' }).getByRole('listitem').first().textContent();
    expect(aliceLine).toMatch(/^−≈?1\.\d+ OPL \(balance ≈?[\d ]+\.\d+ OPL → ≈?[\d ]+\.\d+ OPL\)$/);
    expect(await page.getByRole('list', { name: 'Events of Transfer funds' }).getByText('balances.Transfer').count()).toBe(1);
    expect(await unnamedControls(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath('explorer-extrinsic'), fullPage: true });
  });

  it('shows a mint’s new token and a property set as changes', async () => {
    await openFromLog('Mint a token');
    expect(await changes().getByRole('region', { name: 'Ada' }).textContent()).toContain('Gets a new token #1 of collection “Explorer test”');
    expect(await changes().getByRole('region', { name: /^Token #1 of collection “Explorer test”/i }).textContent()).toContain('Name: “');

    await openFromLog('Set collection properties');
    const collection = changes().getByRole('region', { name: /collection “Explorer test”/i });
    expect(await collection.textContent()).toContain('Property “website” set to “https://example.com/explorer”');
  });

  it('reads an account’s balance history, newest first, paged, from its address’s history link', async () => {
    await nav(page, 'Accounts');
    await page.getByRole('article', { name: 'Ada' }).getByRole('link', { name: /^History of / }).click();
    await page.getByRole('heading', { level: 1, name: 'Ada' }).waitFor();
    const rows = page.getByTestId('balance-change');
    await expect.poll(() => rows.count()).toBe(PAGE);
    expect(await rows.first().getByRole('cell').nth(1).textContent()).toBe('+1 OPL');
    expect(await rows.first().getByRole('cell').nth(2).textContent()).toBe(`1 0${DRIPS} OPL`);
    expect(await page.getByTestId('account-balance').textContent()).toBe(`1 0${DRIPS} OPL`);
    await page.screenshot({ path: screenshotPath('explorer-account'), fullPage: true });

    await page.getByRole('link', { name: 'Older →' }).click();
    await expect.poll(() => rows.count()).toBe(DRIPS + 1 - PAGE);
    const first = rows.last();
    expect(await first.getByRole('cell').nth(1).textContent()).toBe('+1 000 OPL');
    expect(await page.getByRole('link', { name: 'Older →' }).count()).toBe(0);
    await first.getByRole('link', { name: 'Transfer funds' }).click();
    await page.getByRole('heading', { level: 1, name: 'Transfer funds' }).waitFor();
    expect(await changes().getByRole('region', { name: 'Ada' }).textContent()).toContain('+1 000 OPL (balance 0 OPL → 1 000 OPL)');

    // From a token's owner, and from the token itself.
    await page.goto(`${preview.url}collections/${collectionId}/tokens/1`);
    await page.getByTestId('token-owner').getByRole('link', { name: 'History of Ada' }).waitFor();
    await page.getByRole('link', { name: `History of token ${collectionId}/1` }).click();
    await page.getByRole('heading', { level: 1, name: `Token ${collectionId}/1` }).waitFor();
    expect(await page.getByTestId('token-owner-now').textContent()).toContain('Ada');
  });

  it('shows a token as it was at an earlier block, and what changed since', async () => {
    await page.getByLabel('Block number').fill('1');
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByText('The token did not exist at block 1.').waitFor();
    expect(await page.getByRole('group', { name: 'What changed since block 1' }).getByRole('region', { name: 'Ada' }).textContent()).toContain('Gets a new token #1');
  });

  it('finds a block, an extrinsic, an account, a collection and a token', async () => {
    const search = async (text: string) => {
      await page.getByLabel('Search the explorer').fill(text);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
    };
    await nav(page, 'Explorer');
    const top = await head();
    await search(String(top));
    await page.getByRole('heading', { level: 1, name: `Block ${top}` }).waitFor();
    const blockHash = (await page.getByTestId('block-hash').textContent())!;

    await search(String(top - 1));
    await page.getByRole('heading', { level: 1, name: `Block ${top - 1}` }).waitFor();
    await search(blockHash);
    await page.getByRole('heading', { level: 1, name: `Block ${top}` }).waitFor();

    await page.getByTestId('block-extrinsic').getByRole('link', { name: 'Transfer funds' }).click();
    await page.getByRole('heading', { level: 1, name: 'Transfer funds' }).waitFor();
    const extrinsicHash = (await page.getByTestId('extrinsic-hash').textContent())!;
    expect(extrinsicHash).toMatch(/^0x[0-9a-f]{64}$/);
    await nav(page, 'Explorer');
    await search(` ${extrinsicHash.toUpperCase().replace('0X', '0x')} `);
    await page.getByRole('heading', { level: 1, name: 'Transfer funds' }).waitFor();
    expect(page.url()).toContain(extrinsicHash);

    await search(BOB);
    await page.getByRole('heading', { level: 1, name: 'Bob' }).waitFor();

    // Block 1 and collection 1 both exist: both are offered.
    await search(String(collectionId));
    const results = page.getByRole('list', { name: 'Search results' });
    await results.waitFor();
    expect(await results.getByRole('link').allTextContents()).toEqual([`Block ${collectionId}`, `Collection ${collectionId}: Explorer test`]);
    await results.getByRole('link', { name: `Collection ${collectionId}: Explorer test` }).click();
    await page.getByRole('heading', { level: 1, name: 'Explorer test' }).waitFor();

    await nav(page, 'Explorer');
    await search(`${collectionId}/1`);
    await page.getByRole('heading', { level: 1, name: 'First' }).waitFor();

    await nav(page, 'Explorer');
    await search('4000000');
    await page.getByText('Nothing on').waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Nothing on' }).textContent()).toContain('no block and no collection has that number');
    await search('hello');
    await page.getByRole('alert').filter({ hasText: '“hello” is not a block number or hash' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('reverts to a snapshot after saying what is lost, and every open page shows the state as it was', async () => {
    await nav(page, 'Network');
    const section = page.getByRole('region', { name: 'Snapshots and history' });
    await section.getByTestId('no-snapshots').waitFor();
    await section.getByRole('button', { name: 'Take a snapshot' }).click();
    const snapshotBlock = await head();
    const row = section.getByTestId('snapshot-row');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getByRole('rowheader').textContent()).toBe('1');
    expect(await row.getByRole('cell').first().textContent()).toContain(String(snapshotBlock));

    // Another tab shows Ada's balance; the change and the revert happen here.
    const other = await context.newPage();
    const otherErrors = watchErrors(other);
    await other.goto(`${preview.url}accounts`);
    const otherBalance = other.getByRole('article', { name: 'Ada' }).getByTestId('balance');
    await expect.poll(() => otherBalance.textContent()).toBe(`1 0${DRIPS} OPL`);

    await asAlice(page, 'POST', '/balance/transfer', { destination: ada, amount: 500 });
    await expect.poll(() => otherBalance.textContent()).toBe(`1 5${DRIPS} OPL`);

    await section.getByRole('button', { name: `Revert to snapshot 1 (block ${snapshotBlock})` }).click();
    const confirm = section.getByRole('group', { name: 'Confirm revert' });
    await section.screenshot({ path: screenshotPath('network-snapshots') });
    expect(await confirm.getByTestId('revert-loss').textContent()).toMatch(
      new RegExp(`Block ${snapshotBlock + 1} is\\s+removed, with 1 extrinsic in it: each will answer Invalid \\(Reverted\\).*Uploaded files stay\\.`, 's')
    );
    await confirm.getByRole('button', { name: `Revert to block ${snapshotBlock}` }).click();
    await section.getByText(`The ledger is back at block ${snapshotBlock}`).waitFor();
    expect(await head()).toBe(snapshotBlock);

    // The other tab follows the revert's announcement without a reload; this one too.
    await expect.poll(() => otherBalance.textContent()).toBe(`1 0${DRIPS} OPL`);
    await nav(page, 'Accounts');
    await expect.poll(() => page.getByRole('article', { name: 'Ada' }).getByTestId('balance').textContent()).toBe(`1 0${DRIPS} OPL`);

    // The reverted transfer says so in the explorer.
    await openFromLog('Transfer funds');
    expect(await page.getByTestId('extrinsic-outcome').textContent()).toMatch(/^\s*Reverted\./);
    expect(otherErrors).toEqual([]);
    await other.close();
  });

  it('keeps the history the person chooses, and says where it starts', async () => {
    await nav(page, 'Network');
    const section = page.getByRole('region', { name: 'Snapshots and history' });
    expect(await read(section.getByTestId('history-retention'))).toBe('Every block is kept. History reaches back to the genesis block: any block can be read at and reverted to.');
    await section.getByLabel('Blocks of history to keep').fill('2');
    await section.getByRole('button', { name: 'Save' }).click();
    await section.getByText('The last 2 blocks of history are kept from the next block on').waitFor();
    await expect.poll(() => read(section.getByTestId('history-retention'))).toContain('The last 2 blocks are kept.');

    for (let i = 0; i < 4; i++) await asAlice(page, 'POST', '/balance/transfer', { destination: BOB, amount: 1 });
    const start = await page.evaluate(async () => (await (await fetch('/sandbox/v1/dev/status')).json()).history.start as number);
    expect(start).toBeGreaterThan((await head()) - 4);
    await expect.poll(() => read(section.getByTestId('history-retention'))).toContain(`History starts at block ${start}:`);
    // The snapshot's block is now before the kept history: it can no longer be reverted to.
    expect(await section.getByRole('button', { name: /^Revert to snapshot/ }).count()).toBe(0);

    // An old extrinsic's changes are gone; its status stays.
    await openFromLog('Mint a token');
    await page.getByRole('note').filter({ hasText: 'The changes cannot be shown' }).waitFor();
    expect(await page.getByTestId('extrinsic-outcome').textContent()).toContain('Succeeded');

    await nav(page, 'Network');
    await section.getByRole('radio', { name: 'Every block' }).check();
    await section.getByRole('button', { name: 'Save' }).click();
    await section.getByText('Every block’s history is kept from now on').waitFor();
    expect(errors).toEqual([]);
  });

  it('says plainly that the explorer needs an Opalite ledger on a service without one', async () => {
    // A REST service of the real kind: chain properties, and 404 for the explorer's routes.
    const service: Server = createServer((req, res) => {
      const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type, accept', 'content-type': 'application/json' };
      const found = req.url?.startsWith('/v1/common/chain-properties');
      res.writeHead(req.method === 'OPTIONS' ? 204 : found ? 200 : 404, cors);
      res.end(req.method === 'OPTIONS' ? '' : JSON.stringify(found ? { SS58Prefix: 42, token: 'UNQ', decimals: 18 } : { statusCode: 404, message: `Cannot GET ${req.url}` }));
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}/v1`;
    const remote = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    try {
      await remote.goto(preview.url);
      await nav(remote, 'Network');
      await remote.getByRole('radio', { name: /A remote Unique Network REST service/ }).check();
      await remote.getByLabel('Base URL').fill(baseUrl);
      await remote.getByRole('button', { name: 'Use this network' }).click();
      await expect.poll(() => remote.getByTestId('current-base-url').textContent()).toBe(baseUrl);
      // No snapshots to offer there.
      expect(await remote.getByRole('region', { name: 'Snapshots and history' }).count()).toBe(0);
      await nav(remote, 'Explorer');
      const said = remote.getByRole('alert').filter({ hasText: 'needs an Opalite ledger' });
      await said.waitFor();
      expect(await said.textContent()).toContain(`${baseUrl} does not answer the explorer's routes`);
      await remote.goto(`${preview.url}explorer/account/${BOB}`);
      await remote.getByRole('alert').filter({ hasText: 'needs an Opalite ledger' }).waitFor();

      // A contact's address has no history link there (it would lead nowhere); on the sandbox it has.
      await nav(remote, 'Accounts');
      const contacts = remote.getByRole('region', { name: 'Contacts' });
      await contacts.getByLabel('Contact name').fill('Robert');
      await contacts.getByLabel('Contact address').fill(BOB);
      await contacts.getByRole('button', { name: 'Add contact' }).click();
      await contacts.getByRole('button', { name: 'Copy address Robert' }).waitFor();
      expect(await contacts.getByRole('link', { name: 'History of Robert' }).count()).toBe(0);
      await nav(remote, 'Network');
      await remote.getByRole('radio', { name: /Built-in sandbox/ }).check();
      await remote.getByRole('button', { name: 'Use this network' }).click();
      await expect.poll(() => remote.getByTestId('current-base-url').textContent()).toBe(`${preview.url}sandbox/v1`);
      await nav(remote, 'Accounts');
      await contacts.getByRole('link', { name: 'History of Robert' }).waitFor();
    } finally {
      await remote.context().close();
      await new Promise((resolve) => service.close(resolve));
    }
  });
});
