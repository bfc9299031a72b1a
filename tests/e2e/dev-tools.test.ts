// Export, reset and import through /sandbox/v1/dev, in the browser: the running ledger swaps to
// the new state in the worker and in every other tab's host, and a bad file changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningPreview } from '../../server/preview';
import { ALICE, BOB, call, createCollection, hardReload, launchBrowser, mint, openControlled, serveApp, stopServiceWorkers } from './support';

let browser: Browser;
let app: RunningPreview;
let context: BrowserContext;
let page: Page;
/** A hard-reloaded tab: its own in-page host on the same database. */
let other: Page;

beforeAll(async () => {
  [browser, app] = await Promise.all([launchBrowser(), serveApp()]);
  context = await browser.newContext();
  page = await openControlled(context, app.url);
  other = await openControlled(context, app.url);
  await hardReload(other);
  await other.locator('[data-host="page"]').waitFor();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const genesisOf = async (p: Page) => (await call(p, 'GET', '/sandbox/v1/common/chain-properties')).json.genesisHash as string;

describe('export, reset, import', () => {
  let exported: string;
  let genesis: string;

  it('exports the ledger as a download', async () => {
    const collectionId = await createCollection(page, 'Exported');
    await mint(page, collectionId, { name: 'Exported opal' });
    const answer = await call(page, 'GET', '/sandbox/v1/dev/export');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="opalite-sandbox-[0-9a-f]{8}-block-2\.json"$/);
    exported = answer.text;
    genesis = await genesisOf(page);
    expect(JSON.parse(exported)).toMatchObject({ format: 'opalite-ledger', version: 1 });
  });

  it('resets to a fresh genesis, followed by the other tab', async () => {
    const reset = await call(page, 'POST', '/sandbox/v1/dev/reset', { rules: 'unique' });
    expect(reset.status).toBe(201);
    expect(reset.json).toMatchObject({ rules: 'unique', head: { number: 0 } });
    expect(reset.json.genesisHash).not.toBe(genesis);
    expect(await genesisOf(page)).toBe(reset.json.genesisHash);
    expect((await call(page, 'GET', '/sandbox/v1/collections?collectionId=1')).json).toBeNull();
    // The in-page host of the other tab heard 'replaced' and swapped its ledger.
    await expect.poll(() => genesisOf(other)).toBe(reset.json.genesisHash);
    expect((await call(other, 'GET', '/sandbox/v1/dev/status')).json).toMatchObject({ host: 'page', rules: 'unique' });
    // And writes from it land on the new chain.
    expect(await createCollection(other, 'On the new chain', '//Bob', BOB)).toBe(1);
  });

  it('imports the export back: same genesis, same state', async () => {
    const answer = await call(page, 'POST', '/sandbox/v1/dev/import', exported);
    expect(answer.status, answer.text).toBe(201);
    expect(answer.json).toMatchObject({ genesisHash: genesis, rules: 'spec', head: { number: 2 } });
    expect((await call(page, 'GET', '/sandbox/v1/collections?collectionId=1')).json).toMatchObject({ name: 'Exported', owner: ALICE });
    await expect.poll(() => genesisOf(other)).toBe(genesis);
    expect((await call(other, 'GET', '/sandbox/v1/tokens?collectionId=1&tokenId=1')).json.owner).toBe(ALICE);
    expect(await createCollection(page, 'After import')).toBe(2);
    await expect.poll(() => page.locator('[data-testid="head-block"]').textContent()).toBe('3');
  });

  it('refuses a bad or foreign file with a 400 and changes nothing', async () => {
    const before = (await call(page, 'GET', '/sandbox/v1/dev/export')).json.tables;
    const foreign = JSON.parse(exported);
    foreign.tables.meta.find((r: { key: string }) => r.key === 'chainConfig').value.network = 'unique';
    for (const body of ['{"not":"an export"', JSON.stringify({ format: 'something-else' }), JSON.stringify(foreign)]) {
      const answer = await call(page, 'POST', '/sandbox/v1/dev/import', body);
      expect(answer.status).toBe(400);
      expect(answer.json.error.name).toBe('ValidationError');
      expect(answer.json.error.message.length).toBeGreaterThan(10);
    }
    expect((await call(page, 'GET', '/sandbox/v1/dev/export')).json.tables).toEqual(before);
    expect(await genesisOf(page)).toBe(genesis);
  });

  it('switches every host to manual blocks and seals by hand', async () => {
    const mode = await call(page, 'POST', '/sandbox/v1/dev/block-mode', { kind: 'manual' });
    expect(mode.json.blockMode).toEqual({ kind: 'manual' });
    await expect.poll(async () => (await call(other, 'GET', '/sandbox/v1/dev/status')).json.blockMode.kind).toBe('manual');
    // The setting outlives the worker (stopped when idle, it starts afresh).
    await stopServiceWorkers(page);
    expect((await call(page, 'GET', '/sandbox/v1/dev/status')).json.blockMode).toEqual({ kind: 'manual' });
    const head = (await call(page, 'GET', '/sandbox/v1/dev/status')).json.head.number;
    const pooled = await call(
      page,
      'POST',
      '/sandbox/v1/balance/transfer?use=Submit',
      { address: ALICE, destination: BOB, amount: 1 },
      { authorization: 'Seed //Alice' }
    );
    expect(pooled.status, pooled.text).toBe(201);
    expect((await call(page, 'GET', `/sandbox/v1/extrinsic/status?hash=${pooled.json.hash}`)).json.isCompleted).toBe(false);
    const sealed = await call(page, 'POST', '/sandbox/v1/dev/blocks/seal');
    expect(sealed.json.block).toMatchObject({ number: head + 1, extrinsics: [pooled.json.hash] });
    expect((await call(page, 'GET', `/sandbox/v1/extrinsic/status?hash=${pooled.json.hash}`)).json).toMatchObject({ isCompleted: true, isError: false });
    await call(page, 'POST', '/sandbox/v1/dev/block-mode', { kind: 'instant' });
  });
});
