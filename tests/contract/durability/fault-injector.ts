// Write failures on demand at the SQLite store's boundary (its `faults` seam): armed, the next
// write transaction fails at a chosen statement, or just before COMMIT, with a chosen error.
import type { StatementKind, StoreFaults } from '../../../server/storage/sqlite-store';
import type { TableName } from '../../../src/lib/ledger/store';
import type { Random } from './random';

/** Errors as better-sqlite3 raises them (a `code`), plus one that is not SQLite's at all. */
const FAILURES: { code?: string; message: string }[] = [
  { code: 'SQLITE_IOERR', message: 'disk I/O error (injected)' },
  { code: 'SQLITE_FULL', message: 'database or disk is full (injected)' },
  { code: 'SQLITE_BUSY', message: 'database is locked (injected)' },
  { message: 'an unexpected failure in the store (injected)' }
];

export interface Fired {
  where: string;
  code: string | undefined;
}

export class FaultInjector {
  /** Failures thrown so far. */
  injected = 0;
  private countdown = 0;
  private atCommit = false;
  private failure = FAILURES[0];
  private fired: Fired | null = null;
  /** Statements of write transactions since `arm` (how long a write is, to aim the next one). */
  statements = 0;

  constructor(private readonly random: Random) {}

  readonly faults: StoreFaults = {
    beforeStatement: (table: TableName, kind: StatementKind) => {
      this.statements++;
      if (this.countdown > 0 && --this.countdown === 0) this.fire(`before a ${kind} on ${table}`);
    },
    beforeCommit: () => {
      if (this.atCommit) this.fire('before COMMIT');
    }
  };

  /** Fail the write in progress or the next one: at its n-th statement (1…maxStatement) or before COMMIT. */
  arm(maxStatement: number): void {
    this.fired = null;
    this.statements = 0;
    this.failure = this.random.pick(FAILURES);
    this.atCommit = this.random.next() < 0.15;
    this.countdown = this.atCommit ? 0 : this.random.int(1, maxStatement);
  }

  /** Stop failing; what fired since `arm`, if anything. */
  disarm(): Fired | null {
    this.countdown = 0;
    this.atCommit = false;
    const fired = this.fired;
    this.fired = null;
    return fired;
  }

  private fire(where: string): never {
    this.countdown = 0;
    this.atCommit = false;
    this.injected++;
    this.fired = { where, code: this.failure.code };
    throw Object.assign(new Error(`${this.failure.message} ${where}`), this.failure.code ? { code: this.failure.code } : {});
  }
}
