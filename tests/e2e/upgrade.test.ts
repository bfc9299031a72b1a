// Upgrades lose nothing. For each earlier release kept in fixtures/releases (its built app, made
// by scripts/make-release-fixture.mjs), that release writes a ledger into a Chromium profile;
// then the current build is served on the same origin, its worker takes over through the app's
// update flow, and every answer the old release gave is given again, the database is at the
// current schema version, and writing goes on. An export of the old release imports too.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startPreview, type RunningPreview } from '../../server/preview';
import { DB_SCHEMA_VERSION, DEFAULT_DB_NAME } from '../../src/lib/storage/schema';
import { ALICE, BOB, BUILD_DIR, CHARLIE, PNG_1X1_BASE64, call, launchPersistent, mint, submit, tempDir, uploadFile, waitForWorker } from './support';

/** Two browser launches, ~20 writes, the update flow and 2–3 imports: more than the e2e default on a slow machine. */
const UPGRADE_TIMEOUT_MS = 600_000;
/** How long a server waits for its port while the last server's socket lets go of it. */
const PORT_PATIENCE_MS = 10_000;

const RELEASES = fileURLToPath(new URL('./fixtures/releases/', import.meta.url));

interface Release {
  commit: string;
  short: string;
  date: string;
  schemaVersion: number;
  archive: string;
}

const releases: Release[] = readdirSync(RELEASES)
  .filter((name) => /^[0-9a-f]{7}\.json$/.test(name))
  .map((name) => JSON.parse(readFileSync(join(RELEASES, name), 'utf8')) as Release)
  .sort((a, b) => a.date.localeCompare(b.date));

/**
 * The committed export of the oldest release's ledger (tests/unit/old-export-import.test.ts reads
 * it too); OPALITE_UPDATE_RELEASE_EXPORT=1 writes it afresh from the run.
 */
const OLD_EXPORT = join(RELEASES, `${releases[0]?.short}-export.json`);

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

/** A port free now; old and new builds are served on it in turn (IndexedDB belongs to an origin). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function isAddressInUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}

/** Serve `root` on `port`, retrying while the port is still held (the last server's socket may linger). */
async function serveOn(root: string, port: number, patienceMs = PORT_PATIENCE_MS): Promise<RunningPreview> {
  const deadline = Date.now() + patienceMs;
  for (;;) {
    try {
      return await startPreview({ root, port });
    } catch (error) {
      if (!isAddressInUse(error) || Date.now() >= deadline) throw error;
      await sleep(200);
    }
  }
}

/**
 * Serve the old release on a free port. Someone may take the port between finding and binding it;
 * then another is picked, which is safe only here, before the old app ever ran on an origin.
 */
async function serveOnFreePort(root: string): Promise<RunningPreview> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await serveOn(root, await freePort(), 1_000);
    } catch (error) {
      if (!isAddressInUse(error) || attempt >= 5) throw error;
    }
  }
}

function unpack(release: Release): string {
  const root = tempDir(`opalite-release-${release.short}-`);
  cleanup.push(root);
  const result = spawnSync('tar', ['-xzf', join(RELEASES, release.archive), '-C', root], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`unpacking ${release.archive} failed: ${result.stderr}`);
  return root;
}

/** The bytes a URL of the page's origin answers, as base64 (a file's bytes, not its text). */
function bytesAt(page: Page, path: string): Promise<{ status: number; base64: string }> {
  return page.evaluate(async (path) => {
    const response = await fetch(path);
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { status: response.status, base64: btoa(String.fromCharCode(...bytes)) };
  }, path);
}

/** The version of the ledger's IndexedDB database as the page's origin has it. */
function databaseVersion(page: Page): Promise<number | undefined> {
  return page.evaluate(async (name) => (await indexedDB.databases()).find((d) => d.name === name)?.version, DEFAULT_DB_NAME);
}

/** The collection's own properties (not keys of the Unique schema). */
const OWN_PROPERTIES = [{ key: 'site', value: 'opalite.test' }];

/** Answers changed on purpose after some releases: the old answer as the current build gives it. */
const ANSWER_CHANGES: { since: string; commit: string; change: (path: string, json: any, now: (path: string) => unknown) => void }[] = [
  {
    // A collection's own properties stay out of its decoded schema (they were decoded as schema keys).
    since: '2026-11-23T19:12:59+00:00',
    commit: '6fd3682',
    change: (path, json) => {
      if (path.startsWith('/sandbox/v1/collections?') && json?.schema) for (const { key } of OWN_PROPERTIES) delete json.schema[key];
    }
  },
  {
    // Get token embeds its collection, as Get collection answers it (reference 9.2).
    since: '2026-11-28T13:54:34+00:00',
    commit: 'bce1d97',
    change: (path, json, now) => {
      const token = /^\/sandbox\/v1\/tokens\?collectionId=(\d+)&tokenId=\d+$/.exec(path);
      if (token && json) json.collection = now(`/sandbox/v1/collections?collectionId=${token[1]}`);
    }
  }
];

/** The old release's answer of `path` as the current build gives it; `answers` are the old release's, for answers one embeds. */
function changedSince(release: Release, path: string, json: unknown, answers: Map<string, { json: unknown }>): unknown {
  const copy = structuredClone(json);
  const now = (other: string) => {
    if (!answers.has(other)) throw new Error(`no answer of ${other} written by ${release.short}`);
    return changedSince(release, other, answers.get(other)!.json, answers);
  };
  for (const { since, change } of ANSWER_CHANGES) if (Date.parse(release.date) < Date.parse(since)) change(path, copy, now);
  return copy;
}

interface Written {
  /** GET path → the answer (status and JSON) the old release gave. */
  answers: Map<string, { status: number; json: unknown }>;
  files: Map<string, string>;
  collectionId: number;
  pooled?: string;
  genesisHash: string;
  exportText: string;
}

/** A ledger with something in every table, written through the old release's REST surface. */
async function writeLedger(page: Page, release: Release): Promise<Written> {
  const hashes: string[] = [];
  const run = async (path: string, body: unknown) => hashes.push((await submit(page, path, body)).hash);
  await run('/sandbox/v1/balance/transfer', { address: ALICE, destination: BOB, amount: 1000 });
  await run('/sandbox/v1/balance/transfer', { address: ALICE, destination: CHARLIE, amount: 250 });
  const created = await submit(page, '/sandbox/v1/collections', {
    address: ALICE,
    name: 'Upgrade opals',
    description: `Written by ${release.short}`,
    tokenPrefix: 'UPG',
    permissions: { access: 'Normal', mintMode: true, nesting: { tokenOwner: true, collectionAdmin: true } },
    properties: OWN_PROPERTIES,
    tokenPropertyPermissions: [{ key: 'color', permission: { mutable: true, collectionAdmin: true, tokenOwner: true } }]
  });
  hashes.push(created.hash);
  const collectionId = created.parsed.collectionId as number;
  await run('/sandbox/v1/collections/admins', { address: ALICE, collectionId, newAdmin: BOB });
  const parent = await mint(page, collectionId, { name: 'Parent opal' });
  const forBob = (await submit(page, '/sandbox/v1/tokens', { address: ALICE, collectionId, owner: BOB, data: { name: 'Bob opal' }, properties: [{ key: 'color', value: 'red' }] })).parsed
    .tokenId as number;
  const child = await mint(page, collectionId, { name: 'Child opal' });
  const sent = await mint(page, collectionId, { name: 'Sent opal' });
  await run('/sandbox/v1/tokens/nest', { address: ALICE, parent: { collectionId, tokenId: parent }, nested: { collectionId, tokenId: child } });
  await run('/sandbox/v1/tokens/properties', { address: ALICE, collectionId, tokenId: parent, properties: [{ key: 'color', value: 'blue' }] });
  // Releases before 9ecf2f5 answered a PATCH with 201 (now 200), so not through submit().
  const transfer = await call(page, 'PATCH', '/sandbox/v1/tokens/transfer?use=Result', { address: ALICE, to: CHARLIE, collectionId, tokenId: sent }, { authorization: 'Seed //Alice' });
  expect([200, 201], transfer.text).toContain(transfer.status);
  expect(transfer.json.isError, transfer.text).toBe(false);
  hashes.push(transfer.json.hash);
  const upload = await uploadFile(page, PNG_1X1_BASE64, 'opal.png', 'image/png');
  expect(upload.status, upload.text).toBe(201);

  let pooled: string | undefined;
  if (release.schemaVersion >= 2) {
    // A release that keeps its waiting pool in the database: leave one extrinsic waiting in it.
    await setBlockMode(page, 'manual');
    const answer = await call(page, 'POST', '/sandbox/v1/balance/transfer?use=Submit', { address: BOB, destination: CHARLIE, amount: 7 }, { authorization: 'Seed //Bob' });
    expect(answer.status, answer.text).toBe(201);
    pooled = answer.json.hash as string;
  }

  const paths = [
    `/sandbox/v1/collections?collectionId=${collectionId}`,
    `/sandbox/v1/collections/admins?collectionId=${collectionId}`,
    `/sandbox/v1/collections/properties?collectionId=${collectionId}`,
    `/sandbox/v1/collections/property-permissions?collectionId=${collectionId}`,
    `/sandbox/v1/collections/last-token-id?collectionId=${collectionId}`,
    `/sandbox/v1/collections/stats`,
    ...[parent, forBob, child, sent].map((tokenId) => `/sandbox/v1/tokens?collectionId=${collectionId}&tokenId=${tokenId}`),
    `/sandbox/v1/tokens/children?collectionId=${collectionId}&tokenId=${parent}`,
    `/sandbox/v1/tokens/parent?collectionId=${collectionId}&tokenId=${child}`,
    `/sandbox/v1/tokens/topmost-owner?collectionId=${collectionId}&tokenId=${child}`,
    ...[ALICE, BOB, CHARLIE].flatMap((address) => [
      `/sandbox/v1/balance?address=${address}`,
      `/sandbox/v1/common/nonce?address=${address}`,
      `/sandbox/v1/tokens/account-tokens?address=${address}&collectionId=${collectionId}`
    ]),
    ...[...hashes, ...(pooled ? [pooled] : [])].map((hash) => `/sandbox/v1/extrinsic/status?hash=${hash}`)
  ];
  const answers = new Map<string, { status: number; json: unknown }>();
  for (const path of paths) {
    const { status, json } = await call(page, 'GET', path);
    expect(status, path).toBe(200);
    answers.set(path, { status, json });
  }
  const cid = upload.json.cid as string;
  const file = await bytesAt(page, `/ipfs/${cid}`);
  expect(file).toEqual({ status: 200, base64: PNG_1X1_BASE64 });
  const status = await call(page, 'GET', '/sandbox/v1/dev/status');
  expect(status.status, status.text).toBe(200);
  expect(status.json.genesisHash, status.text).toEqual(expect.any(String));
  const exported = await call(page, 'GET', '/sandbox/v1/dev/export');
  expect(exported.status, exported.text).toBe(200);
  return { answers, files: new Map([[cid, file.base64]]), collectionId, pooled, genesisHash: status.json.genesisHash, exportText: exported.text };
}

/** With `app` serving, open the page in a browser on `profile`, let `during` work, close both. */
async function withApp<T>(app: RunningPreview, profile: string, during: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
  let context: BrowserContext | undefined;
  try {
    context = await launchPersistent(profile);
    return await during((await context.newPage()) as Page, context);
  } finally {
    await context?.close();
    await app.close();
  }
}

/** The old release's page offers the waiting new version; accepting reloads into it. */
async function updateToCurrent(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('[data-host="service-worker"]').waitFor({ timeout: 180_000 });
  // Without a registration there is nothing to update, and the prompt below would only time out.
  const checked = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    await registration?.update();
    return registration !== undefined;
  });
  expect(checked, 'the old release has a service worker registration').toBe(true);
  const prompt = page.getByRole('alert').filter({ hasText: 'A new version of Opalite is ready' });
  await prompt.waitFor({ timeout: 180_000 });
  await Promise.all([page.waitForEvent('load', { timeout: 180_000 }), prompt.getByRole('button', { name: 'Reload to update' }).click()]);
  await page.locator('[data-host="service-worker"]').waitFor({ timeout: 180_000 });
}

/** Switch the ledger's block mode (dev route), failing here if it is refused. */
async function setBlockMode(page: Page, kind: 'manual' | 'instant'): Promise<void> {
  const answer = await call(page, 'POST', '/sandbox/v1/dev/block-mode', { kind });
  expect(answer.status, answer.text).toBe(201);
}

/** The ledger's export, every table by name; fails here if the export is refused. */
async function exportedTables(page: Page): Promise<Record<string, unknown[]>> {
  const exported = await call(page, 'GET', '/sandbox/v1/dev/export');
  expect(exported.status, exported.text).toBe(200);
  return JSON.parse(exported.text).tables;
}

/** Replace the page's ledger with an export and read every imported row back through the API. */
async function importAndReadBack(page: Page, text: string): Promise<void> {
  const snapshot = JSON.parse(text);
  // Manual blocks, so what waits in the file's pool stays waiting and can be compared.
  await setBlockMode(page, 'manual');
  const imported = await call(page, 'POST', '/sandbox/v1/dev/import', text);
  expect(imported.status, imported.text).toBe(201);
  const genesis = snapshot.tables.meta.find((row: { key: string }) => row.key === 'chainConfig').value.genesisHash;
  expect(imported.json.genesisHash).toBe(genesis);
  // Every row of the file is in the ledger, and nothing else (a file without a pool had nothing waiting).
  const again = await exportedTables(page);
  for (const [table, rows] of Object.entries(snapshot.tables)) expect(again[table], table).toEqual(rows);
  expect(again.pool).toEqual(snapshot.tables.pool ?? []);
  for (const row of snapshot.tables.collections) {
    expect((await call(page, 'GET', `/sandbox/v1/collections?collectionId=${row.id}`)).json).toMatchObject({ id: row.id, name: row.name, owner: row.owner });
  }
  for (const row of snapshot.tables.tokens) {
    const token = (await call(page, 'GET', `/sandbox/v1/tokens/owner?collectionId=${row.collectionId}&tokenId=${row.tokenId}`)).json;
    expect(token.owner).toBe(row.owner);
  }
  for (const row of snapshot.tables.extrinsics) {
    expect((await call(page, 'GET', `/sandbox/v1/extrinsic/status?hash=${row.hash}`)).json).toMatchObject({ isCompleted: row.isCompleted, isError: row.isError });
  }
  await setBlockMode(page, 'instant');
}

describe('upgrading from an earlier release', () => {
  it('has release fixtures of schema 1 and of the previous schema', () => {
    expect(releases.map((r) => r.schemaVersion)).toEqual(expect.arrayContaining([1, DB_SCHEMA_VERSION - 1]));
  });

  for (const release of releases) {
    it(`opens the ledger of ${release.short} (schema ${release.schemaVersion}) with every answer unchanged`, async () => {
      const profile = tempDir(`opalite-upgrade-profile-`);
      cleanup.push(profile);
      const old = await serveOnFreePort(unpack(release));
      // From here on the port is the origin the ledger belongs to: the current build must get the same one.
      const { port, url } = old;

      const written = await withApp(old, profile, async (page) => {
        await page.goto(url);
        await waitForWorker(page);
        expect(await databaseVersion(page)).toBe(release.schemaVersion * 10);
        return writeLedger(page, release);
      });
      if (release === releases[0] && process.env.OPALITE_UPDATE_RELEASE_EXPORT === '1') writeFileSync(OLD_EXPORT, written.exportText);

      await withApp(await serveOn(BUILD_DIR, port), profile, async (page) => {
        await updateToCurrent(page, url);
        const { version } = JSON.parse(readFileSync(join(BUILD_DIR, '_app', 'version.json'), 'utf8')) as { version: string };
        const status = await call(page, 'GET', '/sandbox/v1/dev/status');
        expect(status.status, status.text).toBe(200);
        expect(status.json.appVersion).toBe(version);
        expect(status.json.genesisHash).toBe(written.genesisHash);
        // Dexie stores version N as IndexedDB version N × 10.
        expect(await databaseVersion(page)).toBe(DB_SCHEMA_VERSION * 10);

        // Every row, as the database holds it (what the old export has, the new one has).
        const rows = await exportedTables(page);
        const oldRows = JSON.parse(written.exportText).tables;
        for (const table of Object.keys(rows)) expect(rows[table], table).toEqual(oldRows[table] ?? (table === 'pool' ? [] : undefined));
        // And every answer the old release gave, less the changes made on purpose since.
        for (const [path, answer] of written.answers) {
          const now = await call(page, 'GET', path);
          expect({ status: now.status, json: now.json }, path).toEqual({ status: answer.status, json: changedSince(release, path, answer.json, written.answers) });
        }
        for (const [cid, base64] of written.files) expect(await bytesAt(page, `/ipfs/${cid}`)).toEqual({ status: 200, base64 });

        if (written.pooled) {
          // Still waiting after the upgrade; sealed now, it goes in once.
          const sealed = await call(page, 'POST', '/sandbox/v1/dev/blocks/seal', {});
          expect(sealed.status, sealed.text).toBe(201);
          expect(sealed.json.block?.extrinsics, sealed.text).toEqual([written.pooled]);
          expect((await call(page, 'GET', `/sandbox/v1/extrinsic/status?hash=${written.pooled}`)).json).toMatchObject({ isCompleted: true, isError: false });
          await setBlockMode(page, 'instant');
        }
        // Writing goes on from there.
        const last = written.answers.get(`/sandbox/v1/collections/last-token-id?collectionId=${written.collectionId}`)!.json as { tokenId: number };
        expect(await mint(page, written.collectionId, { name: 'After the upgrade' })).toBe(last.tokenId + 1);

        // The release's own export imports into the current build; then the committed one.
        await importAndReadBack(page, written.exportText);
        if (release === releases[0]) await importAndReadBack(page, readFileSync(OLD_EXPORT, 'utf8'));
      });
    }, UPGRADE_TIMEOUT_MS);
  }
});
