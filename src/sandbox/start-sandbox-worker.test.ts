// The sandbox worker on a fake service-worker scope (fake-indexeddb for the browser's database):
// it takes over at once, answers the ledger's paths of its own origin from its own database, and
// leaves every other request, navigations included, to the network.
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { ServiceWorkerScope } from '../lib/browser/worker-types';
import { SANDBOX_CLAIM_MESSAGE } from '../pkg/browser';
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

describe('the sandbox worker', () => {
  it('skips waiting on install and claims the open pages on activate', async () => {
    const scope = started();
    await Promise.all(dispatch(scope, 'install').waited);
    expect(scope.skipWaiting).toHaveBeenCalledTimes(1);
    await Promise.all(dispatch(scope, 'activate').waited);
    expect(scope.clients.claim).toHaveBeenCalledTimes(1);
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
    const [answer] = fetchOf(scope, `${ORIGIN}/ipfs/bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku`).responded;
    const response = await answer;
    expect(response.status).toBe(404);
    expect((await response.json()).error).toMatchObject({ code: expect.stringMatching(/^UN\d{5}$/) });
  });
});
