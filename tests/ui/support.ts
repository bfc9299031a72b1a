// What the UI tests share: Chromium, the built app on a random port, and the steps a person
// takes again and again (create an account, approve the sign dialog). Tests act through roles and
// labels, as a person using the app would.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Keyring } from '@polkadot/keyring';
import { hexToU8a, u8aToHex } from '@polkadot/util';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RunningHost } from '../../server/host';
import { startPreview, type RunningPreview } from '../../server/preview';
import { launchTestChromium } from '../support/chromium';
import { SCREENSHOT_DIR, UI_BUILD_DIR } from './paths';

export const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

export function launchBrowser(): Promise<Browser> {
  return launchTestChromium();
}

export function serveApp(): Promise<RunningPreview> {
  return startPreview({ root: UI_BUILD_DIR, port: 0 });
}

/** Fails the test on uncaught page errors (collected, reported at the end). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Follows a link of the main navigation. */
export async function nav(page: Page, name: 'Home' | 'Accounts' | 'Wallet' | 'Collections' | 'Extrinsics' | 'Explorer' | 'Network' | 'API'): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
}

/** Opens the tab `name` of a collection page's Settings; answers its section. */
export async function setting(page: Page, name: string): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name, exact: true }).click();
  const section = page.getByRole('region', { name, exact: true });
  await section.waitFor();
  return section;
}

/** "Fund from //Alice" on the card of account `name`, then its balance is the 1 000 OPL sent; answers the card. */
export async function fundFromAlice(page: Page, name: string): Promise<Locator> {
  const card = page.getByRole('article', { name });
  await card.getByRole('button', { name: /^Fund from \/\/Alice/ }).click();
  // A locator wait, not expect.poll: set-up in beforeAll runs outside any test.
  await card.getByTestId('balance').getByText('1 000 OPL', { exact: true }).waitFor({ timeout: 90_000 });
  return card;
}

/** Picks an address as a person does: types part of a name into the address field and clicks the offered account. */
export async function pickAddress(scope: Page | Locator, label: string, typed: string, name: string): Promise<void> {
  const field = scope.getByRole('combobox', { name: label });
  await field.fill(typed);
  await field.locator('xpath=..').getByRole('option').filter({ hasText: name }).click();
  expect(await field.getAttribute('aria-expanded')).toBe('false');
}

/** The account creation flow: name and password, the phrase shown once, typed back. */
export async function createAccount(page: Page, name: string, password: string): Promise<string> {
  await nav(page, 'Accounts');
  const first = page.getByRole('button', { name: 'Create your first account' });
  if (await first.isVisible()) await first.click();
  else await page.getByRole('button', { name: 'New account' }).click();
  await page.getByLabel('Account name').fill(name);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Generate a seed phrase' }).click();
  const words = await page.getByRole('list', { name: 'Seed phrase' }).getByRole('listitem').allTextContents();
  expect(words).toHaveLength(12);
  await page.getByLabel('I have written the phrase down').check();
  await page.getByLabel('Type the seed phrase again').fill(words.join(' '));
  // Encrypting the key (scrypt, N = 2^17) holds the page for over 30 s on a slow, shared machine.
  await page.getByRole('button', { name: 'Create account', exact: true }).click({ timeout: 120_000 });
  const card = page.getByRole('article', { name });
  await card.waitFor({ timeout: 120_000 });
  // The phrase is gone from the page once the account exists.
  expect(await page.getByRole('list', { name: 'Seed phrase' }).count()).toBe(0);
  return (await card.locator('code').first().getAttribute('title'))!;
}

/**
 * Approves the open sign dialog: checks what it shows, types the password when the key is
 * locked, and waits until the dialog closes (success). Answers what the dialog said.
 */
export async function approve(page: Page, options: { password?: string; call?: string; returnsSignature?: boolean } = {}): Promise<{ call: string; askedPassword: boolean }> {
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  const call = (await dialog.getByTestId('sign-call').textContent()) ?? '';
  if (options.call) expect(call).toBe(options.call);
  await expect.poll(() => dialog.getByTestId('sign-fee').textContent()).toMatch(/\d OPL$/);
  const passwordField = dialog.getByLabel(/^Password of/);
  const askedPassword = await passwordField.isVisible();
  if (askedPassword) {
    if (!options.password) throw new Error('The sign dialog asks for a password, and the test gave none');
    await passwordField.fill(options.password);
  }
  // "Sign" when the signature goes back to another app (opalite/connect), which submits it.
  await dialog.getByRole('button', { name: options.returnsSignature ? 'Sign' : 'Sign and submit', exact: true }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 90_000 });
  return { call, askedPassword };
}

/** A valid 1×1 PNG whose colour depends on `seed` (so different uploads get different CIDs). */
export function png(seed: number): Buffer {
  // A tiny valid PNG: 1×1 RGB, one IDAT with zlib stored blocks, CRCs computed here.
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const raw = Buffer.from([0, (seed * 67) & 255, (seed * 131) & 255, (seed * 199) & 255]);
  // zlib: header, one stored block, adler32.
  let a = 1;
  let b = 0;
  for (const byte of raw) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((b << 16) | a) >>> 0, 0);
  const stored = Buffer.concat([Buffer.from([0x78, 0x01, 0x01, raw.length, 0, ~raw.length & 255, 0xff]), raw, adler]);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', stored), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * Test data without clicking through every form: an extrinsic signed in the test process with
 * the public dev key //Alice and sent through the page's own fetch (Build → Submit, no seed
 * leaves the test). Answers `parsed`.
 */
export async function asAlice(page: Page, method: string, path: string, body: Record<string, unknown>): Promise<any> {
  await cryptoWaitReady();
  const alice = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri('//Alice');
  const built = await page.evaluate(
    async ({ method, path, body }) => (await fetch(`/sandbox/v1${path}?use=Build`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json(),
    { method, path, body: { address: alice.address, ...body } }
  );
  if (!built.signerPayloadHex) throw new Error(`Build of ${path} failed: ${JSON.stringify(built)}`);
  const signature = u8aToHex(alice.sign(hexToU8a(built.signerPayloadHex), { withType: true }));
  const status = await page.evaluate(
    async ({ signerPayloadJSON, signature }) => {
      const submit = await fetch('/sandbox/v1/extrinsic/submit', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ signerPayloadJSON, signature }) });
      const { hash } = await submit.json();
      // Polls until the block is in (bounded generously: a slow machine may take a while).
      for (let i = 0; i < 600; i++) {
        const s = await (await fetch(`/sandbox/v1/extrinsic/status?hash=${hash}`)).json();
        if (s.isCompleted || s.isError) return s;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no status for ${hash}`);
    },
    { signerPayloadJSON: built.signerPayloadJSON, signature }
  );
  if (status.isError) throw new Error(`${path} failed on chain: ${JSON.stringify(status.error)}`);
  return status.parsed;
}

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return join(SCREENSHOT_DIR, `${name}.png`);
}

const CONTROL_ROLES = ['button', 'link', 'textbox', 'checkbox', 'radio', 'combobox', 'listbox', 'spinbutton', 'slider', 'switch', 'searchbox', 'menuitem', 'tab', 'treeitem', 'option'];

/**
 * Every control on the page has an accessible name, as the browser computes it (Playwright's
 * aria snapshot names each node; a control without a quoted name has none).
 */
export async function unnamedControls(page: Page): Promise<string[]> {
  const snapshot = await page.locator('body').ariaSnapshot();
  const unnamed = new RegExp(`^\\s*- (${CONTROL_ROLES.join('|')})(?=$|:|\\s\\[)`);
  return snapshot.split('\n').filter((line) => unnamed.test(line)).map((line) => line.trim());
}

/**
 * axe-core's rules (WCAG 2 A and AA by default, or the `rules` named), when `@axe-core/playwright`
 * or `axe-core` is installed; null otherwise. `targets` are the first offending elements' selectors.
 */
export async function axeViolations(
  page: Page,
  rules?: string[]
): Promise<{ id: string; impact: string | null; help: string; nodes: number; targets: string[] }[] | null> {
  const require = createRequire(import.meta.url);
  let source: string | null = null;
  for (const id of ['axe-core/axe.min.js', '@axe-core/playwright/node_modules/axe-core/axe.min.js']) {
    try {
      source = require('node:fs').readFileSync(require.resolve(id), 'utf8') as string;
      break;
    } catch {
      // not installed
    }
  }
  if (!source) return null;
  // Evaluated, not added as a <script> tag: the app's Content-Security-Policy refuses inline scripts.
  await page.evaluate(source);
  return page.evaluate(async (rules) => {
    type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };
    const axe = (globalThis as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: Violation[] }> } }).axe;
    const runOnly = rules ? { type: 'rule', values: rules } : { type: 'tag', values: ['wcag2a', 'wcag2aa'] };
    const result = await axe.run(document, { runOnly });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length, targets: v.nodes.slice(0, 30).map((n) => n.target.join(' ')) }));
  }, rules ?? null);
}

/**
 * Controls a thumb would miss: visible buttons, links, fields, checkboxes, summaries and options
 * smaller than 24 px either way (a link inside a sentence excepted, as WCAG 2.5.8 does).
 */
export async function smallTapTargets(page: Page, min = 24): Promise<string[]> {
  return page.evaluate((min) => {
    const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="option"], [role="treeitem"], [role="tab"]';
    const inSentence = (element: Element) => element.tagName === 'A' && (element.parentElement?.textContent ?? '').trim().length > (element.textContent ?? '').trim().length + 1;
    return [...document.querySelectorAll(selector)]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === 'hidden') return false;
        return (box.width < min || box.height < min) && !inSentence(element);
      })
      .map((element) => {
        const box = element.getBoundingClientRect();
        const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 30) ?? '';
        return `${element.tagName.toLowerCase()}${element.id ? '#' + element.id : ''} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`;
      });
  }, min);
}

/** What a relay answers itself instead of the host (a route the service it stands for does not have), or null. */
export type RelayOverride = (method: string, path: string) => { status: number; json: unknown } | null;

/**
 * A Node host's handler on a port of its own, with the CORS headers a public REST service sends:
 * a remote REST `base_url` for the app (`<relay>/sandbox/v1`). `override` answers some requests
 * itself, as a service without them would.
 */
export async function restRelay(host: RunningHost, override?: RelayOverride): Promise<{ url: string; server: Server }> {
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
    'access-control-allow-headers': 'content-type, accept'
  };
  const server = createServer(async (req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors);
      res.end();
      return;
    }
    const own = override?.(req.method ?? 'GET', new URL(req.url ?? '/', 'http://relay').pathname);
    if (own) {
      res.writeHead(own.status, { ...cors, 'content-type': 'application/json' });
      res.end(JSON.stringify(own.json));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const response = await host.handler(
      new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined })
    );
    const out: Record<string, string> = { ...cors };
    response.headers.forEach((v, k) => (out[k] = v));
    res.writeHead(response.status, out);
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/sandbox/v1`, server };
}
