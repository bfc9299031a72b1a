// An export made by an earlier release (tests/e2e/fixtures/releases/ed60afe-export.json: schema 1,
// before the waiting pool was a table, written by tests/e2e/upgrade.test.ts with that release's
// built app) imports into a fresh ledger of today's code, in the browser's store (Dexie) and the
// Node host's (SQLite), with every row of the file and the answers those rows make.
import { readFileSync } from 'node:fs';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../server/storage/sqlite-store';
import { devRoutes } from '../../src/lib/api/routes/dev';
import { LedgerHost } from '../../src/lib/host/ledger-host';
import type { Store } from '../../src/lib/ledger/store';
import { openDexieStore } from '../../src/lib/storage/dexie-store';

const FIXTURE = new URL('../e2e/fixtures/releases/ed60afe-export.json', import.meta.url);
const text = readFileSync(FIXTURE, 'utf8');
const file = JSON.parse(text);

const opened: { host: LedgerHost; store: { close(): void } }[] = [];
afterEach(() => {
  for (const { host, store } of opened.splice(0)) {
    host.close();
    store.close();
  }
});

let counter = 0;
const STORES: Record<string, () => Promise<Store & { close(): void }>> = {
  dexie: () => openDexieStore({ name: `old-export-${++counter}`, indexedDB, IDBKeyRange }),
  sqlite: () => openSqliteStore()
};

async function freshHost(kind: keyof typeof STORES): Promise<LedgerHost> {
  const store = await STORES[kind]();
  const host = await LedgerHost.open({ kind: 'node', store, routes: (h) => devRoutes(h) });
  opened.push({ host, store });
  return host;
}

async function call(host: LedgerHost, method: string, path: string, body?: string) {
  const init: RequestInit = { method };
  if (body !== undefined) init.body = body;
  if (body !== undefined) init.headers = { 'content-type': 'application/json' };
  const response = await host.handle(new Request(`http://127.0.0.1:4173${path}`, init));
  const answer = await response.text();
  return { status: response.status, text: answer, json: answer ? JSON.parse(answer) : undefined };
}

describe('an export of release ed60afe (schema 1, no pool table)', () => {
  it('is the old format: no pool table, and something in every other table it had', () => {
    expect(file).toMatchObject({ format: 'opalite-ledger', version: 1 });
    expect(file.tables.pool).toBeUndefined();
    for (const table of ['meta', 'accounts', 'collections', 'tokens', 'blocks', 'extrinsics']) expect(file.tables[table].length, table).toBeGreaterThan(0);
  });

  for (const kind of Object.keys(STORES)) {
    it(`imports into a fresh ${kind} ledger with every row`, async () => {
      const host = await freshHost(kind);
      const imported = await call(host, 'POST', '/sandbox/v1/dev/import', text);
      expect(imported.status, imported.text).toBe(201);
      const chainConfig = file.tables.meta.find((row: { key: string }) => row.key === 'chainConfig').value;
      const head = file.tables.meta.find((row: { key: string }) => row.key === 'head').value;
      expect(imported.json).toMatchObject({ genesisHash: chainConfig.genesisHash, head: { number: head.number, hash: head.hash } });

      // Exported again: the same rows, and an empty pool (nothing waited in a release without one).
      const again = JSON.parse((await call(host, 'GET', '/sandbox/v1/dev/export')).text);
      expect(again.tables).toEqual({ ...file.tables, pool: [] });

      for (const row of file.tables.collections) {
        const collection = (await call(host, 'GET', `/sandbox/v1/collections?collectionId=${row.id}`)).json;
        expect(collection).toMatchObject({ id: row.id, name: row.name, owner: row.owner, admins: row.admins, permissions: row.permissions });
      }
      for (const row of file.tables.tokens) {
        const token = (await call(host, 'GET', `/sandbox/v1/tokens?collectionId=${row.collectionId}&tokenId=${row.tokenId}`)).json;
        expect(token.owner, `token ${row.tokenId}`).toBe(row.owner);
      }
      expect(file.tables.tokens.some((row: { parentTokenId?: number }) => row.parentTokenId !== undefined)).toBe(true);
      for (const row of file.tables.accounts) {
        // The answer's raw balance is the row's free balance (a tagged bigint in the file).
        const balance = (await call(host, 'GET', `/sandbox/v1/balance?address=${row.address}`)).json;
        expect(balance.availableBalance.raw, row.address).toBe(BigInt(row.free.$bigint).toString());
      }
      for (const row of file.tables.extrinsics) {
        const status = (await call(host, 'GET', `/sandbox/v1/extrinsic/status?hash=${row.hash}`)).json;
        expect(status, row.hash).toMatchObject({ isCompleted: row.isCompleted, isError: row.isError, blockHash: row.blockHash, block: { header: { number: row.blockNumber } } });
      }
    });
  }
});
