// Another program holding an SQLite lock: a child process (plain Node and better-sqlite3, as a
// person's `sqlite3` session would) that runs statements on a file and keeps the lock they took
// until told to let go. Used to show what the store does while someone else holds a lock.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';

const BETTER_SQLITE3 = createRequire(import.meta.url).resolve('better-sqlite3');

const SCRIPT = `
const Database = require(${JSON.stringify(BETTER_SQLITE3)});
const [path, statements] = [process.argv[1], JSON.parse(process.argv[2])];
const db = new Database(path, { timeout: 0 });
try {
  for (const sql of statements) db.exec(sql);
} catch (e) {
  process.stdout.write('failed ' + e.code + '\\n');
  process.exit(3);
}
process.stdout.write('held\\n');
process.stdin.setEncoding('utf8');
process.stdin.on('data', () => {
  if (db.inTransaction) db.exec('ROLLBACK');
  db.close();
  process.stdout.write('released\\n');
});
process.stdin.on('end', () => process.exit(0));
`;

export interface LockHolder {
  pid: number;
  /** Roll back and close: the lock is gone when this resolves (the process stays until stop()). */
  release(): Promise<void>;
  /** End the process (its locks go with it). */
  stop(): Promise<void>;
}

function waitForLine(child: ChildProcess, line: string, output: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (output().includes(`${line}\n`)) {
        child.stdout!.off('data', check);
        child.off('exit', exited);
        resolve();
      }
    };
    const exited = (code: number | null) => reject(new Error(`the lock holder exited (code ${code}) before "${line}": ${output()}`));
    child.stdout!.on('data', check);
    child.once('exit', exited);
    check();
  });
}

/** Start a process that runs `statements` on `path` (e.g. `BEGIN IMMEDIATE`) and holds what they locked. */
export async function holdSqliteLock(path: string, statements: string[]): Promise<LockHolder> {
  const child = spawn(process.execPath, ['-e', SCRIPT, path, JSON.stringify(statements)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForLine(child, 'held', () => output);
  return {
    pid: child.pid!,
    async release() {
      const released = waitForLine(child, 'released', () => output);
      child.stdin!.write('release\n');
      await released;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin!.end();
        child.kill('SIGKILL');
      }
      await exited;
    }
  };
}
