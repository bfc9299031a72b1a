// Persistence: the ledger outlives the browser. Close Chromium, start it again on the same
// profile, and everything written is there (IndexedDB commits with strict durability).
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPreview } from '../../server/preview';
import { BOB, call, createCollection, launchPersistent, mint, openControlled, serveApp, submit, tempDir } from './support';

let app: RunningPreview;
const profile = tempDir('opalite-profile-');

beforeAll(async () => {
  app = await serveApp();
});

afterAll(async () => {
  await app?.close();
  rmSync(profile, { recursive: true, force: true });
});

describe('persistence across browser restarts', () => {
  it('keeps collections, tokens, balances and nonces', async () => {
    let genesisHash: string;
    {
      const context = await launchPersistent(profile);
      const page = await openControlled(context, app.url);
      genesisHash = (await call(page, 'GET', '/sandbox/v1/dev/status')).json.genesisHash;
      const collectionId = await createCollection(page, 'Kept');
      await mint(page, collectionId, { name: 'Kept opal' });
      await submit(page, '/sandbox/v1/balance/transfer', { address: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY', destination: BOB, amount: 5 });
      // The last write answered: close at once, as a person closing the window would.
      await context.close();
    }
    {
      const context = await launchPersistent(profile);
      const page = await context.newPage();
      await page.goto(app.url);
      // The worker from last time controls the very first load.
      await page.locator('[data-host="service-worker"]').waitFor({ timeout: 180_000 });
      const status = await call(page, 'GET', '/sandbox/v1/dev/status');
      expect(status.json.genesisHash).toBe(genesisHash);
      expect(status.json.head.number).toBe(3);
      expect((await call(page, 'GET', '/sandbox/v1/collections?collectionId=1')).json).toMatchObject({ name: 'Kept' });
      expect((await call(page, 'GET', '/sandbox/v1/tokens?collectionId=1&tokenId=1')).json.name).toBeTruthy();
      expect((await call(page, 'GET', '/sandbox/v1/common/nonce?address=5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY')).json.nonce).toBe(3);
      // And it goes on from there.
      expect(await createCollection(page, 'After restart')).toBe(2);
      await context.close();
    }
  });
});
