// The real @unique-nft/sdk 0.7.7 client, bundled into a test page on the app's origin, runs the
// scenarios of tests/contract/sdk.test.ts against location.origin + '/sandbox/v1', and the
// service worker answers every one of its requests (axios → XMLHttpRequest, which a worker
// intercepts like fetch). The page (fixtures/sdk-page.ts) returns what it observed; the
// expectations are the contract test's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ALICE, BOB, CHARLIE, launchBrowser } from './support';
import { PROJECT_ROOT } from './paths';
import { bundleBrowserEntry, controlByAppWorker, servePages, testPageHtml, type ServedPages } from './test-pages';
import { join } from 'node:path';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let pages: ServedPages;

/** Every response the page saw for /sandbox, and who answered it. */
const apiResponses: { method: string; url: string; type: string; status: number; fromServiceWorker: boolean; host: string | undefined }[] = [];

beforeAll(async () => {
  const bundle = await bundleBrowserEntry(join(PROJECT_ROOT, 'tests/e2e/fixtures/sdk-page.ts'), 'sdk-page.js');
  [pages, browser] = await Promise.all([
    servePages({
      'sdk-e2e/index.html': testPageHtml('Opalite SDK e2e', ['/sdk-e2e/sdk-page.js']),
      'sdk-e2e/sdk-page.js': { copyFrom: bundle }
    }),
    launchBrowser()
  ]);
  context = await browser.newContext();
  page = await context.newPage();
  page.on('pageerror', (error) => console.error('[sdk page]', error));
  page.on('response', (response) => {
    const request = response.request();
    if (!new URL(request.url()).pathname.startsWith('/sandbox/')) return;
    apiResponses.push({
      method: request.method(),
      url: request.url(),
      type: request.resourceType(),
      status: response.status(),
      fromServiceWorker: response.fromServiceWorker(),
      host: response.headers()['x-opalite-host']
    });
  });
  // First navigation of a fresh context: the preview server serves the test page itself.
  await page.goto(`${pages.preview.url}sdk-e2e/`);
  await page.waitForFunction(() => 'opaliteSdkE2E' in window);
});

afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

function run(name: string): Promise<any> {
  return page.evaluate((n) => (window as any).opaliteSdkE2E.run(n), name);
}

describe('the test page', () => {
  it('is served from the app origin and then controlled by the app worker', async () => {
    expect(pages.served).toContain('GET /sdk-e2e/ 200');
    expect(pages.served).toContain('GET /sdk-e2e/sdk-page.js 200');
    const scriptURL = await controlByAppWorker(page);
    expect(scriptURL).toBe(`${pages.preview.url}service-worker.js`);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe('activated');
    expect(await page.evaluate(() => location.pathname)).toBe('/sdk-e2e/');
    // The worker answers a plain request of this page, before the SDK runs.
    const status = await page.evaluate(async () => (await fetch('/sandbox/v1/dev/status')).headers.get('x-opalite-host'));
    expect(status).toBe('service-worker');
  });
});

describe('common and balance', () => {
  it('reads chain properties and nonces', async () => {
    const r = await run('chainProperties');
    expect(r.props).toMatchObject({ SS58Prefix: 42, decimals: 18, token: 'OPL' });
    expect(r.props.genesisHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(r.nonce).toBe(0);
  });

  it('transfers native tokens to a new account and shows the balance', async () => {
    const r = await run('balanceTransfer');
    expect(r.isError).toBe(false);
    expect(r.parsed).toMatchObject({ from: ALICE, to: r.fresh });
    expect(r.balance.availableBalance.amount).toBe('12.5');
    expect(r.balance.freeBalance.raw).toBe('12500000000000000000');
  });
});

describe('collections', () => {
  it('creates a collection (about 2.1 units in all) and reads it back with its schema', async () => {
    const r = await run('createCollection');
    expect(r.feeAmount).toBeGreaterThanOrEqual(2);
    expect(r.feeAmount).toBeLessThanOrEqual(2.5);
    expect(r.spent).toBeGreaterThan(2);
    expect(r.spent).toBeLessThan(2.5);
    const c = r.collection;
    expect(c).toMatchObject({ id: r.id, owner: ALICE, mode: 'NFT', name: 'Test', description: 'Contract test', tokenPrefix: 'TST' });
    expect(c.limits?.tokenLimit).toBe(10);
    expect(c.permissions).toMatchObject({ access: 'Normal', mintMode: true, nesting: { tokenOwner: true, collectionAdmin: false } });
    expect(c.schema?.schemaName).toBe('unique');
  });

  it('sets, reads and deletes collection properties', async () => {
    const r = await run('collectionProperties');
    expect(r.setParsed).toEqual({ collectionId: r.id, properties: [{ collectionId: r.id, propertyKey: 'foo' }] });
    expect(r.properties).toContainEqual(expect.objectContaining({ key: 'foo', value: 'bar' }));
    expect(r.deleteParsed).toEqual({ properties: [{ collectionId: r.id, propertyKey: 'foo' }] });
    expect(r.propertiesAfterDelete.find((p: { key: string }) => p.key === 'foo')).toBeUndefined();
  });

  it('sets limits and reads effective limits', async () => {
    const r = await run('limits');
    expect(r.initial).toMatchObject({ tokenLimit: 4294967295, accountTokenOwnershipLimit: 100000000, ownerCanDestroy: true, transfersEnabled: true });
    expect(r.setIsError).toBe(false);
    expect(r.setParsed.limits.tokenLimit).toBe(3);
    expect(r.after.tokenLimit).toBe(3);
  });

  it('sets permissions and token property permissions', async () => {
    const r = await run('permissions');
    expect(r.permsParsed).toMatchObject({ collectionId: r.id });
    expect(r.access).toBe('AllowList');
    expect(r.tppParsed).toEqual({ propertyPermissions: [{ collectionId: r.id, propertyKey: 'color' }] });
    expect(r.propertyPermissions).toEqual([{ key: 'color', permission: { mutable: true, collectionAdmin: true, tokenOwner: true } }]);
  });

  it('manages admins, the allow list, sponsorship, transfers flag, owner and destroy', async () => {
    const r = await run('collectionManagement');
    const id = r.id;
    expect(r.addAdmin).toEqual({ collectionId: id, newAdmin: BOB });
    expect(r.adminsAfterAdd).toEqual([BOB]);
    expect(r.removeAdmin).toEqual({ collectionId: id, admin: BOB });
    expect(r.adminsAfterRemove).toEqual([]);
    expect(r.allowList).toEqual([CHARLIE]);
    expect(r.allowed).toBe(true);
    expect(r.allowListAfterRemove).toEqual([]);
    expect(r.sponsorshipProposed).toEqual({ address: BOB, isConfirmed: false });
    expect(r.confirmedIsError).toBe(false);
    expect(r.sponsorshipConfirmed).toEqual({ address: BOB, isConfirmed: true });
    expect(r.sponsorshipRemoved).toBeNull();
    expect(r.transfersFlag).toMatchObject({ success: true });
    expect(r.transfersEnabled).toBe(false);
    expect(r.moved).toEqual({ collectionId: id, owner: BOB });
    expect(r.destroyed).toMatchObject({ success: true });
    expect(r.afterDestroyFalsy).toBe(true);
  });

  it('reports a chain error in the status for a signer without permission', async () => {
    const r = await run('noPermission');
    expect(r.isError).toBe(true);
    expect(r.error).toMatchObject({ message: 'Signer is not Collection Owner', details: { section: 'common', name: 'NoPermission' } });
  });
});

describe('tokens', () => {
  it('mints one and many, reads tokens, supply and ids', async () => {
    const r = await run('mintAndRead');
    const id = r.id;
    expect(r.token).toMatchObject({ collectionId: id, tokenId: r.tokenId, owner: ALICE, name: { _: 'First' }, description: { _: 'A token' } });
    expect(r.token.image.fullUrl).toContain('QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG');
    expect(r.manyIds).toEqual([2, 3, 4]);
    expect(r.owner4).toBe(BOB);
    expect(r.exists4).toBe(true);
    expect(r.exists99).toBe(false);
    expect(r.lastTokenId).toBe(4);
    expect(r.totalSupply).toBe(4);
    expect(r.ids).toEqual([1, 2, 3, 4]);
    expect(r.bobTokens).toEqual([{ collectionId: id, tokenId: 4 }]);
    expect(r.bobBalance).toBe(1);
  });

  it('sets, reads and deletes token properties', async () => {
    const r = await run('tokenProperties');
    expect(r.setParsed).toMatchObject({ properties: [{ propertyKey: 'level' }] });
    expect(r.properties).toContainEqual(expect.objectContaining({ key: 'level', value: '7' }));
    expect(r.deleteParsed).toMatchObject({ properties: [{ propertyKey: 'level' }] });
  });

  it('transfers, approves, transfers by allowance and burns', async () => {
    const r = await run('transferApproveBurn');
    expect(r.movedParsed).toMatchObject({ collectionId: r.id, tokenId: r.tokenId, from: ALICE, to: BOB });
    expect(r.approvedIsError).toBe(false);
    expect(r.allowance).toBe(true);
    expect(r.byAllowanceIsError).toBe(false);
    expect(r.ownerAfter).toBe(CHARLIE);
    expect(r.burnedParsed).toMatchObject({ collectionId: r.id, tokenId: r.tokenId });
    expect(r.existsAfterBurn).toBe(false);
  });

  it('nests, walks the bundle and unnests', async () => {
    const r = await run('nesting');
    const id = r.id;
    expect(r.nestParsed).toMatchObject({ collectionId: id, tokenId: r.child });
    expect(r.children).toEqual([{ collectionId: id, tokenId: r.child }]);
    expect(r.parentOfGrandchild).toMatchObject({ collectionId: id, tokenId: r.child });
    expect(r.topmostOwner).toBe(ALICE);
    expect(r.isBundle).toBe(true);
    expect(r.bundle.tokenId).toBe(r.parent);
    expect(r.bundle.nestingChildTokens[0].tokenId).toBe(r.child);
    expect(r.bundle.nestingChildTokens[0].nestingChildTokens[0].tokenId).toBe(r.grandchild);
    expect(r.unnestedIsError).toBe(false);
    expect(r.ownerAfterUnnest).toBe(ALICE);
  });

  it('refuses nesting without permission with the chain error', async () => {
    const r = await run('nestingRefused');
    expect(r.isError).toBe(true);
    expect(r.error?.details).toMatchObject({ name: 'UserIsNotAllowedToNest' });
  });
});

describe('extrinsics', () => {
  it('builds, signs locally, submits and reads the status', async () => {
    const r = await run('buildSignSubmit');
    expect(r.signerPayloadHex).toMatch(/^0x[0-9a-f]+$/);
    expect(r.signature).toMatch(/^0x01[0-9a-f]{128}$/);
    expect(r.status).toMatchObject({ isCompleted: true, isError: false, hash: r.hash });
    expect(r.status.parsed).toEqual({ collectionId: r.id, properties: [{ collectionId: r.id, propertyKey: 'k' }] });
  });
});

describe('who answered', () => {
  it('the worker answered every SDK request; none reached the preview server', async () => {
    const xhr = apiResponses.filter((r) => r.type === 'xhr');
    // Dozens of SDK calls (build, submit, status polls, reads) went out as XMLHttpRequest.
    expect(xhr.length).toBeGreaterThan(100);
    const notFromWorker = apiResponses.filter((r) => !r.fromServiceWorker || r.host !== 'service-worker');
    expect(notFromWorker).toEqual([]);
    expect(new Set(xhr.map((r) => r.method))).toEqual(new Set(['GET', 'POST', 'PATCH', 'DELETE']));
    expect(pages.served.filter((line) => /^\w+ \/(sandbox|ipfs)(\/|\?|$)/.test(line.split(' ').slice(0, 2).join(' ')))).toEqual([]);
  });
});
