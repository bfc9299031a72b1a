// Waiting for another program's lock off the event loop. better-sqlite3 is synchronous, so
// SQLite's own busy_timeout would sleep the whole process (every request, reads included) while
// it waits. Connections therefore run with busy_timeout 0, and a statement refused as busy is
// tried again after a growing pause (a timer, so the event loop keeps turning), up to a deadline.
import { setTimeout as sleep } from 'node:timers/promises';
import { isBusy } from './sqlite-errors';

/** How long a read or write waits for another program's lock before StoreBusyError (default). */
export const BUSY_DEADLINE_MS = 5_000;
const FIRST_PAUSE_MS = 1;
/** The longest pause between tries: a released lock is noticed within this long. */
const LONGEST_PAUSE_MS = 50;

/**
 * `attempt()` now, or, when it is refused as busy, a promise of it tried again after growing
 * pauses until `deadlineMs` has passed (then its last error, which the caller maps to
 * StoreBusyError). Other errors are thrown at once. Not a promise when the first try succeeds, so
 * the usual case costs no turn of the event loop.
 */
export function tryWhileBusy<T>(attempt: () => T, deadlineMs: number): T | Promise<T> {
  try {
    return attempt();
  } catch (error) {
    if (!isBusy(error)) throw error;
    return retryWhileBusy(attempt, deadlineMs);
  }
}

/** `attempt()`, tried again while it throws a busy error, until `deadlineMs` has passed (see above). */
export async function retryWhileBusy<T>(attempt: () => T, deadlineMs: number): Promise<T> {
  const deadline = performance.now() + deadlineMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return attempt();
    } catch (error) {
      const left = deadline - performance.now();
      if (!isBusy(error) || left <= 0) throw error;
      await sleep(Math.min(pause, left));
    }
  }
}
