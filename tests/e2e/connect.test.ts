// `opalite/connect`: a page of a second origin (another site: `localhost` beside the app's
// `127.0.0.1`, so the browser partitions what it would frame) reaches the Opalite app's own
// sandbox through a first-party Opalite window, after the person allowed it there, and sees the
// very ledger the Opalite tab shows, and the accounts the person shares with it, no others.
// Refused before consent, on Deny, and after revocation on the Network page; keys never cross
// (the app signs with its own key, or Opalite's sign dialog signs with a shared account).
// The hostile cases are in connect-hostile.test.ts, the extension's shape in connect-extension.test.ts.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { hexToU8a, stringToU8a } from '@polkadot/util';
import { cryptoWaitReady, decodeAddress, sr25519Verify } from '@polkadot/util-crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningPreview } from '../../server/preview';
import { axeViolations, createAccount } from '../ui/support';
import { allowWith, appPageHtml, callOtherApp, clickClosingWindow, connectOutcome, popupFrom, serveOtherSite, signInDialog, type OtherSite } from './connect-support';
import { PROJECT_ROOT } from './paths';
import { ALICE, BOB, call, createCollection, launchBrowser, openControlled, serveApp, submit } from './support';
import { bundleBrowserEntry } from './test-pages';

let browser: Browser;
let app: RunningPreview;
let other: OtherSite;
let context: BrowserContext;
let opalite: Page;
let otherPage: Page;
let sharedId: number;
/** The Opalite window of the connection in use. */
let connected: Page;

const otherApp = (name: string, ...args: unknown[]) => callOtherApp(otherPage, name, ...args);

const outcome = () => connectOutcome(otherPage);

const storedConsent = async () => JSON.parse((await opalite.evaluate(() => localStorage.getItem('opalite:connect:v2'))) ?? 'null');
const accountLists = () => otherPage.evaluate(() => (window as any).otherApp.state.accountLists);

beforeAll(async () => {
  const bundle = await bundleBrowserEntry(join(PROJECT_ROOT, 'tests/e2e/fixtures/connect-page.ts'), 'connect-page.js');
  [browser, app, other] = await Promise.all([
    launchBrowser(),
    serveApp(),
    serveOtherSite({ '/': appPageHtml('Another app', '/connect-page.js'), '/connect-page.js': readFileSync(bundle) })
  ]);
  context = await browser.newContext();
  opalite = await openControlled(context, app.url);
  sharedId = await createCollection(opalite, 'Made in the Opalite tab');
  otherPage = await context.newPage();
  otherPage.on('pageerror', (error) => console.error('[other app]', error));
  await otherPage.goto(`${other.origin}/?opalite=${encodeURIComponent(app.url)}`);
  await otherPage.waitForFunction(() => 'otherApp' in window);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await other?.close();
});

describe('before consent', () => {
  it('the Opalite window asks, and answers a request sent meanwhile with a 403 envelope', async () => {
    const popup = await popupFrom(otherPage, 'Probe without consent');
    await expect.poll(() => popup.getByTestId('connect-origin').textContent(), { timeout: 90_000 }).toBe(other.origin);
    await otherPage.waitForFunction(() => (window as any).otherApp.state.probe !== null);
    const probe = await otherPage.evaluate(() => (window as any).otherApp.state.probe);
    expect(probe.status).toBe(403);
    expect(probe.json.error).toMatchObject({ code: 'UN01004', name: 'ValidationError', message: `${other.origin} is not allowed to use this Opalite sandbox: connect again and allow it in Opalite` });
    await popup.close();
  });

  it('the question names the origin and the name the app gives itself, with no way out of the window; Deny remembers nothing', async () => {
    const popup = await popupFrom(otherPage, 'Connect to Opalite');
    await popup.getByRole('heading', { name: `${other.origin} wants to use your Opalite sandbox ledger` }).waitFor({ timeout: 90_000 });
    expect(await popup.getByTestId('connect-app-name').textContent()).toBe('Other app');
    // No app navigation: nothing here takes the window elsewhere (which would end the connection).
    expect(await popup.getByRole('navigation').count()).toBe(0);
    expect(await popup.getByRole('link').count()).toBe(0);
    // The wallet has no account yet: there is nothing to share.
    await popup.getByTestId('no-wallet-accounts').waitFor();
    const serious = ((await axeViolations(popup)) ?? []).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious).toEqual([]);
    await clickClosingWindow(popup, popup.getByRole('button', { name: 'Deny' }));
    expect(await outcome()).toEqual({ connected: false, code: 'refused', message: 'The person denied access to the Opalite sandbox' });
    expect(await storedConsent()).toBeNull();
  });
});

describe('after Allow', () => {
  it('the other origin reads the very ledger the Opalite tab shows', async () => {
    const popup = await popupFrom(otherPage, 'Connect to Opalite');
    await allowWith(popup, other.origin, []);
    expect(await outcome()).toEqual({ connected: true, baseUrl: `${new URL(app.url).origin}/sandbox/v1` });
    await expect.poll(() => popup.getByTestId('connect-status').textContent()).toContain(`${other.origin} uses your sandbox ledger`);

    const path = `/sandbox/v1/collections?collectionId=${sharedId}`;
    const seen = await otherApp('fetch', path);
    const inOpalite = await call(opalite, 'GET', path);
    expect(seen).toMatchObject({ ok: true, status: 200, host: 'service-worker' });
    expect(seen.json).toMatchObject({ id: sharedId, name: 'Made in the Opalite tab', owner: ALICE });
    expect(seen.json).toEqual(inOpalite.json);
    // The same chain, not merely the same data: one genesis, one head.
    const chain = await otherApp('fetch', '/sandbox/v1/dev/status');
    const opaliteChain = await call(opalite, 'GET', '/sandbox/v1/dev/status');
    expect(chain.json.genesisHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect({ genesisHash: chain.json.genesisHash, head: chain.json.head }).toEqual({ genesisHash: opaliteChain.json.genesisHash, head: opaliteChain.json.head });
    // Allowed, remembered on Opalite's origin: the origin, its dates and the accounts shared (none).
    expect(await storedConsent()).toEqual({ v: 2, apps: [{ origin: other.origin, allowedAt: expect.any(Number), lastUsedAt: expect.any(Number), accounts: [] }] });
    expect(await otherApp('accounts')).toEqual({ ok: true, accounts: [] });
  });

  it('a write from the other origin, signed with its own key through the SDK, appears in the Opalite tab', async () => {
    const id = await otherApp('createCollectionAsBob', 'Written from another origin');
    expect(id).toBeGreaterThan(sharedId);
    const inOpalite = await call(opalite, 'GET', `/sandbox/v1/collections?collectionId=${id}`);
    expect(inOpalite.json).toMatchObject({ id, name: 'Written from another origin', owner: BOB });
  });

  it('keys never cross, and the ledger tools and other paths stay out of reach', async () => {
    const body = { address: ALICE, name: 'x', description: 'x', tokenPrefix: 'X' };
    const seed = await otherApp('fetch', '/sandbox/v1/collections?use=Result', { method: 'POST', body, headers: { authorization: 'Seed //Alice' } });
    expect(seed).toMatchObject({ ok: false, code: 'credentials' });
    const reset = await otherApp('fetch', '/sandbox/v1/dev/reset', { method: 'POST', body: {} });
    expect(reset).toMatchObject({ ok: true, status: 403, json: { error: { message: expect.stringMatching(/for its owner/) } } });
    const page = await otherApp('fetch', '/network');
    expect(page).toMatchObject({ ok: true, status: 403, json: { error: { message: expect.stringMatching(/^Only the sandbox API/) } } });
    const elsewhere = await otherApp('fetch', `${other.origin}/sandbox/v1/collections`);
    expect(elsewhere).toMatchObject({ ok: false, code: 'outside-opalite' });
    // Nothing of that changed the ledger: the collection made first is still there.
    expect((await call(opalite, 'GET', `/sandbox/v1/collections?collectionId=${sharedId}`)).json).toMatchObject({ name: 'Made in the Opalite tab' });
  });

  it('an origin allowed once connects again without being asked', async () => {
    await otherApp('close');
    connected = await popupFrom(otherPage, 'Connect to Opalite');
    expect(await outcome()).toMatchObject({ connected: true });
    expect(await connected.getByRole('button', { name: 'Allow' }).count()).toBe(0);
    const seen = await otherApp('fetch', `/sandbox/v1/collections?collectionId=${sharedId}`);
    expect(seen).toMatchObject({ status: 200, json: { name: 'Made in the Opalite tab' } });
  });
});

describe('the Opalite window stays the app’s', () => {
  it('a link followed in it (as a notice or an address may show one) opens in a tab of its own, and the connection stays', async () => {
    // Nothing in the window links elsewhere today; a link of the app's own kind stands in for one.
    await connected.evaluate(() => {
      const link = Object.assign(document.createElement('a'), { href: '/accounts', textContent: 'Your accounts' });
      document.querySelector('main')!.append(link);
    });
    const [opened] = await Promise.all([context.waitForEvent('page'), connected.getByRole('link', { name: 'Your accounts' }).click()]);
    await opened.waitForLoadState();
    expect(new URL(opened.url()).pathname).toBe('/accounts');
    await opened.close();
    expect(new URL(connected.url()).pathname).toBe('/connect');
    expect(await connected.getByTestId('connect-status').textContent()).toContain(`${other.origin} uses your sandbox ledger`);
    expect(await otherApp('fetch', `/sandbox/v1/collections?collectionId=${sharedId}`)).toMatchObject({ status: 200 });
  });
});

describe('accounts, signPayload and signRaw', () => {
  const PASSWORD = 'correct horse battery';
  let account: string;
  let kept: string;
  let genesisHash: string;

  beforeAll(async () => {
    account = await createAccount(opalite, 'Signer for apps', PASSWORD);
    kept = await createAccount(opalite, 'Kept to myself', PASSWORD);
    await submit(opalite, '/sandbox/v1/balance/transfer', { address: ALICE, destination: account, amount: 10 });
    genesisHash = (await call(opalite, 'GET', '/sandbox/v1/dev/status')).json.genesisHash;
    await cryptoWaitReady();
    // A window open since before the accounts existed learns of them when the person comes back
    // to it (focus), which headless Chromium never signals: connect again for a window that lists them.
    await otherApp('close');
    connected = await popupFrom(otherPage, 'Connect to Opalite');
    expect(await outcome()).toMatchObject({ connected: true });
  });

  it('the person shares an account in the Opalite window, and the app is told that one only', async () => {
    await otherApp('watchAccounts');
    await expect.poll(accountLists).toEqual([[]]);
    await connected.getByRole('checkbox', { name: /^Signer for apps / }).check();
    await connected.getByRole('button', { name: 'Share these accounts' }).click();
    const shared = [{ address: account, name: 'Signer for apps', type: 'sr25519', genesisHash }];
    await expect.poll(accountLists, { timeout: 90_000 }).toEqual([[], shared]);
    expect(await otherApp('accounts')).toEqual({ ok: true, accounts: shared });
    expect((await storedConsent()).apps[0].accounts).toEqual([account]);
  });

  it("opens Opalite's sign dialog, marked as the app's; the person unlocks the key and signs, and only the signature comes back", async () => {
    const transfer = otherApp('transferSignedInOpalite', account, BOB);
    const dialog = connected.getByRole('dialog');
    await dialog.getByRole('heading', { name: `Sign: ${other.origin} asks you to sign` }).waitFor({ timeout: 90_000 });
    expect(await dialog.getByTestId('sign-origin').textContent()).toContain(other.origin);
    expect(await dialog.getByTestId('sign-call').textContent()).toBe('balances.transferKeepAlive');
    await signInDialog(connected, PASSWORD);
    const result = await transfer;
    expect(result).toMatchObject({ ok: true, submitted: 201, signature: expect.stringMatching(/^0x01[0-9a-f]{128}$/), status: { isCompleted: true, isError: false } });
    expect(typeof result.id).toBe('number');
  });

  it('refuses without asking: another chain, an account of the wallet not shared, an account not in the wallet; reports a cancel', async () => {
    const otherChain = await otherApp('transferSignedInOpalite', account, BOB, 'other-chain');
    expect(otherChain).toMatchObject({ ok: false, code: 'sign-refused', message: expect.stringMatching(/another chain/) });
    const notShared = await otherApp('transferSignedInOpalite', kept, BOB);
    expect(notShared).toMatchObject({ ok: false, code: 'sign-refused', message: `${kept} is not an account the person shared with ${other.origin}: they can share it in the Opalite window` });
    const notOurs = await otherApp('transferSignedInOpalite', ALICE, BOB);
    expect(notOurs).toMatchObject({ ok: false, code: 'sign-refused', message: expect.stringMatching(/is not an account the person shared/) });

    const cancelled = otherApp('transferSignedInOpalite', account, BOB);
    await connected.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await cancelled).toMatchObject({ ok: false, code: 'cancelled' });
  });

  it('signRaw signs the message wrapped as <Bytes>…</Bytes>, shown to the person as text', async () => {
    const message = 'I own this account';
    const signed = otherApp('signRaw', account, message);
    const dialog = connected.getByRole('dialog');
    await dialog.getByRole('heading', { name: `Sign: ${other.origin} asks you to sign a message` }).waitFor({ timeout: 90_000 });
    await dialog.getByText(message, { exact: true }).waitFor();
    await signInDialog(connected, PASSWORD);
    const result = await signed;
    expect(result).toMatchObject({ ok: true, signature: expect.stringMatching(/^0x01[0-9a-f]{128}$/) });
    // The MultiSignature is 0x01 (sr25519) and the signature; checked strictly (signatureVerify would try both forms).
    const signature = hexToU8a(result.signature).subarray(1);
    expect(sr25519Verify(stringToU8a(`<Bytes>${message}</Bytes>`), signature, decodeAddress(account))).toBe(true);
    expect(sr25519Verify(stringToU8a(message), signature, decodeAddress(account))).toBe(false);
  });
});

describe('the Network page', () => {
  it('lists the app with its accounts and last use; changing its accounts there tells the app', async () => {
    await opalite.goto(`${app.url}network`);
    const apps = opalite.getByRole('list', { name: 'Allowed apps' });
    await expect.poll(() => apps.getByRole('listitem').allTextContents(), { timeout: 90_000 }).toEqual([expect.stringContaining(other.origin)]);
    const entry = apps.getByRole('listitem');
    expect(await entry.getByTestId('shared-accounts').textContent()).toMatch(/Sees\s+Signer for apps/);
    expect(await entry.textContent()).toMatch(/last used /);

    await entry.getByRole('button', { name: `Choose accounts for ${other.origin}` }).click();
    await entry.getByRole('checkbox', { name: /^Kept to myself / }).check();
    await entry.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => entry.getByTestId('shared-accounts').textContent()).toMatch(/Signer for apps.*Kept to myself/s);
    await expect.poll(async () => (await accountLists()).at(-1).map((a: { name: string }) => a.name), { timeout: 90_000 }).toEqual(['Signer for apps', 'Kept to myself']);
  });

  it('revoking refuses the very next request, empties the app’s accounts, and the Opalite window says so', async () => {
    const apps = opalite.getByRole('list', { name: 'Allowed apps' });
    await apps.getByRole('button', { name: `Revoke ${other.origin}` }).click();
    await opalite.getByTestId('no-allowed-apps').waitFor();

    const refused = await otherApp('fetch', `/sandbox/v1/collections?collectionId=${sharedId}`);
    expect(refused).toMatchObject({ ok: true, status: 403, json: { error: { code: 'UN01004', message: `${other.origin} is not allowed to use this Opalite sandbox: connect again and allow it in Opalite` } } });
    expect(await otherApp('connectionState')).toBe('revoked');
    expect(await otherApp('accounts')).toEqual({ ok: true, accounts: [] });
    await expect.poll(async () => (await accountLists()).at(-1)).toEqual([]);
    await expect.poll(() => connected.getByTestId('connect-status').textContent()).toContain('was revoked');
  });

  it('a revoked origin is asked again when it connects again, with nothing checked', async () => {
    await otherApp('close');
    const popup = await popupFrom(otherPage, 'Connect to Opalite');
    await popup.getByRole('heading', { name: `${other.origin} wants to use your Opalite sandbox ledger` }).waitFor({ timeout: 90_000 });
    const boxes = popup.getByRole('checkbox');
    expect(await boxes.count()).toBe(2);
    for (const box of await boxes.all()) expect(await box.isChecked()).toBe(false);
    await clickClosingWindow(popup, popup.getByRole('button', { name: 'Deny' }));
    expect(await outcome()).toMatchObject({ connected: false, code: 'refused' });
  });
});
