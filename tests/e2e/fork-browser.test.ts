// "Start a sandbox from a network" on the Network page: the app's service worker forks a Node
// host (started with --cors for the app's origin), answers its collection and token as the source
// does, and what is written on the fork never reaches the source.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { RunningPreview } from '../../server/preview';
import { startHost, type RunningHost } from '../../server/host';
import { ALICE, BOB, call, launchBrowser, openControlled, serveApp } from './support';

let browser: Browser;
let app: RunningPreview;
let source: RunningHost;
let page: Page;

/** A custodial `use=Result` write on the source host itself. */
async function onSource(method: string, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${source.url}${path}?use=Result`, {
    method,
    headers: { 'content-type': 'application/json', authorization: 'Seed //Alice' },
    body: JSON.stringify(body)
  });
  const json = await response.json();
  if (response.status >= 400 || json.isError) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json.parsed;
}

const read = async (path: string) => (await fetch(`${source.url}${path}`)).json();

beforeAll(async () => {
  [browser, app] = await Promise.all([launchBrowser(), serveApp()]);
  source = await startHost({ port: 0, cors: new URL(app.url).origin, verifyThreads: 0, log: () => {} });
  page = await openControlled(await browser.newContext(), app.url);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await source?.stop();
});

describe('a sandbox started from a network (the service worker forks a Node host)', () => {
  it('reads the source through the worker, writes only on the fork', { timeout: 180_000 }, async () => {
    const { collectionId } = await onSource('POST', '/collections', { address: ALICE, name: 'Real', description: 'On the source', tokenPrefix: 'SRC' });
    const { tokenId } = await onSource('POST', '/tokens', { address: ALICE, collectionId, properties: [] });
    const head = await read('/dev/status');

    await page.goto(`${app.url}network`);
    await page.getByRole('textbox', { name: 'REST base_url of the network to start from' }).fill(source.url);
    await page.getByRole('button', { name: 'Start a sandbox from this network' }).click();
    await page.getByRole('button', { name: 'Replace the sandbox with a fork' }).click();
    const origin = page.getByTestId('fork-origin');
    await origin.waitFor({ timeout: 60_000 });
    expect((await origin.textContent())?.replace(/\s+/g, ' ')).toContain(`fork of ${source.url} at block #${head.head.number}`);

    const collection = `/collections?collectionId=${collectionId}`;
    const token = `/tokens?collectionId=${collectionId}&tokenId=${tokenId}`;
    const forked = await call(page, 'GET', `/sandbox/v1${collection}`);
    expect(forked.host).toBe('service-worker');
    expect(forked.json).toEqual(await read(collection));
    expect((await call(page, 'GET', `/sandbox/v1${token}`)).json).toEqual(await read(token));
    const status = (await call(page, 'GET', '/sandbox/v1/dev/status')).json;
    expect(status.fork).toMatchObject({ source: source.url, blockHash: head.head.hash, blockNumber: head.head.number });

    const sent = await call(page, 'PATCH', '/sandbox/v1/tokens/transfer?use=Result', { address: ALICE, to: BOB, collectionId, tokenId }, { authorization: 'Seed //Alice' });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.json.isError).toBe(false);
    expect((await call(page, 'GET', `/sandbox/v1${token}`)).json.owner).toBe(BOB);
    expect((await read(token)).owner).toBe(ALICE);
    expect((await read('/dev/status')).head).toEqual(head.head);
  });
});
