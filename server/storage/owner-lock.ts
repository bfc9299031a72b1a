// One host per ledger file. SQLite's own locks keep the file whole, but a host keeps head, nonces
// and the waiting pool in memory, which a second host writing the same file would make stale.
import { openSync, readFileSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import { LedgerFileError } from './sqlite-errors';

/** Held by this process: `path` → release. Two stores of one process on one file are refused too. */
const heldHere = new Set<string>();

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(lockPath: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Claim `path` for this process through `<path>.lock` (holding its pid), or throw LedgerFileError
 * naming the process that has it. A lock left by a process that no longer runs (a crash) is taken
 * over. Returns the release function.
 */
export function claimLedgerFile(path: string): () => void {
  const lockPath = `${path}.lock`;
  if (heldHere.has(path)) throw new LedgerFileError(path, 'it is already open in this process');
  try {
    const fd = openSync(lockPath, 'wx');
    writeFileSync(fd, String(process.pid));
    closeSync(fd);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new LedgerFileError(path, `its lock file ${lockPath} cannot be written`, { cause: e });
    const holder = holderOf(lockPath);
    if (holder !== null && holder !== process.pid && isRunning(holder)) {
      throw new LedgerFileError(path, `it is in use by another Opalite host (process ${holder}); stop that one first`);
    }
    writeFileSync(lockPath, String(process.pid)); // stale: its holder is gone
  }
  heldHere.add(path);
  return () => {
    heldHere.delete(path);
    if (holderOf(lockPath) === process.pid) rmSync(lockPath, { force: true });
  };
}
