// The Opalite window against a hostile page, in Chromium, as the browser delivers the messages:
// the app on 127.0.0.1, the other page on localhost (two sites). A window that is not the
// opener and a second origin behind the same opener are not heard; plain http on the network is
// refused; payloads the signing rule refuses (tampered extension lists, trailing bytes) and
// accounts not shared are refused before any dialog; an Enter within 0.8 s of the dialog does
// not sign; and no signature arrives once access is revoked, even with the dialog open.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningPreview } from '../../server/preview';
import { createAccount } from '../ui/support';
import { allowWith, appPageHtml, callOtherApp, connectOutcome, countDialogs, dialogsOpened, popupFrom, serveOtherSite, type OtherSite } from './connect-support';
import { PROJECT_ROOT } from './paths';
import { ALICE, BOB, call, launchBrowser, openControlled, serveApp, submit } from './support';
import { bundleBrowserEntry } from './test-pages';

/** A host name of the other app that is not this computer's: plain http to it crosses the network (mapped to 127.0.0.1 here). */
const LAN_HOST = 'lan.opalite.test';
const PASSWORD = 'correct horse battery';

let browser: Browser;
let app: RunningPreview;
let other: OtherSite;
let second: OtherSite;
let context: BrowserContext;
let opalite: Page;
let otherPage: Page;
let shared: string;
let notShared: string;

const otherApp = (name: string, ...args: unknown[]) => callOtherApp(otherPage, name, ...args);

/** What the raw client heard from Opalite, but the `loaded` greeting. */
const rawHeard = async () => ((await otherPage.evaluate(() => (window as any).otherApp.state.raw)) as { type: string; id?: number }[]).filter((m) => m.type !== 'loaded');

const outcome = () => connectOutcome(otherPage);

async function openOtherApp(origin: string): Promise<void> {
  await otherPage.goto(`${origin}/?opalite=${encodeURIComponent(app.url)}`);
  await otherPage.waitForFunction(() => 'otherApp' in window);
}

/** A transfer of 1 from `from` to Bob, built by the sandbox (in the Opalite tab). */
async function builtTransfer(from: string) {
  const built = await call(opalite, 'POST', '/sandbox/v1/balance/transfer?use=Build', { address: from, destination: BOB, amount: 1 });
  expect(built.status).toBe(201);
  return built.json.signerPayloadJSON;
}

const request = (id: number) => ({ v: 1, type: 'request', id, method: 'GET', path: '/sandbox/v1/common/chain-properties', headers: [], body: null });

beforeAll(async () => {
  const bundle = readFileSync(await bundleBrowserEntry(join(PROJECT_ROOT, 'tests/e2e/fixtures/connect-page.ts'), 'connect-page.js'));
  const files = { '/': appPageHtml('Another app', '/connect-page.js'), '/connect-page.js': bundle };
  [browser, app, other, second] = await Promise.all([launchBrowser([`--host-resolver-rules=MAP ${LAN_HOST} 127.0.0.1`]), serveApp(), serveOtherSite(files), serveOtherSite(files)]);
  context = await browser.newContext();
  opalite = await openControlled(context, app.url);
  shared = await createAccount(opalite, 'Shared', PASSWORD);
  notShared = await createAccount(opalite, 'Not shared', PASSWORD);
  await submit(opalite, '/sandbox/v1/balance/transfer', { address: ALICE, destination: shared, amount: 10 });
  otherPage = await context.newPage();
  otherPage.on('pageerror', (error) => console.error('[other app]', error));
  await openOtherApp(other.origin);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await other?.close();
  await second?.close();
});

describe('who the Opalite window hears', () => {
  let rawPopup: Page;

  it('not a window other than its opener, even of the same origin, before consent or after', async () => {
    rawPopup = await popupFrom(otherPage, 'Open Opalite (raw)');
    await otherPage.waitForFunction(() => (window as any).otherApp.state.raw.some((m: { type: string }) => m.type === 'loaded'), null, { timeout: 90_000 });
    await countDialogs(rawPopup);
    // The frame says hello and asks first; then the opener.
    await otherApp('rawPostFromFrame', [{ v: 1, type: 'hello' }, request(7)], [{ v: 1, type: 'hello' }, request(8)]);
    await allowWith(rawPopup, other.origin, ['Shared']);
    await expect.poll(rawHeard, { timeout: 90_000 }).toEqual([
      expect.objectContaining({ type: 'response', id: 8, status: 403 }),
      expect.objectContaining({ type: 'ready' })
    ]);

    // Connected now: the frame's request and sign are still not heard; the opener's next request is.
    const payload = await builtTransfer(shared);
    await otherApp('rawPostFromFrame', [request(10), { v: 1, type: 'sign', id: 11, payload }], [request(12)]);
    await expect.poll(async () => (await rawHeard()).map((m) => m.id ?? m.type), { timeout: 90_000 }).toEqual([8, 'ready', 12]);
    expect(await dialogsOpened(rawPopup)).toBe(0);
  });

  it('not a second origin behind the same opener (it went to another site and found the window by name)', async () => {
    await openOtherApp(second.origin);
    expect(second.origin).not.toBe(other.origin);
    await otherPage.getByRole('button', { name: 'Find the Opalite window' }).click();
    await rawPopup.evaluate(() => {
      const w = window as unknown as { markerSeen: boolean };
      w.markerSeen = false;
      addEventListener('message', (event) => (w.markerSeen ||= event.data?.marker === true));
    });
    const payload = await builtTransfer(shared);
    for (const message of [{ v: 1, type: 'hello' }, request(20), { v: 1, type: 'sign', id: 21, payload }, { marker: true }]) await otherApp('rawPost', message);
    // Messages of one window to another arrive in order: the marker comes after all of the above.
    await rawPopup.waitForFunction(() => (window as unknown as { markerSeen: boolean }).markerSeen, null, { timeout: 90_000 });
    await rawPopup.evaluate(() => fetch('/sandbox/v1/common/chain-properties').then((response) => response.text()));
    expect(await rawHeard()).toEqual([]);
    expect(await rawPopup.getByTestId('connect-status').textContent()).toContain(`${other.origin} uses your sandbox ledger`);
    expect(await dialogsOpened(rawPopup)).toBe(0);
    const consents = JSON.parse((await opalite.evaluate(() => localStorage.getItem('opalite:connect:v2')))!);
    expect(consents.apps.map((entry: { origin: string }) => entry.origin)).toEqual([other.origin]);
    await rawPopup.close();
    await openOtherApp(other.origin);
  });

  it('not plain http on the network: refused with unsupported-origin, saying why, and nothing is remembered', async () => {
    const lan = `http://${LAN_HOST}:${new URL(other.origin).port}`;
    await openOtherApp(lan);
    await otherPage.getByRole('button', { name: 'Connect to Opalite' }).click();
    expect(await outcome()).toEqual({ connected: false, code: 'unsupported-origin', message: expect.stringMatching(new RegExp(`^${lan.replace(/\./g, '\\.')} is plain http on the network`)) });
    const consents = JSON.parse((await opalite.evaluate(() => localStorage.getItem('opalite:connect:v2')))!);
    expect(consents.apps.map((entry: { origin: string }) => entry.origin)).toEqual([other.origin]);
    await openOtherApp(other.origin);
  });
});

describe('signing for an allowed app', () => {
  let popup: Page;
  let payloadBeforeRevocation: unknown;

  beforeAll(async () => {
    popup = await popupFrom(otherPage, 'Connect to Opalite');
    expect(await outcome()).toMatchObject({ connected: true });
    await countDialogs(popup);
  });

  it('refuses a tampered extension list and trailing bytes in the call, before any dialog', async () => {
    for (const how of ['no-extensions', 'last-extension-dropped', 'extensions-reversed']) {
      expect(await otherApp('transferSignedInOpalite', shared, BOB, how), how).toMatchObject({ ok: false, code: 'sign-refused', message: expect.stringMatching(/signedExtensions must be exactly this chain's/) });
    }
    expect(await otherApp('transferSignedInOpalite', shared, BOB, 'trailing-bytes')).toMatchObject({ ok: false, code: 'sign-refused', message: expect.stringMatching(/does not decode completely/) });
    expect(await dialogsOpened(popup)).toBe(0);
  });

  it('refuses an account of the wallet the person did not share, before any dialog', async () => {
    expect(await otherApp('transferSignedInOpalite', notShared, BOB)).toMatchObject({
      ok: false,
      code: 'sign-refused',
      message: `${notShared} is not an account the person shared with ${other.origin}: they can share it in the Opalite window`
    });
    expect(await otherApp('signRaw', notShared, 'hello')).toMatchObject({ ok: false, code: 'sign-refused' });
    expect(await dialogsOpened(popup)).toBe(0);
  });

  it('an Enter within 0.8 s of the dialog (in the password field, which would submit) does not sign', async () => {
    const dialog = popup.getByRole('dialog');
    const signButton = dialog.locator('button[data-armed]');
    // The page's timers wait while the Enter lands, so it lands before Sign arms on a machine of any
    // speed (a slow one took longer than 0.8 s to type the password, and the Enter signed).
    await popup.clock.install();
    await popup.clock.pauseAt(Date.now() + 1_000);
    const asked = otherApp('transferSignedInOpalite', shared, BOB);
    const field = dialog.getByLabel(/^Password of/);
    await field.fill(PASSWORD);
    await field.press('Enter');
    expect(await signButton.getAttribute('data-armed')).toBe('false');
    await popup.clock.resume();
    // Armed now, and still open: the Enter signed nothing.
    await popup.locator('button[data-armed="true"]').waitFor({ timeout: 90_000 });
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await asked).toMatchObject({ ok: false, code: 'cancelled' });
  });

  it('revoking while the dialog is open withdraws it, and no signature arrives', async () => {
    payloadBeforeRevocation = await builtTransfer(shared);
    const asked = otherApp('transferSignedInOpalite', shared, BOB);
    const dialog = popup.getByRole('dialog');
    await dialog.getByLabel(/^Password of/).fill(PASSWORD); // about to sign
    await popup.locator('button[data-armed="true"]').waitFor({ timeout: 90_000 });
    await opalite.goto(`${app.url}network`);
    await opalite.getByRole('button', { name: `Revoke ${other.origin}` }).click();
    const result = await asked;
    expect(result).toMatchObject({ ok: false, code: 'sign-refused', message: expect.stringMatching(/revoked/) });
    expect(result.signature).toBeUndefined();
    await dialog.waitFor({ state: 'hidden', timeout: 90_000 });
    await expect.poll(() => popup.getByTestId('connect-status').textContent()).toContain('was revoked');
  });

  it('a sign after the revocation is refused without a dialog', async () => {
    const opened = await dialogsOpened(popup);
    // Built before: the app's own requests are refused now.
    expect(await otherApp('signPayload', payloadBeforeRevocation)).toMatchObject({ ok: false, code: 'sign-refused', message: `${other.origin} is not allowed to use this Opalite sandbox: connect again and allow it in Opalite` });
    expect(await dialogsOpened(popup)).toBe(opened);
  });
});
