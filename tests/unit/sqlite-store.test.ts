// What is particular to the Node host's SQLite store; the Store behaviour it shares with the
// other stores is checked in src/lib/storage/store-behaviour.test.ts.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSqliteStore, type SqliteStore, type StoreFaults } from '../../server/storage/sqlite-store';
import type { FileStoreLike } from '../../src/lib/api/routes/ipfs';
import type { QueryTx, Store } from '../../src/lib/ledger/store';
import { MemoryStore } from '../../src/lib/ledger/testing/memory-store';
import { StorageFullError } from '../../src/lib/storage/errors';
import { errorResponseFor } from '../../src/lib/api/errors';
import { ALICE, BOB, CHARLIE, account, block, extrinsic, pooled, token } from '../../src/lib/storage/testing/fixtures';

const dirs: string[] = [];
const stores: SqliteStore[] = [];

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opalite-sqlite-test-'));
  dirs.push(dir);
  return dir;
}

async function open(options: Parameters<typeof openSqliteStore>[0] = {}): Promise<SqliteStore> {
  const store = await openSqliteStore(options);
  stores.push(store);
  return store;
}

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A promise and its resolve, to hold a transaction open. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const sortedDump = async (store: Store) => {
  const dump = await store.dump();
  const key = (row: unknown) => JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
  return Object.fromEntries(Object.entries(dump).map(([t, rows]) => [t, rows.map(key).sort()]));
};

describe('SqliteStore', () => {
  it('keeps ledger rows, the pool and files across a reopen of the same file', async () => {
    const path = join(tempDir(), 'ledger.sqlite');
    const first = await openSqliteStore({ path });
    expect(first.path).toBe(path);
    await first.write(async (tx) => {
      tx.put('accounts', account(ALICE, 10n ** 30n, 2));
      tx.put('tokens', token(1, 1, [2, 2]));
      tx.put('blocks', block(0));
      tx.put('pool', pooled('0xaa', ALICE, 2));
    });
    await first.files.putFile({ cid: 'bafkfile', bytes: new Uint8Array([1, 2, 3]), type: 'image/png', name: 'a.png', createdAt: 5 });
    first.close();

    const again = await open({ path });
    await again.read(async (tx) => {
      expect(await tx.get('accounts', ALICE)).toEqual(account(ALICE, 10n ** 30n, 2));
      expect(await tx.childrenOf(2, 2)).toEqual([token(1, 1, [2, 2])]);
      expect(await tx.headBlock()).toEqual(block(0));
      expect(await tx.pooled()).toEqual([pooled('0xaa', ALICE, 2)]);
    });
    expect((await again.files.getFile('bafkfile'))?.bytes).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('writes a file a user can read with sqlite3: one table per ledger table, rows as tagged JSON', async () => {
    const path = join(tempDir(), 'ledger.sqlite');
    const store = await open({ path });
    await store.write(async (tx) => {
      tx.put('accounts', account(BOB, 12345678901234567890n, 1));
      tx.put('tokens', token(3, 4, CHARLIE));
    });
    const db = new Database(path, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const value = db.prepare('SELECT value FROM accounts WHERE address = ?').pluck().get(BOB);
      expect(JSON.parse(value as string)).toEqual({ address: BOB, free: { $bigint: '12345678901234567890' }, nonce: 1 });
      expect(db.prepare('SELECT owner FROM tokens WHERE collectionId = 3 AND tokenId = 4').pluck().get()).toBe(CHARLIE);
      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT tokenId FROM tokens WHERE owner = ? AND collectionId = ?').all(ALICE, 1);
      expect(JSON.stringify(plan)).toMatch(/USING (COVERING )?INDEX tokens_by_owner/);
    } finally {
      db.close();
    }
  });

  it('deletes its temporary file on close when opened without a path', async () => {
    const store = await openSqliteStore();
    expect(existsSync(store.path)).toBe(true);
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 1n)));
    store.close();
    expect(existsSync(store.path)).toBe(false);
    expect(existsSync(`${store.path}-wal`)).toBe(false);
    await expect(store.read(async () => 1)).rejects.toThrow(/closed/);
  });

  it('lets readers see the last commit while a write transaction is open, without waiting for it', async () => {
    const store = await open();
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 1n)));
    const hold = gate();
    const inWrite = gate();
    const writing = store.write(async (tx) => {
      tx.put('accounts', account(ALICE, 2n));
      tx.put('accounts', account(BOB, 3n));
      expect((await tx.get('accounts', ALICE))!.free).toBe(2n); // its own write
      inWrite.open();
      await hold.promise;
    });
    await inWrite.promise;
    // The write transaction is open (its callback waits): a read answers at once, from the last commit.
    const seen = await store.read(async (tx) => [await tx.get('accounts', ALICE), await tx.get('accounts', BOB)]);
    expect(seen).toEqual([account(ALICE, 1n), undefined]);
    expect(await store.dump()).toMatchObject({ accounts: [account(ALICE, 1n)] });
    hold.open();
    await writing;
    expect(await store.read((tx) => tx.get('accounts', BOB))).toEqual(account(BOB, 3n));
  });

  it('keeps one read transaction on one snapshot while a write commits in between', async () => {
    const store = await open();
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 1n)));
    const result = await store.read(async (tx) => {
      const before = await tx.get('accounts', ALICE);
      await store.write(async (w) => w.put('accounts', account(ALICE, 2n)));
      return [before, await tx.get('accounts', ALICE)];
    });
    expect(result).toEqual([account(ALICE, 1n), account(ALICE, 1n)]);
    expect((await store.read((tx) => tx.get('accounts', ALICE)))!.free).toBe(2n);
  });

  it('runs concurrent writes one at a time (each sees the one before)', async () => {
    const store = await open();
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 0n)));
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        store.write(async (tx) => {
          const a = (await tx.get('accounts', ALICE))!;
          await new Promise((resolve) => setTimeout(resolve, i % 3)); // yield mid-transaction
          tx.put('accounts', { ...a, free: a.free + 1n, nonce: a.nonce + 1 });
        })
      )
    );
    expect(await store.read((tx) => tx.get('accounts', ALICE))).toEqual(account(ALICE, 25n, 25));
  });

  it('commits nothing of a block whose callback caught a failed statement', async () => {
    let failNext = false;
    const store = await open({
      faults: {
        beforeStatement(table, kind) {
          if (failNext && table === 'tokens' && kind === 'put') {
            failNext = false;
            throw new Error('injected fault');
          }
        }
      }
    });
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 1n)));
    failNext = true;
    const write = store.write(async (tx) => {
      tx.put('accounts', account(ALICE, 2n));
      try {
        tx.put('tokens', token(1, 1));
      } catch {
        // a careless caller goes on with the block
      }
      tx.put('accounts', account(BOB, 1n));
      return 'done';
    });
    await expect(write).rejects.toThrow('injected fault');
    expect(await store.read((tx) => Promise.all([tx.get('accounts', ALICE), tx.get('accounts', BOB), tx.get('tokens', [1, 1])]))).toEqual([
      account(ALICE, 1n),
      undefined,
      undefined
    ]);
  });

  it('rolls back whole blocks when faults are injected at random points, and keeps working', async () => {
    const rand = prng(8);
    let failAt = -1; // the statement that throws (counted from 0); -2: throw before COMMIT; -1: none
    let statements = 0;
    const faults: StoreFaults = {
      beforeStatement() {
        if (statements++ === failAt) throw new Error('injected fault');
      },
      beforeCommit() {
        if (failAt === -2) throw new Error('injected fault before commit');
      }
    };
    const store = await open({ faults });
    const model = new MemoryStore(); // gets only the blocks that committed
    let failures = 0;
    for (let round = 0; round < 200; round++) {
      const ops = randomBlock(rand, round);
      statements = 0;
      failAt = rand() < 0.7 ? Math.floor(rand() * ops.length * 1.5) : rand() < 0.5 ? -2 : -1;
      const committed = await store.write((tx) => apply(tx, ops)).then(
        () => true,
        (e: Error) => {
          expect(e.message).toMatch(/injected fault/);
          return false;
        }
      );
      if (committed) await model.write((tx) => apply(tx, ops));
      else failures++;
      expect(await sortedDump(store)).toEqual(await sortedDump(model));
    }
    expect(failures).toBeGreaterThan(50);
    failAt = -1;
    await store.write(async (tx) => tx.put('accounts', account(CHARLIE, 9n)));
    expect(await store.read((tx) => tx.get('accounts', CHARLIE))).toEqual(account(CHARLIE, 9n));
  });
});

/** A child process that writes one block after another and prints each number once write() resolved. */
const WRITER_SCRIPT = `
import { openSqliteStore } from ${JSON.stringify(new URL('../../server/storage/sqlite-store.ts', import.meta.url).pathname)};
const store = await openSqliteStore({ path: process.argv[2] });
let n = (await store.read((tx) => tx.headBlock()))?.number ?? 0;
for (;;) {
  n++;
  await store.write(async (tx) => {
    const a = (await tx.get('accounts', 'A')) ?? { address: 'A', free: 0n, nonce: 0 };
    tx.put('accounts', { ...a, free: a.free + 1n, nonce: n });
    tx.put('tokens', { collectionId: 1, tokenId: n, owner: 'A', properties: [{ key: 'p', value: 'x'.repeat(n % 700) }] });
    tx.put('blocks', { number: n, hash: '0x' + n.toString(16), parentHash: '0x', stateRoot: '0x', extrinsicsRoot: '0x', timestamp: n, extrinsics: [] });
  });
  process.stdout.write(n + '\\n');
}
`;

// SIGKILL keeps the OS page cache: this shows whole blocks, not that write() waits for the disk
// (tests/contract/durability/durable-ack.test.ts traces the fsync for that).
describe('SqliteStore when the process is killed', () => {
  it('keeps every acknowledged block, and whole blocks only, across SIGKILL at random moments', async () => {
    const { spawn } = await import('node:child_process');
    const dir = tempDir();
    const path = join(dir, 'crash.sqlite');
    const script = join(dir, 'writer.mts');
    writeFileSync(script, WRITER_SCRIPT);
    const rand = prng(42);
    let acknowledged = 0;
    for (let round = 0; round < 4; round++) {
      // node itself with tsx's loader (tsx's CLI would run the script in a grandchild SIGKILL misses).
      const child = spawn(process.execPath, ['--import', 'tsx', script, path], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
      let firstAck!: () => void;
      const started = new Promise<void>((resolve) => (firstAck = resolve));
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) if (line) acknowledged = Math.max(acknowledged, Number(line));
        firstAck();
      });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      await Promise.race([started, exited.then(() => Promise.reject(new Error('the writer exited before its first block')))]);
      await new Promise((resolve) => setTimeout(resolve, 20 + rand() * 200));
      child.kill('SIGKILL');
      await exited;

      const store = await open({ path }); // closed below, so the next writer has the file alone
      const head = (await store.read((tx) => tx.headBlock()))!.number;
      expect(head).toBeGreaterThanOrEqual(acknowledged);
      // Whole blocks: the account, the token and the block of the head all agree.
      const a = (await store.read((tx) => tx.get('accounts', 'A')))!;
      expect(a.nonce).toBe(head);
      expect(a.free).toBe(BigInt(head));
      expect(await store.read((tx) => tx.tokenIdsOfCollection(1))).toHaveLength(head);
      store.close();
    }
    expect(acknowledged).toBeGreaterThan(4);
  }, 60_000);
});

describe('SqliteStore on a full disk', () => {
  it('refuses a write with StorageFullError, stores nothing of it, keeps serving reads, and resumes when space is freed', async () => {
    const store = await open();
    await store.write(async (tx) => {
      tx.put('accounts', account(ALICE, 5n));
      tx.put('tokens', token(1, 1));
    });
    const before = await sortedDump(store);
    store.setSizeLimit(0); // no room beyond what the file holds now: the disk is "full"
    const big = (i: number) => ({ ...token(2, i, BOB), properties: [{ key: 'blob', value: 'x'.repeat(4000) }] });
    const failed = store.write(async (tx) => {
      tx.put('accounts', account(BOB, 1n));
      for (let i = 1; i <= 100; i++) tx.put('tokens', big(i));
    });
    await expect(failed).rejects.toBeInstanceOf(StorageFullError);
    await expect(failed).rejects.toMatchObject({ name: 'StorageFullError', message: expect.stringContaining(store.path) });
    await expect(
      store.files.putFile({ cid: 'bafkbig', bytes: new Uint8Array(200_000), type: 'application/octet-stream', name: 'big' })
    ).rejects.toBeInstanceOf(StorageFullError);
    // Nothing partial, and reads still answer.
    expect(await sortedDump(store)).toEqual(before);
    expect(await store.read((tx) => tx.get('accounts', ALICE))).toEqual(account(ALICE, 5n));
    expect(await store.files.hasFile('bafkbig')).toBe(false);

    store.setSizeLimit(undefined); // space freed
    await store.write(async (tx) => {
      for (let i = 1; i <= 100; i++) tx.put('tokens', big(i));
    });
    expect(await store.read((tx) => tx.tokenIdsOfCollection(2))).toHaveLength(100);
    await store.files.putFile({ cid: 'bafkbig', bytes: new Uint8Array(200_000), type: 'application/octet-stream', name: 'big' });
    expect(await store.files.hasFile('bafkbig')).toBe(true);
  });

  it('refuses an import that does not fit, keeping the ledger it had (replaceAll is all or nothing)', async () => {
    const store = await open();
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 5n)));
    const before = await sortedDump(store);
    store.setSizeLimit(0);
    const rows = { ...(await store.dump()), tokens: Array.from({ length: 200 }, (_, i) => ({ ...token(1, i + 1), properties: [{ key: 'p', value: 'y'.repeat(2000) }] })) };
    await expect(store.replaceAll(rows)).rejects.toBeInstanceOf(StorageFullError);
    expect(await sortedDump(store)).toEqual(before);
  });
});

describe('openSqliteStore on a file that is not an Opalite ledger', () => {
  const refusals: [string, (path: string) => void][] = [
    ['a JSON data file', (path) => writeFileSync(path, JSON.stringify({ format: 'opalite-ledger', tables: {} }))],
    ['garbage bytes', (path) => writeFileSync(path, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)))],
    [
      "another application's SQLite database",
      (path) => {
        const db = new Database(path);
        db.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)');
        db.close();
      }
    ],
    [
      'a ledger written by a newer Opalite',
      (path) => {
        const db = new Database(path);
        db.pragma('application_id = 1330659660'); // "OPAL"
        db.pragma('user_version = 99');
        db.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)');
        db.close();
      }
    ]
  ];

  it.each(refusals)('refuses %s with an error naming the file, leaving it as it was', async (_what, write) => {
    const path = join(tempDir(), 'data.file');
    write(path);
    const bytes = readFileSync(path);
    const error = await openSqliteStore({ path }).then(
      () => undefined,
      (e: Error) => e
    );
    expect(error?.name).toBe('LedgerFileError');
    expect(error?.message).toContain(path);
    expect(readFileSync(path)).toEqual(bytes);
  });

  it('refuses a directory, and a path in a missing directory, naming it', async () => {
    const dir = tempDir();
    await expect(openSqliteStore({ path: dir })).rejects.toThrow(dir);
    const missing = join(dir, 'no', 'such', 'ledger.sqlite');
    await expect(openSqliteStore({ path: missing })).rejects.toThrow(missing);
  });

  it('opens an empty file as a new ledger', async () => {
    const path = join(tempDir(), 'empty.sqlite');
    writeFileSync(path, '');
    const store = await open({ path });
    expect(await store.read((tx) => tx.headBlock())).toBeUndefined();
  });
});

describe('SqliteStore files (the built-in IPFS store)', () => {
  it('puts, gets, lists, counts and deletes files; bytes come back as a plain Uint8Array', async () => {
    const store = await open();
    const files = store.files;
    const _fits: FileStoreLike = files; // what the IPFS routes take
    expect(await files.getFile('bafkmissing')).toBeUndefined();
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const record = await files.putFile({ cid: 'bafka', bytes, type: 'image/png', name: 'a.png', createdAt: 10 });
    expect(record).toEqual({ cid: 'bafka', bytes, type: 'image/png', name: 'a.png', size: 5, createdAt: 10 });
    await files.putFile({ cid: 'bafkb', bytes: new Blob(['hello']), type: 'text/plain', name: 'b.txt', createdAt: 20 });
    await files.putFile({ cid: 'bafkc', bytes: new Uint8Array(0), type: '', name: 'empty', createdAt: 20 });

    const a = (await files.getFile('bafka'))!;
    expect(Object.getPrototypeOf(a.bytes)).toBe(Uint8Array.prototype);
    expect(a).toEqual({ cid: 'bafka', bytes, type: 'image/png', name: 'a.png', size: 5, createdAt: 10 });
    expect(new TextDecoder().decode((await files.getFile('bafkb'))!.bytes)).toBe('hello');
    expect(await files.hasFile('bafkb')).toBe(true);
    expect(await files.hasFile('bafkz')).toBe(false);
    expect((await files.listFiles(10)).map((f) => f.cid)).toEqual(['bafkc', 'bafkb', 'bafka']);
    expect(await files.listFiles(1)).toEqual([{ cid: 'bafkc', type: '', name: 'empty', size: 0, createdAt: 20 }]);
    expect(await files.listFiles(0)).toEqual([]);
    expect(await files.countFiles()).toBe(3);

    await files.deleteFile('bafkb');
    expect(await files.hasFile('bafkb')).toBe(false);
    expect(await files.countFiles()).toBe(2);
    // Files are not ledger state: not in dump(), untouched by replaceAll().
    await store.replaceAll(await store.dump());
    expect(JSON.stringify(Object.keys(await store.dump()))).not.toContain('files');
    expect(await files.countFiles()).toBe(2);
  });

  it('adds files in one transaction: the new ones, keeping those stored; on a full disk none', async () => {
    const store = await open();
    await store.files.putFile({ cid: 'bafkold', bytes: new Uint8Array([1]), type: 'image/png', name: 'kept.png', createdAt: 1 });
    await store.files.addFiles([
      { cid: 'bafkold', bytes: new Uint8Array([1]), type: 'text/plain', name: 'other.txt' },
      { cid: 'bafknew', bytes: new Uint8Array([2, 3]), type: 'image/png', name: 'new.png' }
    ]);
    expect(await store.files.getFile('bafkold')).toMatchObject({ type: 'image/png', name: 'kept.png', createdAt: 1 });
    expect(await store.files.getFile('bafknew')).toMatchObject({ bytes: new Uint8Array([2, 3]), size: 2, name: 'new.png' });

    store.setSizeLimit(0);
    const many = Array.from({ length: 20 }, (_, i) => ({ cid: `bafkfull${i}`, bytes: new Uint8Array(20_000), type: 'image/png', name: `${i}.png` }));
    await expect(store.files.addFiles(many)).rejects.toBeInstanceOf(StorageFullError);
    store.setSizeLimit(undefined);
    expect(await store.files.countFiles()).toBe(2);
  });
});

type Op = (tx: QueryTx) => Promise<void> | void;

/** A block of 1 to 12 random writes (and a read-modify-write) over a few tables. */
function randomBlock(rand: () => number, round: number): Op[] {
  return Array.from({ length: 1 + Math.floor(rand() * 12) }, (_, i): Op => {
    const id = 1 + Math.floor(rand() * 20);
    const r = rand();
    if (r < 0.4) return (tx) => tx.put('tokens', token(1, id, [ALICE, BOB, CHARLIE][id % 3]));
    if (r < 0.55) return (tx) => tx.delete('tokens', [1, id]);
    if (r < 0.7) return (tx) => tx.put('pool', pooled(`0x${id}`, ALICE, id));
    if (r < 0.8) return (tx) => tx.delete('pool', `0x${id}`);
    if (r < 0.9) return (tx) => tx.put('extrinsics', extrinsic(`0x${id}`, BOB, round * 100 + i));
    return async (tx) => {
      const a = (await tx.get('accounts', ALICE)) ?? account(ALICE, 0n);
      await tx.put('accounts', { ...a, free: a.free + 1n });
    };
  });
}

async function apply(tx: QueryTx, ops: Op[]): Promise<void> {
  for (const op of ops) await op(tx);
}

describe('SqliteStore blocks', () => {
  it('never overwrites a stored block: putting its number again fails and the write stores nothing', async () => {
    const store = await open();
    await store.write(async (tx) => tx.put('blocks', block(1)));
    // What a second host writing the same file would do: its own block 1.
    const write = store.write(async (tx) => {
      tx.put('accounts', account(ALICE, 5n));
      tx.put('blocks', { ...block(1), hash: '0xother' });
    });
    await expect(write).rejects.toThrow(/UNIQUE constraint failed: blocks\.number/);
    expect(await store.read((tx) => Promise.all([tx.get('blocks', 1), tx.get('accounts', ALICE)]))).toEqual([block(1), undefined]);
    // Deleted first (a revert), a number takes a new block.
    await store.write(async (tx) => {
      tx.delete('blocks', 1);
      tx.put('blocks', { ...block(1), hash: '0xother' });
    });
    expect((await store.read((tx) => tx.get('blocks', 1)))?.hash).toBe('0xother');
  });
});

describe('SqliteStore errors: only a full disk is StorageFullError', () => {
  const { SqliteError } = Database;
  const cases: [code: string, where: 'statement' | 'commit', name: string, status: number][] = [
    ['SQLITE_IOERR_WRITE', 'statement', 'StorageIoError', 500],
    ['SQLITE_IOERR_FSYNC', 'commit', 'StorageIoError', 500],
    ['SQLITE_IOERR', 'statement', 'StorageIoError', 500],
    ['SQLITE_CORRUPT', 'statement', 'StorageIoError', 500],
    ['SQLITE_FULL', 'statement', 'StorageFullError', 507],
    ['SQLITE_FULL', 'commit', 'StorageFullError', 507]
  ];

  it.each(cases)('answers %s (at a %s) as %s, HTTP %i, and stores nothing', async (code, where, name, status) => {
    let armed = false;
    const fail = () => {
      if (!armed) return;
      armed = false;
      throw new SqliteError(`injected ${code}`, code); // as better-sqlite3 throws SQLite's own errors
    };
    const store = await open({ faults: { beforeStatement: (_t, kind) => kind === 'put' && fail(), beforeCommit: () => where === 'commit' && fail() } });
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 1n)));
    armed = true;
    const error = (await store.write(async (tx) => tx.put('accounts', account(ALICE, 2n))).catch((e: unknown) => e)) as Error;
    expect(armed, 'the fault fired').toBe(false);
    expect(error.name).toBe(name);
    expect(error instanceof StorageFullError).toBe(name === 'StorageFullError');
    expect(error.message).toContain(store.path);
    expect((error as { cause?: { code?: string } }).cause?.code).toBe(code);

    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const response = errorResponseFor(error);
      expect(response.status).toBe(status);
      expect((await response.json()).error.name).toBe(name);
      // A failing disk is the operator's to see in the log; a full one is said to the client.
      expect(logged.mock.calls.length > 0).toBe(name === 'StorageIoError');
    } finally {
      logged.mockRestore();
    }
    expect(await store.read((tx) => tx.get('accounts', ALICE))).toEqual(account(ALICE, 1n));
    await store.write(async (tx) => tx.put('accounts', account(ALICE, 3n)));
  });
});
