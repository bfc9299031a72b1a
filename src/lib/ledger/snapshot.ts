// The whole ledger as one JSON file (export/import, the Node host's data file). Bigints are
// tagged so they survive JSON; a file is checked before anything is replaced.
import type { Rows, TableName } from './store';
import { TABLES } from './store';

export const SNAPSHOT_FORMAT = 'opalite-ledger';
export const SNAPSHOT_VERSION = 1;

export type Dump = { [N in TableName]: Rows[N][] };

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  exportedAt: number;
  tables: Dump;
}

export class SnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotError';
  }
}

export function serializeSnapshot(tables: Dump, exportedAt: number): string {
  const snapshot: Snapshot = { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, exportedAt, tables };
  return JSON.stringify(snapshot, (_k, v) => (typeof v === 'bigint' ? { $bigint: v.toString() } : v));
}

/** Parse and check a snapshot file; throws SnapshotError saying what is wrong. */
export function parseSnapshot(text: string): Snapshot {
  let value: unknown;
  try {
    value = JSON.parse(text, (_k, v) => (v && typeof v === 'object' && typeof v.$bigint === 'string' && /^-?\d+$/.test(v.$bigint) ? BigInt(v.$bigint) : v));
  } catch {
    throw new SnapshotError('This file is not JSON, so it is not an Opalite ledger export');
  }
  const s = value as Partial<Snapshot> | null;
  if (!s || typeof s !== 'object' || s.format !== SNAPSHOT_FORMAT) throw new SnapshotError('This file is not an Opalite ledger export (its "format" is not "opalite-ledger")');
  if (s.version !== SNAPSHOT_VERSION) throw new SnapshotError(`This ledger export has version ${String(s.version)}; this Opalite reads version ${SNAPSHOT_VERSION}`);
  if (!s.tables || typeof s.tables !== 'object') throw new SnapshotError('This ledger export has no tables');
  // Exports made before the pool was kept in the store have no pool: nothing was waiting.
  if ((s.tables as Record<string, unknown>).pool === undefined) (s.tables as Record<string, unknown>).pool = [];
  for (const table of TABLES) {
    const rows = (s.tables as Record<string, unknown>)[table];
    if (!Array.isArray(rows)) throw new SnapshotError(`This ledger export lacks the "${table}" table`);
    if (rows.some((r) => !r || typeof r !== 'object')) throw new SnapshotError(`The "${table}" table of this ledger export has a row that is not an object`);
  }
  const config = s.tables.meta.find((r) => r.key === 'chainConfig');
  if (!config || typeof config.value !== 'object') throw new SnapshotError('This ledger export has no chain configuration (meta "chainConfig")');
  return s as Snapshot;
}
