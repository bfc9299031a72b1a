// A full disk: a write that does not fit answers 507 StorageFullError, writes nothing, and the
// app goes on working once there is room again.
//
// The full disk is made inside the service worker, at the storage boundary: IndexedDB's put/add
// throw QuotaExceededError while the fault is on, as Chromium's do when the quota is used up. That
// works on every Chromium build. A real quota (DevTools' Storage.overrideQuotaForOrigin) is tried
// once too, but only where this build enforces the override on the worker's writes: the override
// is an entry in the browser's quota manager for the origin's first-party storage key, and whether
// the worker's IndexedDB writes are checked against it differs between builds (Debian's Chromium
// 150 let them through); navigator.storage.estimate() does not show it either way (it reports a
// static quota), so the test probes with a real write first and skips, saying why, when it is not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Worker } from 'playwright-core';
import type { RunningPreview } from '../../server/preview';
import { cidOf } from '../../src/lib/api/routes/ipfs';
import { ALICE, PNG_1X1_BASE64, call, createCollection, launchBrowser, openControlled, serveApp, uploadFile, waitForWorker } from './support';

let browser: Browser;
let app: RunningPreview;

beforeAll(async () => {
  [browser, app] = await Promise.all([launchBrowser(), serveApp()]);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** The service worker that answers the context's pages. */
async function serviceWorkerOf(context: BrowserContext): Promise<Worker> {
  return context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
}

/**
 * Turns the full disk on or off in the worker: while on, every IndexedDB put/add throws
 * QuotaExceededError. Answers how many writes it has refused so far.
 */
function setDiskFull(worker: Worker, full: boolean): Promise<number> {
  return worker.evaluate((full) => {
    type Fault = { full: boolean; refused: number };
    const scope = globalThis as unknown as { __opaliteDiskFault?: Fault };
    if (!scope.__opaliteDiskFault) {
      const fault: Fault = { full: false, refused: 0 };
      const proto = IDBObjectStore.prototype as unknown as Record<'put' | 'add', (...args: unknown[]) => IDBRequest>;
      for (const method of ['put', 'add'] as const) {
        const original = proto[method];
        proto[method] = function (this: IDBObjectStore, ...args: unknown[]) {
          if (fault.full) {
            fault.refused++;
            throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          }
          return original.apply(this, args);
        };
      }
      scope.__opaliteDiskFault = fault;
    }
    scope.__opaliteDiskFault.full = full;
    return scope.__opaliteDiskFault.refused;
  }, full);
}

function expectStorageFull(answer: { status: number; json: any; text: string; host: string | null }): void {
  expect(answer.status, answer.text.slice(0, 300)).toBe(507);
  expect(answer.host).toBe('service-worker');
  expect(answer.json.error).toMatchObject({ name: 'StorageFullError', code: 'UN01020' });
  expect(answer.json.error.message).toMatch(/storage for this site is full/);
}

describe('a full disk (QuotaExceededError inside the service worker)', () => {
  let context: BrowserContext;
  let page: Page;
  let worker: Worker;

  beforeAll(async () => {
    context = await browser.newContext();
    page = await openControlled(context, app.url);
    worker = await serviceWorkerOf(context);
    expect(await createCollection(page, 'Before the disk filled')).toBe(1);
  });

  afterAll(async () => {
    await context?.close();
  });

  /** Runs `work` with the disk full; fails unless the fault refused at least one write. */
  async function whileDiskFull(work: () => Promise<void>): Promise<void> {
    const refusedBefore = await setDiskFull(worker, true);
    try {
      await work();
      expect(await setDiskFull(worker, true), 'writes refused by the fault').toBeGreaterThan(refusedBefore);
    } finally {
      await setDiskFull(worker, false);
    }
  }

  async function ledgerTables(): Promise<unknown> {
    return JSON.parse((await call(page, 'GET', '/sandbox/v1/dev/export')).text).tables;
  }

  it('refuses an upload with 507 and stores nothing of it', async () => {
    const cid = await cidOf(Buffer.from(PNG_1X1_BASE64, 'base64'));
    await whileDiskFull(async () => {
      expectStorageFull(await uploadFile(page, PNG_1X1_BASE64, 'dot.png', 'image/png'));
    });
    expect((await call(page, 'GET', `/ipfs/${cid}`)).status).toBe(404);
  });

  it('refuses an import with 507 and keeps the ledger as it was', async () => {
    const before = await ledgerTables();
    // An import clears every table before it writes: half of it would leave an empty ledger.
    const snapshot = (await call(page, 'GET', '/sandbox/v1/dev/export')).text;
    await whileDiskFull(async () => {
      expectStorageFull(await call(page, 'POST', '/sandbox/v1/dev/import', snapshot));
    });
    expect(await ledgerTables()).toEqual(before);
  });

  it('refuses a submitted extrinsic with 507 and keeps the ledger as it was', async () => {
    const before = await ledgerTables();
    await whileDiskFull(async () => {
      const body = { address: ALICE, name: 'Does not fit', description: 'Too big', tokenPrefix: 'DNF' };
      expectStorageFull(await call(page, 'POST', '/sandbox/v1/collections?use=Result', body, { authorization: 'Seed //Alice' }));
    });
    expect(await ledgerTables()).toEqual(before);
  });

  it('writes again once there is room', async () => {
    const upload = await uploadFile(page, PNG_1X1_BASE64, 'dot.png', 'image/png');
    expect(upload.status, upload.text).toBe(201);
    expect(upload.json.cid).toBe(await cidOf(Buffer.from(PNG_1X1_BASE64, 'base64')));
    expect((await call(page, 'GET', `/ipfs/${upload.json.cid}`)).status).toBe(200);
    expect(await createCollection(page, 'After the disk emptied')).toBe(2);
    expect((await call(page, 'GET', '/sandbox/v1/collections?collectionId=2')).json.name).toBe('After the disk emptied');
  });
});

describe('a real quota (DevTools override), where this Chromium enforces it on the worker', () => {
  const QUOTA_BYTES = 5 * 1024 * 1024;
  const BIG_BYTES = 8 * 1024 * 1024;
  let context: BrowserContext;
  let page: Page;
  let worker: Worker;
  let overrideRefused: string | null = null;

  beforeAll(async () => {
    context = await browser.newContext();
    page = await context.newPage();
    // Room for the app (precache and worker, about 2.5 MB) and a small ledger, not much more.
    const cdp = await context.newCDPSession(page);
    // An experimental DevTools command: a build without it skips the test, saying so.
    overrideRefused = await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(app.url).origin, quotaSize: QUOTA_BYTES }).then(
      () => null,
      (error: Error) => error.message
    );
    await page.goto(app.url);
    await waitForWorker(page);
    worker = await serviceWorkerOf(context);
  });

  afterAll(async () => {
    await context?.close();
  });

  /** Whether the worker's IndexedDB refuses a write larger than the quota (a scratch database). */
  function overrideConstrainsWorker(): Promise<{ refused: boolean; detail: string }> {
    return worker.evaluate(async (size) => {
      const name = 'opalite-quota-probe';
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name, 1);
        open.onupgradeneeded = () => open.result.createObjectStore('probe');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const outcome = await new Promise<{ refused: boolean; detail: string }>((resolve) => {
        const tx = db.transaction('probe', 'readwrite');
        tx.objectStore('probe').put(new Uint8Array(size).fill(1), 'big');
        tx.oncomplete = () => resolve({ refused: false, detail: `a ${size}-byte write was stored` });
        tx.onabort = () => resolve({ refused: tx.error?.name === 'QuotaExceededError', detail: `the write was refused: ${tx.error?.name}` });
      });
      db.close();
      await new Promise((resolve) => {
        const drop = indexedDB.deleteDatabase(name);
        drop.onsuccess = drop.onerror = drop.onblocked = resolve;
      });
      return outcome;
    }, BIG_BYTES);
  }

  it('refuses an upload that does not fit with 507, and keeps working', async (ctx) => {
    const probe = overrideRefused === null ? await overrideConstrainsWorker() : { refused: false, detail: `the command failed: ${overrideRefused}` };
    if (!probe.refused) {
      const reason = `Skipped: Storage.overrideQuotaForOrigin(${QUOTA_BYTES} bytes) does not constrain the service worker's IndexedDB on this Chromium build (${probe.detail}); the injected full disk above covers 507.`;
      console.warn(reason);
      ctx.skip(reason);
    }
    const big = await page.evaluate(async (size) => {
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(size).fill(7)], { type: 'application/octet-stream' }), 'big.bin');
      const response = await fetch('/sandbox/v1/ipfs/upload-file', { method: 'POST', body: form });
      return { status: response.status, json: await response.json(), text: '', host: response.headers.get('x-opalite-host') };
    }, BIG_BYTES);
    expectStorageFull(big);
    expect(await createCollection(page, 'Still fits')).toBe(1);
  });
});
