// Four tabs, each sending 40 custodial transfers from one account (`Authorization: Seed //Alice`,
// 16 in flight per tab) through the service worker: all 160 are included, with gapless nonces.
// (64 requests in flight from four clients interleave as much as 400 or 1,000 did; 400 took 8 minutes
// on a slow CI machine.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningPreview } from '../../server/preview';
import { parseSnapshot } from '../../src/lib/ledger/snapshot';
import { ledgerViolations } from '../contract/durability/invariants';
import { ALICE, BOB, call, launchBrowser, openControlled, serveApp } from './support';

const TABS = 4;
const PER_TAB = 40;
const IN_FLIGHT = 16;

let browser: Browser;
let app: RunningPreview;
let context: BrowserContext;
let tabs: Page[];

beforeAll(async () => {
  [browser, app] = await Promise.all([launchBrowser(), serveApp()]);
  context = await browser.newContext();
  tabs = [];
  for (let i = 0; i < TABS; i++) tabs.push(await openControlled(context, app.url));
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

interface TabResult {
  answers: { status: number; hash?: string; error?: string; host: string | null }[];
}

/** `count` custodial transfers from the page, `inFlight` at a time, each answered once. */
function custodialTransfers(page: Page, count: number, inFlight: number): Promise<TabResult> {
  return page.evaluate(
    async ({ count, inFlight, from, to }) => {
      const answers: TabResult['answers'] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (next < count) {
            next++;
            const response = await fetch('/sandbox/v1/balance/transfer?use=Submit', {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: 'Seed //Alice' },
              body: JSON.stringify({ address: from, destination: to, amount: '0.001' })
            });
            const json = await response.json().catch(() => ({}));
            answers.push({ status: response.status, hash: json.hash, error: json.error?.message, host: response.headers.get('x-opalite-host') });
          }
        })
      );
      return { answers };
    },
    { count, inFlight, from: ALICE, to: BOB }
  );
}

describe('four tabs sending custodial transfers from one account at once', () => {
  it(`includes all ${TABS * PER_TAB} with gapless nonces`, { timeout: 600_000 }, async () => {
    const results = await Promise.all(tabs.map((tab) => custodialTransfers(tab, PER_TAB, IN_FLIGHT)));
    const answers = results.flatMap((r) => r.answers);
    expect(answers).toHaveLength(TABS * PER_TAB);
    expect(new Set(answers.map((a) => a.host))).toEqual(new Set(['service-worker']));
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.length, `refused, e.g. ${refused.slice(0, 3).map((a) => `${a.status} ${a.error}`).join('; ')}`).toBe(0);
    const hashes = new Set(answers.map((a) => a.hash!));
    expect(hashes.size).toBe(TABS * PER_TAB);

    // Every one in a block (Submit may answer before the block in other block modes: wait for it).
    const exported = async () => parseSnapshot((await call(tabs[0], 'GET', '/sandbox/v1/dev/export')).text).tables;
    let dump = await exported();
    for (let i = 0; i < 100 && dump.extrinsics.filter((x) => hashes.has(x.hash) && x.blockNumber !== null).length < hashes.size; i++) {
      await tabs[0].waitForTimeout(200);
      dump = await exported();
    }
    const mine = dump.extrinsics.filter((x) => hashes.has(x.hash));
    expect(mine.filter((x) => x.status === 'InBlock')).toHaveLength(TABS * PER_TAB);
    const nonces = dump.extrinsics.filter((x) => x.signer === ALICE && x.blockNumber !== null).map((x) => x.nonce).sort((a, b) => a - b);
    expect(nonces).toEqual(nonces.map((_, i) => i));
    expect(dump.accounts.find((a) => a.address === ALICE)?.nonce).toBe(nonces.length);
    expect(ledgerViolations(dump)).toEqual([]);
  });
});
