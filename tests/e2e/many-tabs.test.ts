// Many tabs: a hard-reloaded tab (no worker controls it) answers the API in the page itself,
// while another tab writes through the worker at the same time. Both apply blocks under one Web
// Lock on one database: nothing is lost and no nonce is used twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningPreview } from '../../server/preview';
import { ALICE, BOB, CHARLIE, call, createCollection, hardReload, launchBrowser, openControlled, serveApp } from './support';

let browser: Browser;
let app: RunningPreview;
let context: BrowserContext;
let inPage: Page;
let viaWorker: Page;

beforeAll(async () => {
  [browser, app] = await Promise.all([launchBrowser(), serveApp()]);
  context = await browser.newContext();
  inPage = await openControlled(context, app.url);
  viaWorker = await openControlled(context, app.url);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** Transfers from one account, one after another; a refused nonce race is retried. */
function transfers(page: Page, seed: string, from: string, count: number) {
  return page.evaluate(
    async ({ seed, from, count }) => {
      const included: string[] = [];
      let refused = 0;
      while (included.length < count) {
        const response = await fetch('/sandbox/v1/balance/transfer?use=Result', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Seed ${seed}` },
          body: JSON.stringify({ address: from, destination: '5DAAnrj7VHTznn2AWBemMuyBwZWs6FNFjdyVXUeYum3PTXFy', amount: 1 })
        });
        const json = await response.json();
        if (response.status === 201 && !json.isError) included.push(json.hash);
        else if (++refused > 50) throw new Error(`refused too often: ${JSON.stringify(json)}`);
      }
      return { included, refused };
    },
    { seed, from, count }
  );
}

describe('a hard-reloaded tab and a worker tab writing at once', () => {
  it('answers in the page when no worker controls it', async () => {
    await hardReload(inPage);
    expect(await inPage.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
    await inPage.locator('[data-host="page"]').waitFor();
    const status = await call(inPage, 'GET', '/sandbox/v1/dev/status');
    expect(status.host).toBe('page');
    expect(status.json.host).toBe('page');
    const worker = await call(viaWorker, 'GET', '/sandbox/v1/dev/status');
    expect(worker.host).toBe('service-worker');
    expect(worker.json.genesisHash).toBe(status.json.genesisHash);
  });

  it('loses nothing and never spends a nonce twice', async () => {
    const perTab = 6;
    const [a, b, shared1, shared2] = await Promise.all([
      // Different signers on the two hosts.
      (async () => {
        const ids: number[] = [];
        for (let i = 0; i < perTab; i++) ids.push(await createCollection(inPage, `Page ${i}`));
        return ids;
      })(),
      (async () => {
        const ids: number[] = [];
        for (let i = 0; i < perTab; i++) ids.push(await createCollection(viaWorker, `Worker ${i}`, '//Bob', BOB));
        return ids;
      })(),
      // The same signer on both hosts: each submission that is accepted must land exactly once.
      transfers(inPage, '//Charlie', CHARLIE, 4),
      transfers(viaWorker, '//Charlie', CHARLIE, 4)
    ]);
    const ids = [...a, ...b].sort((x, y) => x - y);
    expect(ids).toEqual(Array.from({ length: 2 * perTab }, (_, i) => i + 1));

    const nonce = async (address: string) => (await call(viaWorker, 'GET', `/sandbox/v1/common/nonce?address=${address}`)).json.nonce;
    expect(await nonce(ALICE)).toBe(perTab);
    expect(await nonce(BOB)).toBe(perTab);
    expect(await nonce(CHARLIE)).toBe(8);

    const exported = JSON.parse((await call(inPage, 'GET', '/sandbox/v1/dev/export')).text);
    const extrinsics: { hash: string; signer: string; nonce: number; blockNumber: number | null; status: string; isError: boolean }[] = exported.tables.extrinsics;
    // A submission the other host beat to its nonce is kept as a refused record, in no block.
    const inBlocks = extrinsics.filter((e) => e.blockNumber !== null);
    for (const refused of extrinsics.filter((e) => e.blockNumber === null)) expect(refused).toMatchObject({ status: 'Invalid', isError: true });
    for (const signer of [ALICE, BOB, CHARLIE]) {
      const nonces = inBlocks.filter((e) => e.signer === signer).map((e) => e.nonce).sort((x, y) => x - y);
      expect(nonces, signer).toEqual(nonces.map((_, i) => i));
    }
    for (const hash of [...shared1.included, ...shared2.included]) expect(inBlocks.some((e) => e.hash === hash)).toBe(true);
    // One chain: every block's parent is the block before it.
    const blocks: { number: number; hash: string; parentHash: string }[] = exported.tables.blocks.sort((x: { number: number }, y: { number: number }) => x.number - y.number);
    blocks.forEach((block, i) => {
      expect(block.number).toBe(i);
      if (i > 0) expect(block.parentHash).toBe(blocks[i - 1].hash);
    });
    // Each tab heard the other's blocks.
    const head = String(blocks.length - 1);
    await expect.poll(() => inPage.locator('[data-testid="head-block"]').textContent()).toBe(head);
    await expect.poll(() => viaWorker.locator('[data-testid="head-block"]').textContent()).toBe(head);
  });
});
