// One host per ledger file. SQLite's own locks keep the file whole, but a host keeps head, nonces
// and the waiting pool in memory, which a second host writing the same file would make stale.
//
// The claim is an operating-system lock, not the content of a file: `<path>.lock` is a small
// SQLite database that the owner holds an exclusive lock on (POSIX fcntl, through SQLite's
// `locking_mode=EXCLUSIVE`) for as long as it runs. The kernel grants that lock to exactly one
// process and drops it when the process ends, however it ends; so there is no stale lock to take
// over, an empty lock file (its creator about to lock it) is decided by the lock too, and of hosts
// starting together exactly one wins. The owner's pid, kept in the file's header (user_version),
// only names it in the refusal.
//
// The owner deletes the file when it stops, while it still holds the lock. A contender that had
// opened the file just before may then lock the deleted file; so a claim holds only if the path
// still names the file it locked (same inode), and tries again if not. Only a holder deletes the
// file, so the path cannot change under one.
//
// POSIX drops all of a process's locks on a file when it closes any descriptor of that file: the
// holder never opens the file apart from SQLite, except one descriptor of its own, opened before
// SQLite's and closed after it.
import { closeSync, fstatSync, ftruncateSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { LedgerFileError } from './sqlite-errors';

/** Paths held by stores of this process: a second store on one file is refused too. */
const heldHere = new Set<string>();

const SQLITE_HEADER = 'SQLite format 3\u0000';
/** Offset of `PRAGMA user_version` (the owner's pid) in an SQLite file's header (4 bytes, big-endian). */
const USER_VERSION_OFFSET = 60;
/** Claims in a row that may find the path replaced (by owners stopping) before giving up. */
const CLAIM_TRIES = 20;
/**
 * Claims that find the lock busy before it counts as held, a jittered pause apart (ms): two hosts
 * claiming at the same moment can each meet the other's shared lock, which the other lets go of
 * at once (SQLite tells it to yield); asked only once, both lost and neither served.
 */
const BUSY_TRIES = 8;
const BUSY_PAUSE_MS = 25;

/** A claim is synchronous (it runs while a store opens): a short pause blocks, as the claim itself does. */
function pauseSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What the lock file holds, read as bytes (its owner's SQLite lock keeps SQLite itself out). */
type LockContent = { kind: 'sqlite'; pid: number | null } | { kind: 'older'; pid: number } | { kind: 'other' };

function contentOf(lockPath: string): LockContent {
  let fd: number;
  try {
    fd = openSync(lockPath, 'r');
  } catch {
    return { kind: 'sqlite', pid: null }; // not there yet: SQLite creates it
  }
  try {
    const head = Buffer.alloc(100);
    const read = readSync(fd, head, 0, head.length, 0);
    if (read === 0) return { kind: 'sqlite', pid: null }; // empty: a new database, no owner named yet
    if (read === head.length && head.toString('latin1', 0, SQLITE_HEADER.length) === SQLITE_HEADER) {
      const pid = head.readInt32BE(USER_VERSION_OFFSET);
      return { kind: 'sqlite', pid: pid > 0 ? pid : null };
    }
    // Opalite before the OS lock wrote its pid as text into `<path>.lock`.
    const text = head.toString('utf8', 0, read).trim();
    return /^\d{1,10}$/.test(text) ? { kind: 'older', pid: Number(text) } : { kind: 'other' };
  } finally {
    closeSync(fd);
  }
}

/** Empty the lock file in place (same file, so whoever holds its lock keeps it). */
function emptyInPlace(lockPath: string): void {
  const fd = openSync(lockPath, 'r+');
  try {
    ftruncateSync(fd, 0);
  } finally {
    closeSync(fd);
  }
}

const isBusy = (e: unknown) => /^SQLITE_(BUSY|LOCKED)/.test(String((e as { code?: unknown })?.code));
const isNotADatabase = (e: unknown) => /^SQLITE_(NOTADB|CORRUPT)/.test(String((e as { code?: unknown })?.code));

function inUse(path: string, lockPath: string): LedgerFileError {
  const content = contentOf(lockPath);
  const pid = content.kind !== 'other' ? content.pid : null;
  const who = pid !== null && pid !== process.pid && isRunning(pid) ? `another Opalite host (process ${pid})` : 'another Opalite host (it is still starting, or its process id is not recorded)';
  return new LedgerFileError(path, `it is in use by ${who}, which holds the lock on ${lockPath}; stop that host first, or give this one another --data file`);
}

/** The lock held: SQLite's connection (the lock) and our descriptor of the same file. */
interface Held {
  db: Database.Database;
  fd: number;
}

/**
 * Take the OS lock on the file at `lockPath` and record our pid in it: null when another process
 * holds it, 'replaced' when the file locked is no longer the one at the path (its owner deleted it).
 */
function lockOnce(lockPath: string): Held | null | 'replaced' {
  const fd = openSync(lockPath, 'a'); // before SQLite's, so it is the file SQLite opens unless the path changes
  let db: Database.Database | undefined;
  try {
    // timeout 0: a held lock is an answer (another host runs), not something to wait for.
    db = new Database(lockPath, { timeout: 0 });
    db.pragma('journal_mode = MEMORY'); // no -journal file beside it; its content is only a name
    db.pragma('synchronous = OFF'); // nor a disk sync: the lock is the kernel's
    db.pragma('locking_mode = EXCLUSIVE'); // the first write's exclusive lock is kept until close
    db.exec('BEGIN EXCLUSIVE');
    db.pragma(`user_version = ${process.pid}`);
    db.exec('COMMIT');
  } catch (e) {
    db?.close();
    closeSync(fd);
    if (isBusy(e)) return null;
    throw e;
  }
  const locked = fstatSync(fd);
  const named = statSync(lockPath, { throwIfNoEntry: false });
  if (named && named.ino === locked.ino && named.dev === locked.dev) return { db, fd };
  db.close();
  closeSync(fd);
  return 'replaced';
}

function lock(lockPath: string): Held | null {
  let replaced = 0;
  let busy = 0;
  for (;;) {
    const held = lockOnce(lockPath);
    if (held === 'replaced') {
      if (++replaced >= CLAIM_TRIES) throw new Error('the lock file keeps being replaced while it is claimed');
    } else if (held !== null || ++busy >= BUSY_TRIES) {
      return held;
    } else {
      pauseSync(BUSY_PAUSE_MS * (1 + Math.random()));
    }
  }
}

/**
 * Claim `path` for this process through the OS lock on `<path>.lock`, or throw LedgerFileError
 * naming the host that has it and what to do. Returns the release function.
 */
export function claimLedgerFile(path: string): () => void {
  const lockPath = `${path}.lock`;
  if (heldHere.has(path)) throw new LedgerFileError(path, 'it is already open in this process');
  const content = contentOf(lockPath);
  if (content.kind === 'older' && content.pid !== process.pid && isRunning(content.pid)) {
    throw new LedgerFileError(path, `it is in use by an older Opalite host (process ${content.pid}, its lock file ${lockPath}); stop that host first`);
  }
  let held: Held | null;
  try {
    // A lock file of an older Opalite whose host is gone, or one left damaged, holds nothing
    // worth keeping: emptied in place, it becomes a new lock database.
    if (content.kind !== 'sqlite') emptyInPlace(lockPath);
    try {
      held = lock(lockPath);
    } catch (e) {
      if (!isNotADatabase(e)) throw e;
      emptyInPlace(lockPath);
      held = lock(lockPath);
    }
  } catch (e) {
    throw new LedgerFileError(path, `its lock file ${lockPath} cannot be used (${(e as Error).message})`, { cause: e });
  }
  if (!held) throw inUse(path, lockPath);
  heldHere.add(path);
  const { db, fd } = held;
  return () => {
    if (!db.open) return;
    heldHere.delete(path);
    try {
      rmSync(lockPath, { force: true }); // while still held (see the top of this file)
    } catch {
      // Left behind, it claims nothing: the lock is the kernel's and goes with the connection.
    }
    db.close();
    closeSync(fd); // after SQLite's: closing it first would drop the lock
  };
}
