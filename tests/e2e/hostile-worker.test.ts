// The hostile suite's subset against the service worker in Chromium: the worker runs the same
// handler as the Node host, so it must refuse the same inputs with the same 4xx envelopes (a 1 MB
// address, deep JSON, a text/plain write, a bad percent-encoded /ipfs URL) and keep answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningPreview } from '../../server/preview';
import { ALICE, call, createCollection, launchBrowser, openControlled, serveApp, type Answer } from './support';

let browser: Browser;
let app: RunningPreview;
let context: BrowserContext;
let page: Page;
let known: { genesisHash: string; collectionId: number };

beforeAll(async () => {
  [browser, app] = await Promise.all([launchBrowser(), serveApp()]);
  context = await browser.newContext();
  page = await openControlled(context, app.url);
  const collectionId = await createCollection(page, 'Hostile worker');
  known = { genesisHash: (await call(page, 'GET', '/sandbox/v1/common/chain-properties')).json.genesisHash, collectionId };
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** A 4xx from the worker in the error envelope, with a short message quoting little of `unit`-made input. */
function expectWorkerRefusal(answer: Answer, status?: number, unit?: string) {
  const context = `${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.host, context).toBe('service-worker');
  if (status !== undefined) expect(answer.status, context).toBe(status);
  expect(answer.status, context).toBeGreaterThanOrEqual(400);
  expect(answer.status, context).toBeLessThan(500);
  expect(answer.json?.error, context).toMatchObject({ code: expect.stringMatching(/^UN\d{5}$/), name: expect.any(String), message: expect.any(String) });
  expect(answer.json.error.message.length, context).toBeLessThanOrEqual(1024);
  if (unit) expect(answer.text.includes(unit.repeat(Math.ceil(130 / unit.length) + 1)), `the answer quotes the input: ${answer.text.slice(0, 200)}`).toBe(false);
}

async function expectWorkerAnswers() {
  const read = await call(page, 'GET', '/sandbox/v1/common/chain-properties');
  expect(read.host).toBe('service-worker');
  expect(read.status).toBe(200);
  expect(read.json.genesisHash).toBe(known.genesisHash);
  const collection = await call(page, 'GET', `/sandbox/v1/collections?collectionId=${known.collectionId}`);
  expect(collection.json).toMatchObject({ id: known.collectionId, name: 'Hostile worker' });
}

describe('the service worker refuses hostile input and keeps answering', () => {
  it('one request freezes the service: a 1 MB address is refused at once, quoting little of it', async () => {
    const address = 'Zq'.repeat(500_000);
    const answer = await call(page, 'POST', '/sandbox/v1/collections?use=Build', { address, name: 'x', description: 'y', tokenPrefix: 'z' });
    expectWorkerRefusal(answer, undefined, 'Zq');
    await expectWorkerAnswers();
  });

  it('500 for client mistakes: a 100k-deep JSON array with use=Build is a 400', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expectWorkerRefusal(await call(page, 'POST', '/sandbox/v1/collections?use=Build', deep), 400);
    await expectWorkerAnswers();
  });

  it('any web page can wipe the ledger: a text/plain write is refused and changes nothing', async () => {
    expectWorkerRefusal(await call(page, 'POST', '/sandbox/v1/dev/reset', '{}', { 'content-type': 'text/plain;charset=UTF-8' }));
    expectWorkerRefusal(await call(page, 'POST', '/sandbox/v1/collections?use=Build', JSON.stringify({ address: ALICE, name: 'x', description: 'y', tokenPrefix: 'z' }), { 'content-type': 'text/plain' }));
    await expectWorkerAnswers();
  });

  it('500 for client mistakes: GET /ipfs/%E0%A4%A (bad percent-encoding) is a 400', async () => {
    expectWorkerRefusal(await call(page, 'GET', '/ipfs/%E0%A4%A'), 400);
    expectWorkerRefusal(await call(page, 'GET', '/ipfs/%zz'), 400);
    await expectWorkerAnswers();
  });
});
