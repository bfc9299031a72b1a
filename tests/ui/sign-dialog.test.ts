// The sign dialog as a person reads it before signing: the call in words and what a dry run
// against the ledger says it will change (balances in OPL, fungible amounts in the collection's
// decimals, pieces, tokens moving out and in, properties set and removed, collections created and
// destroyed, admins, limits and permissions, the fee and the sponsor who pays it); a call the
// chain would refuse shown refused, Sign disabled; Enter at once signs nothing, and Sign is
// armed only after a moment; against a REST service without a dry run, the plain statement and
// a refusal when the account cannot pay there.
import type { Server } from 'node:http';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../server/host';
import type { RunningPreview } from '../../server/preview';
import { BOB, DESKTOP, approve, asAlice, createAccount, fundFromAlice, launchBrowser, nav, restRelay, screenshotPath, serveApp, setting, watchErrors } from './support';

const PASSWORD = 'preview-pass-1';

/** A real Unique REST service has no dry run: NestJS answers an unknown route like this. */
const NO_DRY_RUN = (method: string, path: string) =>
  method === 'POST' && path.endsWith('/extrinsic/dry-run') ? { status: 404, json: { statusCode: 404, message: `Cannot POST ${path}`, error: 'Not Found' } } : null;

describe('the sign dialog previews what a signature will do', () => {
  let preview: RunningPreview;
  let remote: RunningHost;
  let relay: { url: string; server: Server };
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let ada: string;

  /** The open dialog, once its preview came (the call in words). */
  async function reviewed(): Promise<Locator> {
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('sign-words').waitFor({ timeout: 90_000 });
    return dialog;
  }

  /** The lines of one group of changes ("You", "Bob", "collection “Cats” (#1)", …). */
  function lines(dialog: Locator, group: string): Promise<string[]> {
    return dialog.getByTestId('sign-changes').getByRole('region', { name: group, exact: true }).getByRole('listitem').allTextContents();
  }

  const words = (dialog: Locator) => dialog.getByTestId('sign-words').textContent();
  /** All of a group's text, its folded lines too. */
  const groupText = async (dialog: Locator, group: string) => (await dialog.getByTestId('sign-changes').getByRole('region', { name: group, exact: true }).textContent()) ?? '';
  /** A group's title: its subject in words, capitalized ("Collection “Cats” (#1)"). */
  const title = (subject: string) => subject.charAt(0).toUpperCase() + subject.slice(1);
  const section = (name: string) => page.getByRole('region', { name });
  const collectionId = () => Number(page.url().match(/collections\/(\d+)/)![1]);

  async function newCollection(name: string, prefix: string, mode?: 'Fungible' | 'ReFungible', decimals?: string): Promise<{ dialog: Locator }> {
    await nav(page, 'Collections');
    await page.getByRole('link', { name: 'Create collection' }).click();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Token prefix').fill(prefix);
    if (mode) await page.getByLabel('Mode', { exact: true }).selectOption(mode);
    if (decimals !== undefined) await page.getByLabel('Decimals').fill(decimals);
    await page.getByRole('button', { name: 'Create collection' }).click();
    return { dialog: await reviewed() };
  }

  /** Opens Ada's Send panel on the Accounts page, filled in; answers her card. */
  async function sendForm(amount: string): Promise<Locator> {
    await nav(page, 'Accounts');
    const card = page.getByRole('article', { name: 'Ada' });
    const open = card.getByRole('button', { name: 'Send from Ada' });
    if ((await open.getAttribute('aria-expanded')) !== 'true') await open.click();
    await card.getByLabel('Amount (OPL)').fill(amount);
    await card.getByLabel('Send to').fill(BOB);
    return card;
  }

  beforeAll(async () => {
    preview = await serveApp();
    remote = await startHost({ port: 0, log: () => {} });
    relay = await restRelay(remote, NO_DRY_RUN);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    errors = watchErrors(page);
    await page.goto(preview.url);
    ada = await createAccount(page, 'Ada', PASSWORD);
    await fundFromAlice(page, 'Ada');
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => relay?.server.close(done));
    await remote?.stop();
    await preview?.close();
  });

  it('a native transfer: the amount from you to Bob in OPL, the fee paid by you', async () => {
    const card = await sendForm('5');
    await card.getByRole('button', { name: 'Send OPL' }).click();
    const dialog = await reviewed();
    expect(await words(dialog)).toBe('Transfer 5 OPL to Bob');
    const [mine] = await lines(dialog, 'You');
    // The fee comes out of the same balance: a little more than 5 leaves it.
    expect(mine).toMatch(/^−≈?5\.\d+ OPL \(balance 1 000 OPL → ≈?994\.\d+ OPL\)$/);
    expect((await lines(dialog, 'Bob'))[0]).toMatch(/^\+5 OPL \(balance .+ OPL → .+ OPL\)$/);
    expect(await dialog.getByTestId('sign-fee-payer').textContent()).toMatch(/^\s*Fee ≈?0\.\d+ OPL,\s+paid by you\.\s*$/);
    await approve(page, { password: PASSWORD, call: 'balances.transferKeepAlive' });
    await card.getByText('Sent 5 OPL').waitFor();
  });

  it('a collection created, a token minted, sent out and taken back in, properties set and removed', async () => {
    let { dialog } = await newCollection('Cats', 'CAT');
    expect(await words(dialog)).toBe('Create the NFT collection “Cats” (prefix CAT)');
    const created = await dialog.getByTestId('sign-changes').getByRole('region', { name: /^Collection “Cats” \(#\d+\)$/ }).getByRole('listitem').first().textContent();
    expect(created).toBe('Created: NFT collection “Cats”, prefix CAT, owned by you');
    // The creation deposit and the fee go to the chain's treasury, named as such.
    expect((await lines(dialog, 'The treasury'))[0]).toMatch(/^\+≈?2\.\d+ OPL \(balance/);
    await page.screenshot({ path: screenshotPath('sign-preview-create-collection') });
    await approve(page, { password: PASSWORD, call: 'unique.createCollectionEx' });
    await page.getByRole('heading', { level: 1, name: 'Cats' }).waitFor();
    const id = collectionId();
    const cats = `collection “Cats” (#${id})`;

    for (const name of ['Tom', 'Box']) {
      await page.getByRole('link', { name: 'Mint tokens' }).click();
      await page.getByRole('radio', { name: 'No image' }).check();
      await page.getByLabel('Token name').fill(name);
      await page.getByRole('button', { name: 'Mint token' }).click();
      dialog = await reviewed();
      const tokenId = name === 'Tom' ? 1 : 2;
      expect(await words(dialog)).toBe(`Mint token #${tokenId} in ${cats} for you`);
      expect(await lines(dialog, 'You')).toContain(`Gets a new token #${tokenId} of ${cats}`);
      // The collection's Unique schema names the field: "Name: “Tom”", not the key n and its JSON.
      expect(await groupText(dialog, `Token #${tokenId} of ${cats}`)).toContain(`Name: “${name}”`);
      await approve(page, { password: PASSWORD, call: 'unique.createItem' });
      await page.getByRole('heading', { level: 1, name }).waitFor();
      if (name === 'Tom') await page.getByRole('link', { name: '← Cats' }).click();
    }

    // Out: Box (2) into Tom (1)… nested, it leaves you for the token; unnested, it comes back in.
    await page.getByRole('link', { name: '← Cats' }).click();
    await page.getByRole('list', { name: 'Tokens' }).getByRole('link', { name: 'Box (token 2)' }).click();
    await page.getByLabel('Parent collection id').fill(String(id));
    await page.getByLabel('Parent token id').fill('1');
    await page.getByRole('button', { name: 'Nest token' }).click();
    dialog = await reviewed();
    expect(await words(dialog)).toBe(`Transfer token #2 of ${cats} to token #1 of ${cats}`);
    expect(await lines(dialog, 'You')).toContain(`Sends token #2 of ${cats} to token #1 of ${cats}`);
    expect(await lines(dialog, `Token #1 of ${cats}`)).toEqual([`Receives token #2 of ${cats} from you`]);
    await approve(page, { password: PASSWORD, call: 'unique.transferFrom' });
    await page.getByRole('button', { name: /^Unnest from/ }).click();
    dialog = await reviewed();
    expect(await lines(dialog, 'You')).toContain(`Receives token #2 of ${cats} from token #1 of ${cats}`);
    await approve(page, { password: PASSWORD, call: 'unique.transferFrom' });
    await page.getByRole('tree').waitFor({ state: 'detached' });

    // Tom (1) to Bob: out of your account, into his.
    await page.getByRole('link', { name: '← Cats' }).click();
    await page.getByRole('list', { name: 'Tokens' }).getByRole('link', { name: 'Tom (token 1)' }).click();
    await page.getByLabel('Recipient address').fill(BOB);
    await page.getByRole('button', { name: 'Transfer token' }).click();
    dialog = await reviewed();
    expect(await words(dialog)).toBe(`Transfer token #1 of ${cats} to Bob`);
    expect(await lines(dialog, 'You')).toContain(`Sends token #1 of ${cats} to Bob`);
    expect(await lines(dialog, 'Bob')).toEqual([`Receives token #1 of ${cats} from you`]);
    await approve(page, { password: PASSWORD, call: 'unique.transferFrom' });

    await page.getByRole('link', { name: '← Cats' }).click();
    const properties = await setting(page, 'Properties');
    await properties.getByLabel('Key').fill('site');
    await properties.getByLabel('Value').fill('https://cats.example');
    await properties.getByRole('button', { name: 'Set property' }).click();
    dialog = await reviewed();
    expect(await lines(dialog, title(cats))).toEqual(['Property “site” set to “https://cats.example”']);
    await approve(page, { password: PASSWORD, call: 'unique.setCollectionProperties' });
    await properties.getByRole('button', { name: 'Delete property site' }).click();
    await properties.getByRole('button', { name: 'Delete for good' }).click();
    dialog = await reviewed();
    expect(await words(dialog)).toBe(`Remove property “site” of ${cats}`);
    expect(await lines(dialog, title(cats))).toEqual(['Property “site” removed (it was “https://cats.example”)']);
    await approve(page, { password: PASSWORD, call: 'unique.deleteCollectionProperties' });
    expect(errors).toEqual([]);
  });

  it('an admin added, limits and permissions changed, a collection destroyed', async () => {
    await newCollection('Rules', 'RUL');
    await approve(page, { password: PASSWORD, call: 'unique.createCollectionEx' });
    await page.getByRole('heading', { level: 1, name: 'Rules' }).waitFor();
    const rules = `collection “Rules” (#${collectionId()})`;

    const admins = await setting(page, 'Admins');
    await admins.getByLabel('Admin address').fill(BOB);
    await admins.getByRole('button', { name: 'Add admin' }).click();
    let dialog = await reviewed();
    expect(await words(dialog)).toBe(`Make Bob an admin of ${rules}`);
    expect(await lines(dialog, title(rules))).toEqual(['Bob becomes an admin']);
    await approve(page, { password: PASSWORD, call: 'unique.addCollectionAdmin' });

    const limits = await setting(page, 'Limits');
    await limits.getByRole('button', { name: 'Change limits' }).click();
    await limits.getByLabel('Token limit').fill('10');
    await limits.getByRole('button', { name: 'Save limits' }).click();
    dialog = await reviewed();
    expect(await lines(dialog, title(rules))).toEqual(['Limit “token limit”: not set → 10']);
    await approve(page, { password: PASSWORD, call: 'unique.setCollectionLimits' });

    const permissions = await setting(page, 'Permissions');
    await permissions.getByRole('button', { name: 'Change permissions' }).click();
    await permissions.getByLabel('Anyone may mint (mint mode)').check();
    await permissions.getByRole('button', { name: 'Save permissions' }).click();
    dialog = await reviewed();
    expect(await lines(dialog, title(rules))).toContain('Mint mode (others may mint): off → on');
    await approve(page, { password: PASSWORD, call: 'unique.setCollectionPermissions' });

    await setting(page, 'Transfers and ownership');
    await page.getByRole('button', { name: 'Destroy collection' }).click();
    await page.getByRole('button', { name: 'Destroy for good' }).click();
    dialog = await reviewed();
    expect(await words(dialog)).toBe(`Destroy ${rules}`);
    expect(await lines(dialog, title(rules))).toEqual(['Destroyed (it was “Rules”)']);
    await approve(page, { password: PASSWORD, call: 'unique.destroyCollection' });
    await page.waitForURL(/\/collections$/);
  });

  it('a fungible send in the collection’s decimals; overspending is refused before signing, in display units', async () => {
    await newCollection('Gold', 'GLD', 'Fungible', '2');
    await approve(page, { password: PASSWORD, call: 'unique.createCollectionEx' });
    await page.getByRole('heading', { level: 1, name: 'Gold' }).waitFor();
    const gold = `collection “Gold” (#${collectionId()})`;
    const fungible = section('Fungible token');
    await fungible.getByLabel('Amount to mint').fill('1134.25');
    await fungible.getByRole('button', { name: 'Mint', exact: true }).click();
    let dialog = await reviewed();
    expect(await words(dialog)).toBe(`Mint 1 134.25 GLD of ${gold} for you`);
    expect(await lines(dialog, 'You')).toContain(`+1 134.25 GLD of ${gold} (balance 0 GLD → 1 134.25 GLD)`);
    await approve(page, { password: PASSWORD, call: 'unique.createItem' });
    await expect.poll(() => fungible.getByTestId('ft-mine').textContent()).toBe('1134.25 GLD');

    await fungible.getByLabel('Amount to send').fill('250.5');
    await fungible.getByLabel('Send to').fill(BOB);
    await fungible.getByRole('button', { name: 'Send', exact: true }).click();
    dialog = await reviewed();
    expect(await words(dialog)).toBe(`Send 250.5 GLD of ${gold} to Bob`);
    expect(await lines(dialog, 'You')).toContain(`−250.5 GLD of ${gold} (balance 1 134.25 GLD → 883.75 GLD)`);
    expect(await lines(dialog, 'Bob')).toEqual([`+250.5 GLD of ${gold} (balance 0 GLD → 250.5 GLD)`]);
    await approve(page, { password: PASSWORD, call: 'unique.transferFrom' });
    await expect.poll(() => fungible.getByTestId('ft-mine').textContent()).toBe('883.75 GLD');

    await fungible.getByLabel('Amount to send').fill('99999');
    await fungible.getByLabel('Send to').fill(BOB);
    await fungible.getByRole('button', { name: 'Send', exact: true }).click();
    dialog = await reviewed();
    const refusal = dialog.getByTestId('sign-refusal');
    await expect.poll(() => refusal.textContent()).toMatch(/^Refused\. The chain would refuse this call: .+ holds 883\.75 GLD of collection \d+ and cannot send 99999 GLD \(common\.TokenValueTooLow\)/);
    // Armed, and still disabled: the refusal, not the wait, keeps it so.
    const sign = dialog.getByRole('button', { name: 'Sign and submit' });
    await dialog.locator('button[data-armed="true"]').waitFor();
    expect(await sign.isDisabled()).toBe(true);
    expect(await sign.getAttribute('aria-describedby')).toBe('sign-refusal');
    await page.screenshot({ path: screenshotPath('sign-preview-refused') });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await fungible.getByTestId('ft-mine').textContent()).toBe('883.75 GLD');
  });

  it('refungible pieces minted and sent, as whole numbers', async () => {
    await newCollection('Shares', 'SHR', 'ReFungible');
    await approve(page, { password: PASSWORD, call: 'unique.createCollectionEx' });
    await page.getByRole('heading', { level: 1, name: 'Shares' }).waitFor();
    const shares = `collection “Shares” (#${collectionId()})`;
    const mint = section('Mint a token in pieces');
    await mint.getByLabel('Name', { exact: true }).fill('Mural');
    await mint.getByLabel('Pieces').fill('100');
    await mint.getByRole('button', { name: 'Mint token' }).click();
    let dialog = await reviewed();
    expect(await words(dialog)).toBe(`Mint token #1 in 100 pieces in ${shares} for you`);
    expect(await lines(dialog, 'You')).toEqual(expect.arrayContaining([`Gets a new token #1 of ${shares}`, `+100 pieces of token #1 of ${shares} (holds 0 pieces → 100 pieces)`]));
    expect(await groupText(dialog, `Token #1 of ${shares}`)).toContain('Made of 100 pieces');
    await approve(page, { password: PASSWORD, call: 'unique.createItem' });
    await page.getByRole('heading', { level: 1, name: 'Mural' }).waitFor();

    const pieces = section('Pieces');
    await pieces.getByLabel('Pieces to send').fill('25');
    await pieces.getByLabel('Send to').fill(BOB);
    await pieces.getByRole('button', { name: 'Send', exact: true }).click();
    dialog = await reviewed();
    expect(await words(dialog)).toBe(`Send 25 pieces of token #1 of ${shares} to Bob`);
    expect(await lines(dialog, 'You')).toContain(`−25 pieces of token #1 of ${shares} (holds 100 pieces → 75 pieces)`);
    expect(await lines(dialog, 'Bob')).toEqual([`+25 pieces of token #1 of ${shares} (holds 0 pieces → 25 pieces)`]);
    await approve(page, { password: PASSWORD, call: 'unique.transferFrom' });
    await expect.poll(() => pieces.getByTestId('rft-mine').textContent()).toBe('75 (75%)');
  });

  it('a sponsored call: the fee is paid by the collection’s sponsor, not by you', async () => {
    // //Alice makes a collection she sponsors, and gives Ada a token of it.
    const { collectionId: id } = await asAlice(page, 'POST', '/collections', { name: 'Sponsored', description: 'Fees paid by Alice', tokenPrefix: 'SPN' });
    await asAlice(page, 'POST', '/collections/sponsorship', { collectionId: id, newSponsor: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY' });
    await asAlice(page, 'POST', '/collections/sponsorship/confirm', { collectionId: id });
    await asAlice(page, 'POST', '/tokens', { collectionId: id, owner: ada });

    await page.goto(`${preview.url}collections/${id}/tokens/1`);
    await page.getByLabel('Recipient address').fill(BOB);
    await page.getByRole('button', { name: 'Transfer token' }).click();
    const dialog = await reviewed();
    expect(await dialog.getByTestId('sign-fee-payer').textContent()).toMatch(/^\s*Fee ≈?0\.\d+ OPL,\s+paid by the collection’s sponsor, Alice\.\s*$/);
    // Alice's balance pays; nothing of yours but the token moves.
    expect(await lines(dialog, 'You')).toEqual([`Sends token #1 of collection “Sponsored” (#${id}) to Bob`]);
    expect((await lines(dialog, 'Alice'))[0]).toMatch(/^−≈?0\.\d+ OPL \(balance/);
    await approve(page, { password: PASSWORD, call: 'unique.transferFrom' });
  });

  it('Enter pressed at once signs nothing and Sign is not focused; a held Enter does not count; Sign arms after a moment', async () => {
    const card = await sendForm('1');
    // The page's clock stands still from here: the arming cannot complete until it moves again.
    await page.clock.install();
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    await card.getByLabel('Amount (OPL)').press('Enter');
    const dialog = await reviewed();
    const sign = dialog.locator('button[type="submit"]');
    // The key is unlocked by the earlier signatures: nothing to type, the heading has the focus.
    expect(await dialog.getByLabel(/^Password of/).count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('sign-title');
    await page.keyboard.press('Enter');
    await page.keyboard.down('Enter');
    expect(await sign.textContent()).toBe('Getting ready…');
    expect(await sign.getAttribute('data-armed')).toBe('false');
    expect(await sign.isDisabled()).toBe(true);
    expect(await sign.evaluate((el) => el === document.activeElement)).toBe(false);
    expect(await dialog.getByRole('status').filter({ hasText: 'Sign becomes available a moment after' }).count()).toBe(1);

    await page.clock.resume();
    await dialog.locator('button[data-armed="true"]').waitFor();
    // The app's own call: once armed, Sign takes the focus for the keyboard.
    await expect.poll(() => sign.evaluate((el) => el === document.activeElement)).toBe(true);
    // Enter, held down since before Sign was armed, repeats now: no repeat signs.
    await page.keyboard.down('Enter');
    await page.keyboard.up('Enter');
    expect(await sign.textContent()).toBe('Sign and submit');
    // A fresh, deliberate Enter signs.
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden', timeout: 90_000 });
    await card.getByText('Sent 1 OPL').waitFor();
  });

  it('with the key locked, Enter in the password field does not sign before Sign is armed', async () => {
    const card = await sendForm('2');
    await card.getByRole('button', { name: 'Lock Ada' }).click();
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    await card.getByRole('button', { name: 'Send OPL' }).click();
    const dialog = await reviewed();
    const password = dialog.getByLabel('Password of Ada');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('sign-password');
    await password.fill(PASSWORD);
    await password.press('Enter');
    // Signing would have begun at once ("Unlocking…"): it did not.
    const sign = dialog.locator('button[type="submit"]');
    expect(await sign.textContent()).toBe('Getting ready…');
    expect(await password.isVisible()).toBe(true);

    await page.clock.resume();
    await dialog.locator('button[data-armed="true"]').waitFor();
    // Locked: the focus stays in the password field, where the next Enter signs.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('sign-password');
    await password.press('Enter');
    await dialog.waitFor({ state: 'hidden', timeout: 90_000 });
    await card.getByText('Sent 2 OPL').waitFor();
  });

  it('on a REST service without a dry run: says so plainly, and refuses before signing when the account cannot pay the fee there', async () => {
    await nav(page, 'Network');
    await page.getByRole('radio', { name: /A remote Unique Network REST service/ }).check();
    await page.getByLabel('Base URL').fill(relay.url);
    await page.getByRole('button', { name: 'Check reachability' }).click();
    await page.getByRole('status').filter({ hasText: 'answers' }).waitFor();
    await page.getByRole('button', { name: 'Use this network' }).click();
    await expect.poll(() => page.getByTestId('current-base-url').textContent()).toBe(relay.url);

    // Ada has nothing on that service.
    const card = await sendForm('1');
    await card.getByRole('button', { name: 'Send OPL' }).click();
    let dialog = await reviewed();
    expect(await words(dialog)).toBe('Transfer 1 OPL to 5FHneW…94ty');
    expect(await dialog.getByTestId('sign-notes').textContent()).toContain(`${relay.url} cannot preview what this call will do (it has no dry run)`);
    expect(await dialog.getByTestId('sign-changes').count()).toBe(0);
    await expect.poll(() => dialog.getByTestId('sign-refusal').textContent()).toMatch(
      new RegExp(`^Refused\\. Your account has 0 OPL on ${relay.url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, and this needs ≈?1\\.\\d+ OPL \\(the fee included\\)`)
    );
    await dialog.locator('button[data-armed="true"]').waitFor();
    expect(await dialog.getByRole('button', { name: 'Sign and submit' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Funded there, the same transfer may be signed: the statement stays, the refusal goes.
    const funded = await fetch(`${remote.url}/balance/transfer?use=Result`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Seed //Alice' },
      body: JSON.stringify({ address: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY', destination: ada, amount: 10 })
    });
    expect(funded.ok, await funded.clone().text()).toBe(true);
    await card.getByRole('button', { name: 'Send OPL' }).click();
    dialog = await reviewed();
    expect(await dialog.getByTestId('sign-notes').textContent()).toContain('it has no dry run');
    expect(await dialog.getByTestId('sign-refusal').count()).toBe(0);
    await approve(page, { password: PASSWORD, call: 'balances.transferKeepAlive' });
    const balance = await (await fetch(`${remote.url}/balance?address=${ada}`)).json();
    expect(Number(balance.freeBalance.amount)).toBeLessThan(9);
    expect(errors).toEqual([]);
  });
});
