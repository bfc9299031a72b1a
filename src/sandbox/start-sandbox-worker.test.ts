// The sandbox worker on a fake service-worker scope (fake-indexeddb for the browser's database):
// it takes over at once, answers the REST API's routes and GET /ipfs/<cid> of its own origin from
// its own database, leaves every other request, navigations included, to the network, and tells
// a page its version.
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { ServiceWorkerScope } from '../lib/browser/worker-types';
import { SANDBOX_CLAIM_MESSAGE, SANDBOX_MESSAGE_VERSION, SANDBOX_VERSION_MESSAGE } from '../pkg/browser';
import { SANDBOX_DB_NAME, startSandboxWorker } from './start-sandbox-worker';

const ORIGIN = 'https://dapp.example';

class FakeScope extends EventTarget {
  readonly location = { origin: ORIGIN, pathname: '/opalite-sandbox-worker.js' };
  readonly registration = { scope: `${ORIGIN}/` };
  readonly clients = { claim: vi.fn(async () => {}) };
  readonly skipWaiting = vi.fn(async () => {});
}

/** Dispatch an extendable event; returns what the worker passed to waitUntil/respondWith. */
function dispatch(scope: FakeScope, type: string, fields: Record<string, unknown> = {}): { waited: Promise<unknown>[]; responded: Promise<Response>[] } {
  const waited: Promise<unknown>[] = [];
  const responded: Promise<Response>[] = [];
  const event = Object.assign(new Event(type), fields, {
    waitUntil: (p: Promise<unknown>) => waited.push(p),
    respondWith: (r: Response | Promise<Response>) => responded.push(Promise.resolve(r))
  });
  scope.dispatchEvent(event);
  return { waited, responded };
}

function started(): FakeScope {
  const scope = new FakeScope();
  startSandboxWorker(scope as unknown as ServiceWorkerScope, { appVersion: '9.9.9' });
  return scope;
}

const fetchOf = (scope: FakeScope, url: string, init?: RequestInit) => dispatch(scope, 'fetch', { request: new Request(url, init) });

/** A navigation (Node's Request cannot be built with mode 'navigate'; the worker reads only these fields). */
const navigationTo = (scope: FakeScope, url: string) => dispatch(scope, 'fetch', { request: { url, method: 'GET', mode: 'navigate', headers: new Headers() } });

const A_CID = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku';

describe('the sandbox worker', () => {
  it('skips waiting on install and claims the open pages on activate', async () => {
    const scope = started();
    await Promise.all(dispatch(scope, 'install').waited);
    expect(scope.skipWaiting).toHaveBeenCalledTimes(1);
    await Promise.all(dispatch(scope, 'activate').waited);
    expect(scope.clients.claim).toHaveBeenCalledTimes(1);
  });

  it('opens its ledger when it activates, before the first request', async () => {
    const scope = new FakeScope();
    const dbName = 'opalite-sandbox-warm-test';
    startSandboxWorker(scope as unknown as ServiceWorkerScope, { appVersion: '9.9.9', dbName });
    const created = async () => (await indexedDB.databases()).some((db) => db.name === dbName);
    expect(await created()).toBe(false);
    await Promise.all(dispatch(scope, 'activate').waited);
    await vi.waitFor(async () => expect(await created()).toBe(true));
    const { responded } = fetchOf(scope, `${ORIGIN}/sandbox/v1/balance?address=5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY`);
    expect((await responded[0]).status).toBe(200);
  });

  it('claims a page that asks, and ignores other messages', async () => {
    const scope = started();
    expect(dispatch(scope, 'message', { data: { type: 'SKIP_WAITING' }, ports: [], source: null }).waited).toEqual([]);
    expect(dispatch(scope, 'message', { data: null, ports: [], source: null }).waited).toEqual([]);
    await Promise.all(dispatch(scope, 'message', { data: { type: SANDBOX_CLAIM_MESSAGE }, ports: [], source: null }).waited);
    expect(scope.clients.claim).toHaveBeenCalledTimes(1);
  });

  it("leaves the app's pages, files and other origins to the network", () => {
    const scope = started();
    for (const url of [
      `${ORIGIN}/`,
      `${ORIGIN}/index.html`,
      `${ORIGIN}/assets/index-abc123.js`,
      `${ORIGIN}/sandboxes/v1`,
      `${ORIGIN}/api/sandbox/v1/collections`,
      `${ORIGIN}/ipfs`,
      'https://rest.unique.network/opal/v1/collections',
      'https://other.example/sandbox/v1/collections'
    ]) {
      expect(fetchOf(scope, url).responded, url).toEqual([]);
    }
    expect(fetchOf(scope, `${ORIGIN}/api/items`, { method: 'POST', body: '{}' }).responded).toEqual([]);
  });

  it('leaves paths under /sandbox that are not API routes to the network', () => {
    const scope = started();
    for (const path of ['/sandbox', '/sandbox/', '/sandbox/v1', '/sandbox/v1/', '/sandbox/v1/no-such-route', '/sandbox/readme.txt', '/sandbox/v1/collections/', '/sandbox/v2/collections', '/sandbox/v1/query/a/b']) {
      expect(fetchOf(scope, `${ORIGIN}${path}`).responded, path).toEqual([]);
    }
  });

  it('leaves navigations to the app, even to an API path or a file', () => {
    const scope = started();
    for (const path of ['/', '/sandbox/v1/collections', '/sandbox/dev/status', `/ipfs/${A_CID}`]) {
      expect(navigationTo(scope, `${ORIGIN}${path}`).responded, path).toEqual([]);
    }
  });

  it('answers only GET and HEAD of /ipfs/<cid>, and only for a CID', () => {
    const scope = started();
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      expect(fetchOf(scope, `${ORIGIN}/ipfs/${A_CID}`, { method }).responded, method).toEqual([]);
    }
    for (const path of ['/ipfs/not-a-cid', '/ipfs/index.html', '/ipfs/upload-file']) {
      expect(fetchOf(scope, `${ORIGIN}${path}`).responded, path).toEqual([]);
    }
    for (const [method, path] of [['GET', `/ipfs/${A_CID}`], ['HEAD', `/ipfs/${A_CID}`], ['GET', `/ipfs/${A_CID}/inner/name.png`], ['GET', '/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG']]) {
      expect(fetchOf(scope, `${ORIGIN}${path}`, { method }).responded, `${method} ${path}`).toHaveLength(1);
    }
  });

  it('answers every spelling of an API route, with any method (a wrong one gets the API\'s 404)', async () => {
    const scope = started();
    for (const path of ['/sandbox/v1/collections', '/sandbox/collections', '/sandbox/v1/collection', '/sandbox/token', '/sandbox/v1/tokens/v2', '/sandbox/v1/openapi.json', '/sandbox/openapi.json', '/sandbox/v1/query/rpc/chain/getHeader', '/sandbox/v1/collections/add-allow-list', '/sandbox/v1/chain/properties', '/sandbox/v1/ipfs/upload-file', '/sandbox/dev/status', '/sandbox/v1/collection%73']) {
      expect(fetchOf(scope, `${ORIGIN}${path}?collectionId=1`).responded, path).toHaveLength(1);
    }
    const [wrongMethod] = fetchOf(scope, `${ORIGIN}/sandbox/v1/collections`, { method: 'PUT', body: '{}', headers: { 'content-type': 'application/json' } }).responded;
    const response = await wrongMethod;
    expect(response.status).toBe(404);
    expect((await response.json()).error).toMatchObject({ name: 'NotFoundError', message: expect.stringContaining('No route PUT /sandbox/v1/collections') });
  });

  it('answers every path of its own OpenAPI document (the route table the host serves), versioned and not', async () => {
    const scope = started();
    const [document] = fetchOf(scope, `${ORIGIN}/sandbox/v1/openapi.json`).responded;
    const paths = Object.keys(((await (await document).json()) as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(expect.arrayContaining(['/sandbox/v1/dev/status', '/sandbox/v1/ipfs/upload-file', '/sandbox/v1/collections']));
    for (const path of paths) {
      const concrete = path.replace(/\{\w+\}/g, 'x');
      expect(fetchOf(scope, `${ORIGIN}${concrete}`).responded, concrete).toHaveLength(1);
      expect(fetchOf(scope, `${ORIGIN}${concrete.replace('/sandbox/v1/', '/sandbox/')}`).responded, concrete).toHaveLength(1);
    }
  });

  it('tells a page its version on the port the page sent', async () => {
    const scope = started();
    const channel = new MessageChannel();
    const answer = new Promise<unknown>((resolve) => channel.port1.addEventListener('message', (event) => resolve(event.data), { once: true }));
    channel.port1.start();
    dispatch(scope, 'message', { data: { type: SANDBOX_VERSION_MESSAGE, v: SANDBOX_MESSAGE_VERSION }, ports: [channel.port2], source: null });
    expect(await answer).toEqual({ type: SANDBOX_VERSION_MESSAGE, v: SANDBOX_MESSAGE_VERSION, version: '9.9.9' });
    channel.port1.close();
    // A question without a port has nowhere to be answered: nothing is thrown.
    expect(() => dispatch(scope, 'message', { data: { type: SANDBOX_VERSION_MESSAGE, v: SANDBOX_MESSAGE_VERSION }, ports: [], source: null })).not.toThrow();
  });

  it("answers the REST API from its own database, named apart from the Opalite app's", async () => {
    const scope = started();
    const [answer] = fetchOf(scope, `${ORIGIN}/sandbox/v1/dev/status`).responded;
    const response = await answer;
    expect(response.status).toBe(200);
    expect(response.headers.get('x-opalite-host')).toBe('service-worker');
    expect(await response.json()).toMatchObject({ host: 'service-worker', appVersion: '9.9.9', network: 'sandbox' });
    const names = (await indexedDB.databases()).map((d) => d.name);
    expect(names).toContain(SANDBOX_DB_NAME);
    expect(names).not.toContain('opalite-ledger');
  });

  it('answers <origin>/ipfs/<cid> (an unknown file is a 404 envelope, not a network request)', async () => {
    const scope = started();
    const [answer] = fetchOf(scope, `${ORIGIN}/ipfs/${A_CID}`).responded;
    const response = await answer;
    expect(response.status).toBe(404);
    expect((await response.json()).error).toMatchObject({ code: expect.stringMatching(/^UN\d{5}$/) });
  });
});
