// `--data <path>`: the SQLite ledger database the Node host keeps, opened or created. A JSON
// ledger file of earlier versions (the `/dev/export` format) is imported once into
// `<path>.sqlite`, checked as `/dev/import` checks it, and left untouched itself.
import { closeSync, existsSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { LedgerHost } from '../src/lib/host/ledger-host';
import { openSqliteStore, type SqliteStore } from './storage/sqlite-store';

/** A ledger file the host will not start on; the message names the file and says what to do. */
export class LedgerStartError extends Error {
  override readonly name = 'LedgerStartError';
}

export interface OpenedLedger {
  store: SqliteStore;
  /** What the host did with the file, for the start-up log. */
  notes: string[];
}

const SQLITE_SUFFIXES = ['', '-wal', '-shm', '-journal'];

/** Does the file start like JSON (an object), rather than SQLite or anything else? */
function looksLikeJson(path: string): boolean {
  const head = Buffer.alloc(64);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new LedgerStartError(`Cannot open the ledger database ${path}: ${(e as Error).message}`);
  }
  let read: number;
  try {
    read = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const text = head.subarray(0, read).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  return text.startsWith('{');
}

function removeDatabase(path: string): void {
  for (const suffix of SQLITE_SUFFIXES) rmSync(path + suffix, { force: true });
}

/** Open the store for `--data`, or a fresh temporary one without it. */
export async function openLedgerFile(path: string | undefined, options: { network?: string } = {}): Promise<OpenedLedger> {
  if (path === undefined) return { store: await openSqliteStore(), notes: [] };
  const isFile = existsSync(path) && statSync(path).isFile();
  if (!isFile || !looksLikeJson(path)) return { store: await openSqliteStore({ path }), notes: [] };

  const target = `${path}.sqlite`;
  if (existsSync(target)) {
    return { store: await openSqliteStore({ path: target }), notes: [`${path} is a JSON ledger imported earlier into ${target}; using ${target} (start with --data ${target} from now on)`] };
  }
  const head = await importJsonLedger(path, target, options.network);
  return {
    store: await openSqliteStore({ path: target }),
    notes: [`Imported the JSON ledger ${path} (head block ${head}) into ${target}, left ${path} as it was; start with --data ${target} from now on`]
  };
}

/**
 * Import a JSON ledger into a new database at `target`: written beside it under another name and
 * renamed when complete, so a failed or interrupted import leaves no database behind.
 */
async function importJsonLedger(path: string, target: string, network: string | undefined): Promise<number> {
  const partial = `${target}.partial`;
  removeDatabase(partial);
  const store = await openSqliteStore({ path: partial });
  let head: number;
  try {
    // The checks of /dev/import (shape, every row, chain configuration, network), on a store of its own.
    const host = await LedgerHost.open({ kind: 'node', store, network });
    try {
      head = (await host.importSnapshot(readFileSync(path, 'utf8'))).head.number;
    } finally {
      host.close();
    }
  } catch (e) {
    store.close();
    removeDatabase(partial);
    if (e instanceof Error && e.name === 'SnapshotError') {
      throw new LedgerStartError(`Cannot import the JSON ledger ${path}: ${e.message}. The file was left as it was.`);
    }
    throw e;
  }
  store.close(); // the last connection: the log is folded into the file, so one file is renamed
  for (const suffix of SQLITE_SUFFIXES) if (existsSync(partial + suffix)) renameSync(partial + suffix, target + suffix);
  return head;
}
