// The SQLite store under concurrency: a bounded number of reading connections however many reads
// overlap, and another program's lock waited for off the event loop (timers keep firing, reads keep
// answering) until it is released or the deadline passes.
import { mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_READERS, openSqliteStore, type SqliteStore } from '../../server/storage/sqlite-store';
import { errorResponseFor } from '../../src/lib/api/errors';
import { ALICE, BOB, account } from '../../src/lib/storage/testing/fixtures';
import { holdSqliteLock, type LockHolder } from '../support/sqlite-lock-holder';

const dirs: string[] = [];
const stores: SqliteStore[] = [];
const holders: LockHolder[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) store.close();
  for (const holder of holders.splice(0)) await holder.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function openAt(options: Omit<Parameters<typeof openSqliteStore>[0] & object, 'path'> = {}): Promise<SqliteStore> {
  const dir = mkdtempSync(join(tmpdir(), 'opalite-sqlite-concurrency-'));
  dirs.push(dir);
  const store = await openSqliteStore({ path: join(dir, 'ledger.sqlite'), ...options });
  stores.push(store);
  return store;
}

/** Open descriptors of this process on the database file itself: one per SQLite connection. */
function connectionsTo(path: string): number {
  const target = realpathSync(path);
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === target) count++;
    } catch {
      // closed while listing
    }
  }
  return count;
}

/** Counts timer callbacks: proof that the event loop turns while something waits. */
function ticker(): { readonly ticks: number; stop(): void } {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 2);
  return {
    get ticks() {
      return ticks;
    },
    stop: () => clearInterval(timer)
  };
}

/** Whether a promise has settled yet, without waiting for it. */
function tracked<T>(promise: Promise<T>): { promise: Promise<T>; readonly settled: boolean } {
  let settled = false;
  const done = () => (settled = true);
  promise.then(done, done);
  return {
    promise,
    get settled() {
      return settled;
    }
  };
}

describe('SqliteStore reading connections', () => {
  it.skipIf(process.platform !== 'linux')(`answers 200 overlapping reads with at most ${MAX_READERS} reading connections open`, async () => {
    const store = await openAt();
    await store.write(async (tx) => {
      for (let i = 0; i < 50; i++) tx.put('accounts', account(`addr-${i}`, BigInt(i)));
    });
    const writerOnly = connectionsTo(store.path);
    let most = 0;
    const reads = Array.from({ length: 200 }, (_, i) =>
      store.read(async (tx) => {
        const first = await tx.get('accounts', `addr-${i % 50}`);
        await sleep(i % 4); // a request that awaits between its queries holds its connection meanwhile
        most = Math.max(most, connectionsTo(store.path) - writerOnly);
        const second = await tx.get('accounts', `addr-${(i + 1) % 50}`);
        return [first?.free, second?.free];
      })
    );
    const answers = await Promise.all(reads);
    expect(answers).toEqual(Array.from({ length: 200 }, (_, i) => [BigInt(i % 50), BigInt((i + 1) % 50)]));
    expect(most, 'reading connections open at once').toBeLessThanOrEqual(MAX_READERS);
    expect(most, 'the reads overlapped (else this shows nothing)').toBeGreaterThan(1);
  });

  it('refuses reads still waiting in line when the store closes', async () => {
    const store = await openAt({ maxReaders: 1 });
    let release!: () => void;
    const holding = store.read(() => new Promise<void>((resolve) => (release = resolve)));
    const waiting = store.read(async () => 'never');
    await sleep(5);
    store.close();
    await expect(waiting).rejects.toThrow(/closed/);
    release();
    await holding;
  });
});

describe('SqliteStore while another program holds the write lock', () => {
  it('waits off the event loop: timers fire and reads answer meanwhile, and the write completes once the lock is released', { timeout: 30_000 }, async () => {
    const store = await openAt({ busyDeadlineMs: 20_000 }); // the reads below must not take it to its deadline
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 1n)));
    // A person's sqlite3 session in the middle of a write.
    const other = await holdSqliteLock(store.path, ['BEGIN IMMEDIATE']);
    holders.push(other);

    const clock = ticker();
    const write = tracked(store.write(async (tx) => tx.put('accounts', account(BOB, 2n))));
    try {
      for (let i = 0; i < 20; i++) expect(await store.read((tx) => tx.get('accounts', ALICE))).toEqual(account(ALICE, 1n));
      while (clock.ticks < 20) await sleep(2);
      // Twenty reads and twenty timer callbacks later, the write still waits for the lock (the old
      // store slept in SQLite's busy handler, so nothing ran until it had failed).
      expect(write.settled).toBe(false);
      expect(await store.read((tx) => tx.get('accounts', BOB))).toBeUndefined();
    } finally {
      clock.stop();
    }
    await other.release();
    await write.promise;
    expect(await store.read((tx) => tx.get('accounts', BOB))).toEqual(account(BOB, 2n));
  });

  it('refuses the write as StoreBusyError (503) after its deadline, having kept the event loop turning, stores nothing, and writes again once the lock is gone', { timeout: 30_000 }, async () => {
    const store = await openAt({ busyDeadlineMs: 300 });
    const other = await holdSqliteLock(store.path, ['BEGIN IMMEDIATE']);
    holders.push(other);
    const clock = ticker();
    const refused = await store.write(async (tx) => tx.put('accounts', account(ALICE, 1n))).catch((e: unknown) => e);
    const ticksWhileWaiting = clock.ticks;
    clock.stop();
    expect((refused as Error).name).toBe('StoreBusyError');
    expect((refused as Error).message).toContain(store.path);
    expect(errorResponseFor(refused).status).toBe(503);
    // A store that slept in SQLite's busy handler fires no timer until it gives up (one at most after).
    expect(ticksWhileWaiting).toBeGreaterThan(2);

    await other.release();
    expect(await store.read((tx) => tx.get('accounts', ALICE))).toBeUndefined();
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 1n)));
    expect((await store.read((tx) => tx.get('accounts', ALICE)))?.free).toBe(1n);
  });

  it('waits the same way for files (uploads) and then stores them', { timeout: 30_000 }, async () => {
    const store = await openAt();
    const other = await holdSqliteLock(store.path, ['BEGIN IMMEDIATE']);
    holders.push(other);
    const upload = tracked(store.files.putFile({ cid: 'bafkwait', bytes: new Uint8Array([1, 2, 3]), type: 'text/plain', name: 'a.txt' }));
    for (let i = 0; i < 5; i++) expect(await store.files.hasFile('bafkwait')).toBe(false);
    expect(upload.settled).toBe(false);
    await other.release();
    await upload.promise;
    expect(await store.files.hasFile('bafkwait')).toBe(true);
  });
});
