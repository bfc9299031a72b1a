// One host per ledger file: the store claims `<file>.lock` with an operating-system lock. These
// tests hold that lock (or leave its file) from other processes and check who may open the file.
// The race of many hosts starting at once is in tests/contract/durability/owner-lock.test.ts.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../../server/storage/sqlite-store';
import { account, ALICE } from '../../src/lib/storage/testing/fixtures';
import { holdSqliteLock, type LockHolder } from '../support/sqlite-lock-holder';

const dirs: string[] = [];
const stores: SqliteStore[] = [];
const holders: LockHolder[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) store.close();
  for (const holder of holders.splice(0)) await holder.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function ledgerPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opalite-owner-lock-test-'));
  dirs.push(dir);
  return join(dir, 'ledger.sqlite');
}

async function open(path: string): Promise<SqliteStore> {
  const store = await openSqliteStore({ path });
  stores.push(store);
  return store;
}

async function refusal(path: string): Promise<Error | undefined> {
  return openSqliteStore({ path }).then(
    (store) => {
      stores.push(store);
      return undefined;
    },
    (e: Error) => e
  );
}

/** The pid the lock file names (its SQLite header's user_version), read as bytes as a refusal reads it. */
function pidInLockFile(path: string): number {
  const head = Buffer.alloc(100);
  const fd = openSync(`${path}.lock`, 'r');
  try {
    readSync(fd, head, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  return head.readUInt32BE(60);
}

/** A process that holds the ledger file's claim through the store's own code (a running host). */
async function hostingProcess(path: string): Promise<{ pid: number; stop: () => Promise<void> }> {
  const ownerLock = new URL('../../server/storage/owner-lock.ts', import.meta.url).pathname;
  const script = `import { claimLedgerFile } from ${JSON.stringify(ownerLock)}; claimLedgerFile(process.argv[1]); process.stdout.write('held\\n'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('held\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the hosting process exited (code ${code}) before it held the file`)));
  });
  return {
    pid: child.pid!,
    async stop() {
      child.kill('SIGKILL'); // as a crash ends it: the OS drops its lock
      await exited;
    }
  };
}

describe('openSqliteStore: one host per ledger file', () => {
  it('refuses a second open of a file this process holds, and opens it again once closed', async () => {
    const path = ledgerPath();
    const first = await openSqliteStore({ path });
    await expect(openSqliteStore({ path })).rejects.toThrow(`Cannot open the ledger database ${path}: it is already open in this process`);
    first.close();
    expect(existsSync(`${path}.lock`), 'a host that stops takes its lock file with it').toBe(false);
    const again = await open(path);
    await again.write(async (tx) => tx.put('accounts', account(ALICE, 1n)));
  });

  it('leaves no lock file beside a file it refused to open', async () => {
    const path = ledgerPath();
    writeFileSync(path, 'not a database, some notes someone kept here\n'.repeat(10));
    expect((await refusal(path))?.message).toMatch(/not an SQLite database/);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('lets one process at a time hold a file while processes claim and release it over and over', { timeout: 60_000 }, async () => {
    const path = ledgerPath();
    const log = `${path}.holders`;
    const ownerLock = new URL('../../server/storage/owner-lock.ts', import.meta.url).pathname;
    // Each process: claim (again when refused), note "+pid", hold a moment, note "-pid", release.
    const script = `
      import { appendFileSync } from 'node:fs';
      import { claimLedgerFile } from ${JSON.stringify(ownerLock)};
      const [path, log, rounds] = process.argv.slice(1);
      const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
      for (let held = 0; held < Number(rounds); ) {
        let release;
        try {
          release = claimLedgerFile(path);
        } catch (e) {
          if (!/in use by another Opalite host/.test(e.message)) throw e;
          pause(Math.random());
          continue;
        }
        appendFileSync(log, '+' + process.pid + '\\n');
        pause(Math.random() * 2);
        appendFileSync(log, '-' + process.pid + '\\n');
        release();
        held++;
      }`;
    const ROUNDS = 100;
    const exits = Array.from({ length: 3 }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, path, log, String(ROUNDS)], { stdio: ['ignore', 'inherit', 'inherit'] });
      return new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    });
    expect(await Promise.all(exits)).toEqual([0, 0, 0]);

    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3 * ROUNDS * 2);
    const overlaps: string[] = [];
    let holder: string | null = null;
    lines.forEach((line, i) => {
      const pid = line.slice(1);
      if (line.startsWith('+')) {
        if (holder !== null) overlaps.push(`line ${i + 1}: ${pid} took the file while ${holder} held it`);
        holder = pid;
      } else {
        if (holder !== pid) overlaps.push(`line ${i + 1}: ${pid} let go of a file held by ${holder}`);
        holder = null;
      }
    });
    expect(overlaps.slice(0, 5)).toEqual([]);
  });

  it('refuses a file another running host holds, naming its process and what to do; opens it once that host is gone', { timeout: 30_000 }, async () => {
    const path = ledgerPath();
    const other = await hostingProcess(path);
    try {
      const error = await refusal(path);
      expect(error?.name).toBe('LedgerFileError');
      expect(error?.message).toContain(`it is in use by another Opalite host (process ${other.pid})`);
      expect(error?.message).toContain('stop that host first');
    } finally {
      await other.stop();
    }
    // Killed, as a crash ends a host: nothing stale is left to clean up by hand.
    await open(path);
    expect(pidInLockFile(path)).toBe(process.pid);
  });

  it('does not take over an empty lock file whose creator is alive and about to write, and says what to do', { timeout: 30_000 }, async () => {
    const path = ledgerPath();
    // The lock file as a starting host leaves it for a moment: created, locked, nothing written yet.
    const creator = await holdSqliteLock(`${path}.lock`, ['PRAGMA locking_mode = EXCLUSIVE', 'BEGIN EXCLUSIVE']);
    holders.push(creator);
    expect(readFileSync(`${path}.lock`).length).toBe(0);

    const error = await refusal(path);
    expect(error?.name).toBe('LedgerFileError');
    expect(error?.message).toMatch(/in use by another Opalite host \(it is still starting, or its process id is not recorded\)/);
    expect(error?.message).toContain(`${path}.lock`);
    expect(error?.message).toContain('stop that host first');
    expect(readFileSync(`${path}.lock`).length, 'the lock file is left as it was').toBe(0);

    // Its creator gone (a crash before it wrote), the lock is free: the file opens.
    await creator.stop();
    await open(path);
  });

  it('outwaits a shared lock another claimant holds for a moment (two hosts starting together both lost)', { timeout: 30_000 }, async () => {
    const path = ledgerPath();
    await open(path);
    stores.pop()!.close(); // the lock file is a database now, as one a starting host is reading
    // A contender mid-claim: a read of the lock database (a shared lock), let go 50 ms later.
    const script = `const db = new (require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))}))(process.argv[1], { timeout: 0 });
db.exec('BEGIN'); db.prepare('SELECT count(*) FROM sqlite_master').get(); process.stdout.write('held\\n');
setTimeout(() => { db.exec('ROLLBACK'); db.close(); }, 50);`;
    const contender = spawn(process.execPath, ['-e', script, `${path}.lock`], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => contender.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      contender.stdout!.setEncoding('utf8').on('data', (chunk: string) => chunk.includes('held') && resolve());
      contender.once('exit', (code) => reject(new Error(`the contender exited (code ${code}) before holding its lock`)));
    });
    await open(path);
    await exited;
  });

  it('opens over an empty lock file nobody holds (the OS lock decides, not the file)', async () => {
    const path = ledgerPath();
    writeFileSync(`${path}.lock`, '');
    await open(path);
    expect(pidInLockFile(path)).toBe(process.pid);
  });

  it("respects a running older Opalite's pid lock file, and takes over one whose process is gone", async () => {
    const path = ledgerPath();
    // The parent of this test process is running for as long as the test does.
    writeFileSync(`${path}.lock`, String(process.ppid));
    const error = await refusal(path);
    expect(error?.message).toContain(`it is in use by an older Opalite host (process ${process.ppid}`);
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe(String(process.ppid));

    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(`${path}.lock`, String(gone));
    const store = await open(path);
    expect(pidInLockFile(path)).toBe(process.pid);
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 1n)));
  });
});
