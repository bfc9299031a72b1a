// What this app submitted, per REST service, kept in localStorage: the hash with the decoded
// call, signer and time (the service's status is read live by the extrinsics page). The
// service's own list (`/extrinsic/list`, an Opalite extension) has statuses but not the call's
// arguments; this log has the arguments of what was signed here.
import type { DecodedCall } from '../client/types';

export interface LogEntry {
  hash: string;
  baseUrl: string;
  title: string;
  section: string;
  method: string;
  args: unknown;
  signer: string;
  at: number;
  /** For example: signed with the public development key //Alice. */
  note?: string;
}

const KEY = 'opalite:txlog:v1';
const MAX_ENTRIES = 300;
const MAX_ARGS_CHARS = 20_000;

function load(): LogEntry[] {
  if (typeof localStorage === 'undefined') return [];
  try {
    const list = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((e) => e && typeof e.hash === 'string' && typeof e.baseUrl === 'string') : [];
  } catch {
    return [];
  }
}

/** Large arguments (a batch of 120 tokens) are kept as a note of their size, not in full. */
function storedArgs(args: unknown): unknown {
  const text = JSON.stringify(args) ?? 'null';
  return text.length <= MAX_ARGS_CHARS ? args : { note: `arguments of ${text.length} characters, not kept in the log` };
}

class TxLog {
  entries = $state<LogEntry[]>(load());

  add(baseUrl: string, hash: string, title: string, decoded: DecodedCall, note?: string): void {
    const entry: LogEntry = {
      hash,
      baseUrl,
      title,
      section: decoded.section,
      method: decoded.method,
      args: storedArgs(decoded.args),
      signer: decoded.signer,
      at: Date.now(),
      ...(note ? { note } : {})
    };
    this.entries = [entry, ...this.entries.filter((e) => !(e.hash === hash && e.baseUrl === baseUrl))].slice(0, MAX_ENTRIES);
    this.#save();
  }

  of(baseUrl: string): LogEntry[] {
    return this.entries.filter((e) => e.baseUrl === baseUrl);
  }

  /** Forget the entries of one service (its ledger was reset or replaced). */
  clear(baseUrl: string): void {
    this.entries = this.entries.filter((e) => e.baseUrl !== baseUrl);
    this.#save();
  }

  #save(): void {
    try {
      localStorage.setItem(KEY, JSON.stringify(this.entries));
    } catch {
      // Full storage: the log holds for this visit.
    }
  }
}

export const txlog = new TxLog();
