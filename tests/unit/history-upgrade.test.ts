// A ledger written before history was kept opens with nothing lost, and its history starts at its
// head: reads at earlier blocks are refused as pruned, never answered with the head's state.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../server/storage/sqlite-store';
import { APPLICATION_ID, MIGRATIONS } from '../../server/storage/sqlite-schema';
import { toTaggedJson } from '../../src/lib/ledger/snapshot';
import { openDexieStore } from '../../src/lib/storage/dexie-store';
import { LedgerDatabase, SCHEMA_VERSIONS } from '../../src/lib/storage/schema';
import { ALICE, account, freshOptions } from '../../src/lib/storage/testing/fixtures';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const HEAD = { number: 7, hash: `0x${'07'.repeat(32)}` };

describe('upgrading to a ledger that keeps history', () => {
  it('SQLite schema 1 → 2: rows kept, history starts at the head', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opalite-history-upgrade-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'ledger.sqlite');
    const old = new Database(path);
    old.exec(MIGRATIONS[0]);
    old.pragma(`application_id = ${APPLICATION_ID}`);
    old.pragma('user_version = 1');
    old.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('head', toTaggedJson({ key: 'head', value: HEAD }));
    old.prepare('INSERT INTO accounts (address, value) VALUES (?, ?)').run(ALICE, toTaggedJson(account(ALICE, 5n)));
    old.close();

    const store = await openSqliteStore({ path });
    cleanups.push(() => store.close());
    await store.read(async (tx) => {
      expect(await tx.history.start()).toBe(HEAD.number);
      expect(await tx.get('accounts', ALICE)).toEqual(account(ALICE, 5n));
      expect(await tx.history.firstChangesAfter(0)).toEqual([]);
    });
    await store.write(async (tx) => tx.history.add([{ block: 8, seq: 0, extrinsic: 0, table: 'accounts', key: ALICE, before: account(ALICE, 5n), after: account(ALICE, 6n) }]));
    expect(await store.read((tx) => tx.history.changeAfter('accounts', ALICE, 7))).toMatchObject({ block: 8 });
  });

  it('IndexedDB schema 2 → 3: rows kept, history starts at the head', async () => {
    const options = freshOptions();
    const old = new LedgerDatabase({ ...options, versions: SCHEMA_VERSIONS.filter((v) => v.version <= 2) });
    await old.open();
    await old.meta.put({ key: 'head', value: HEAD });
    await old.accounts.put(account(ALICE, 5n));
    old.close();

    const store = await openDexieStore(options);
    cleanups.push(() => store.close());
    expect(store.db.verno).toBe(4);
    await store.read(async (tx) => {
      expect(await tx.history.start()).toBe(HEAD.number);
      expect(await tx.get('accounts', ALICE)).toEqual(account(ALICE, 5n));
    });
  });

  it("IndexedDB schema 3 → 4: the changes kept before are listed in their accounts' history", async () => {
    const options = freshOptions();
    const old = new LedgerDatabase({ ...options, versions: SCHEMA_VERSIONS.filter((v) => v.version <= 3) });
    await old.open();
    await old.changes.add({ block: 3, seq: 0, extrinsic: 0, tbl: 'accounts', keyId: JSON.stringify(ALICE), key: ALICE, before: account(ALICE, 5n), after: account(ALICE, 6n) });
    old.close();

    const store = await openDexieStore(options);
    cleanups.push(() => store.close());
    expect(await store.read((tx) => tx.history.changesOfAccount(ALICE, undefined, 10))).toMatchObject([{ block: 3, seq: 0, after: account(ALICE, 6n) }]);
  });

  it("SQLite schema 2 → 3: changes kept from then on are listed in their accounts' history", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opalite-history-upgrade-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'ledger.sqlite');
    const old = new Database(path);
    old.exec(MIGRATIONS[0]);
    old.exec(MIGRATIONS[1]);
    old.pragma(`application_id = ${APPLICATION_ID}`);
    old.pragma('user_version = 2');
    old.close();

    const store = await openSqliteStore({ path });
    cleanups.push(() => store.close());
    await store.write(async (tx) => tx.history.add([{ block: 8, seq: 0, extrinsic: 0, table: 'accounts', key: ALICE, before: account(ALICE, 5n), after: account(ALICE, 6n) }]));
    expect(await store.read((tx) => tx.history.changesOfAccount(ALICE, undefined, 10))).toMatchObject([{ block: 8, seq: 0 }]);
  });

  it('a new ledger keeps history from block 0', async () => {
    const store = await openDexieStore(freshOptions());
    cleanups.push(() => store.close());
    expect(await store.read((tx) => tx.history.start())).toBe(0);
  });
});
