// examples/extension-dapp, a dapp written for the polkadot{.js} extension's API, on a second site
// (localhost) with the Opalite app on 127.0.0.1: enableOpalite() gives it the extension's shape,
// accounts.subscribe() follows what the person shares, and signer.signPayload() signs a transfer
// the dapp built over the sandbox's REST API and submits; signer.signRaw() signs a message as
// <Bytes>…</Bytes>. The example's own code, bundled with opalite/connect from this repository.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hexToU8a, stringToU8a } from '@polkadot/util';
import { cryptoWaitReady, decodeAddress, sr25519Verify } from '@polkadot/util-crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { RunningPreview } from '../../server/preview';
import { createAccount } from '../ui/support';
import { allowWith, popupFrom, serveOtherSite, signInDialog, type OtherSite } from './connect-support';
import { PROJECT_ROOT } from './paths';
import { ALICE, BOB, call, launchBrowser, openControlled, serveApp, submit } from './support';
import { bundleBrowserEntry } from './test-pages';

const EXAMPLE = join(PROJECT_ROOT, 'examples', 'extension-dapp');
const PASSWORD = 'correct horse battery';

let browser: Browser;
let app: RunningPreview;
let dappSite: OtherSite;
let opalite: Page;
let dapp: Page;
let popup: Page;
let account: string;
let second: string;

/** The example's status line once it says `state`; fails with what it says instead. */
async function statusOf(state: 'ready' | 'error', text = ''): Promise<string> {
  const status = dapp.locator('#status');
  try {
    await dapp.locator(`#status[data-state="${state}"]`, { hasText: text }).waitFor({ timeout: 180_000 });
  } catch (error) {
    throw new Error(`the dapp's status is "${await status.textContent()}", not ${state} ${text}`, { cause: error });
  }
  return (await status.textContent()) ?? '';
}

const listedAccounts = () => dapp.getByTestId('account').allTextContents();

beforeAll(async () => {
  const bundle = await bundleBrowserEntry(join(EXAMPLE, 'src', 'main.ts'), 'extension-dapp.js', { alias: { 'opalite/connect': join(PROJECT_ROOT, 'src', 'pkg', 'connect.ts') } });
  const html = readFileSync(join(EXAMPLE, 'index.html'), 'utf8');
  const page = html.replace('<script type="module" src="/src/main.ts"></script>', '<script src="/main.js"></script>');
  if (page === html) throw new Error('examples/extension-dapp/index.html no longer loads /src/main.ts as this test expects');
  [browser, app, dappSite] = await Promise.all([launchBrowser(), serveApp(), serveOtherSite({ '/': page, '/main.js': readFileSync(bundle) })]);
  const context = await browser.newContext();
  opalite = await openControlled(context, app.url);
  account = await createAccount(opalite, 'Dapp account', PASSWORD);
  second = await createAccount(opalite, 'Second account', PASSWORD);
  await submit(opalite, '/sandbox/v1/balance/transfer', { address: ALICE, destination: account, amount: 10 });
  dapp = await context.newPage();
  dapp.on('pageerror', (error) => console.error('[extension dapp]', error));
  await dapp.goto(`${dappSite.origin}/?opalite=${encodeURIComponent(app.url)}`);
  await cryptoWaitReady();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await dappSite?.close();
});

describe('a polkadot{.js}-extension dapp on Opalite', () => {
  it('enableOpalite connects, and accounts.subscribe lists the accounts the person shares, as they change', async () => {
    popup = await popupFrom(dapp, 'Connect Opalite');
    expect(await popup.getByTestId('connect-app-name').textContent()).toBe('Extension dapp');
    await allowWith(popup, dappSite.origin, ['Dapp account']);
    await statusOf('ready', 'connected');
    await expect.poll(listedAccounts, { timeout: 90_000 }).toEqual([`Dapp account ${account}`]);

    await popup.getByRole('checkbox', { name: /^Second account / }).check();
    await popup.getByRole('button', { name: 'Share these accounts' }).click();
    await expect.poll(listedAccounts, { timeout: 90_000 }).toEqual([`Dapp account ${account}`, `Second account ${second}`]);
  });

  it('signer.signPayload signs the transfer the dapp built over REST, and the dapp submits it', async () => {
    const before = (await call(opalite, 'GET', `/sandbox/v1/balance?address=${BOB}`)).json;
    await dapp.locator('#from').selectOption(account);
    await dapp.locator('#to').fill(BOB);
    await dapp.locator('#amount').fill('1');
    await dapp.getByRole('button', { name: 'Send with Opalite' }).click();
    const dialog = popup.getByRole('dialog');
    await dialog.getByRole('heading', { name: `Sign: ${dappSite.origin} asks you to sign` }).waitFor({ timeout: 90_000 });
    expect(await dialog.getByTestId('sign-call').textContent()).toBe('balances.transferKeepAlive');
    await signInDialog(popup, PASSWORD);
    const sent = await statusOf('ready', 'sent in');
    const hash = sent.replace('sent in ', '');
    const status = (await call(opalite, 'GET', `/sandbox/v1/extrinsic/status?hash=${hash}`)).json;
    expect(status).toMatchObject({ isCompleted: true, isError: false });
    const after = (await call(opalite, 'GET', `/sandbox/v1/balance?address=${BOB}`)).json;
    expect(BigInt(after.freeBalance.raw) - BigInt(before.freeBalance.raw)).toBe(10n ** BigInt(after.freeBalance.decimals));
  });

  it('signer.signRaw signs the message as <Bytes>…</Bytes>, for the account chosen', async () => {
    await dapp.locator('#from').selectOption(second);
    await dapp.locator('#message').fill('I own this account');
    await dapp.getByRole('button', { name: 'Sign with Opalite' }).click();
    await signInDialog(popup, PASSWORD);
    await statusOf('ready', 'message signed');
    const signature = (await dapp.locator('#signature').textContent())!;
    expect(signature).toMatch(/^0x01[0-9a-f]{128}$/); // sr25519
    expect(sr25519Verify(stringToU8a('<Bytes>I own this account</Bytes>'), hexToU8a(signature).subarray(1), decodeAddress(second))).toBe(true);
  });
});
