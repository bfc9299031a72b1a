// The record of a publish run, kept in the browser's storage so that a run stopped by a failure
// (network down, a refused call, a closed tab) can resume: keyed by the source collection, the
// target base_url and the signer; bounded (the newest few runs are kept). A finished run is
// remembered per target and source collection, with the map of its token ids, so Publish offers
// the published collection instead of planning a second one.
import type { TokenPair } from './token-map';

export interface RunRecord {
  version: 1;
  sourceBaseUrl: string;
  sourceCollectionId: number;
  targetBaseUrl: string;
  signer: string;
  targetCollectionId: number | null;
  /** Source CID → the target's CID and file URL. */
  files: Record<string, { cid: string; fileUrl: string }>;
  /** Keys of the steps done (or found on the target). */
  done: string[];
  /** Fees paid, by step key. */
  fees: Record<string, string>;
  /** The step sent and not yet answered (its outcome is unknown after a crash). */
  inFlight: string | null;
  failure: { step: string; title: string; message: string } | null;
  startedAt: number;
  finishedAt: number | null;
  /** Source token id → target token id, as the plan mints them (absent in records of older versions). */
  tokenMap?: TokenPair[];
}

/** Runs kept: the newest ones (older records are dropped). */
export const MAX_RECORDS = 20;
const STORAGE_KEY = 'opalite.publish-runs';

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

export function newRecord(fields: Pick<RunRecord, 'sourceBaseUrl' | 'sourceCollectionId' | 'targetBaseUrl' | 'signer'>, now = Date.now()): RunRecord {
  return { version: 1, ...fields, targetCollectionId: null, files: {}, done: [], fees: {}, inFlight: null, failure: null, startedAt: now, finishedAt: null };
}

function isRecord(value: unknown): value is RunRecord {
  const r = value as RunRecord;
  return (
    !!r &&
    r.version === 1 &&
    typeof r.sourceBaseUrl === 'string' &&
    typeof r.targetBaseUrl === 'string' &&
    typeof r.signer === 'string' &&
    Number.isInteger(r.sourceCollectionId) &&
    (r.targetCollectionId === null || Number.isInteger(r.targetCollectionId)) &&
    Array.isArray(r.done) &&
    typeof r.files === 'object' &&
    typeof r.fees === 'object' &&
    (r.tokenMap === undefined || Array.isArray(r.tokenMap))
  );
}

export function readRecords(storage: StorageLike): RunRecord[] {
  try {
    const parsed = JSON.parse(storage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isRecord) : [];
  } catch {
    return [];
  }
}

const sameRun = (a: RunRecord, b: Pick<RunRecord, 'sourceBaseUrl' | 'sourceCollectionId' | 'targetBaseUrl' | 'signer'>) =>
  a.sourceBaseUrl === b.sourceBaseUrl && a.sourceCollectionId === b.sourceCollectionId && a.targetBaseUrl === b.targetBaseUrl && a.signer === b.signer;

/** The unfinished run of this source, target and signer, if any. */
export function unfinishedRecord(storage: StorageLike, key: Pick<RunRecord, 'sourceBaseUrl' | 'sourceCollectionId' | 'targetBaseUrl' | 'signer'>): RunRecord | null {
  return readRecords(storage).find((r) => sameRun(r, key) && r.finishedAt === null) ?? null;
}

/** The newest finished run of this source collection on each target, newest first. */
export function finishedRecords(storage: StorageLike, key: Pick<RunRecord, 'sourceBaseUrl' | 'sourceCollectionId'>): RunRecord[] {
  const seen = new Set<string>();
  return readRecords(storage)
    .filter((r) => r.sourceBaseUrl === key.sourceBaseUrl && r.sourceCollectionId === key.sourceCollectionId && r.finishedAt !== null && r.targetCollectionId !== null)
    .sort((a, b) => (b.finishedAt ?? 0) - (a.finishedAt ?? 0))
    .filter((r) => !seen.has(r.targetBaseUrl) && !!seen.add(r.targetBaseUrl));
}

/** Keeps `record` (replacing the one of the same run and start), the newest MAX_RECORDS in all. */
export function saveRecord(storage: StorageLike, record: RunRecord): void {
  const others = readRecords(storage).filter((r) => !(sameRun(r, record) && r.startedAt === record.startedAt));
  const all = [record, ...others].sort((a, b) => b.startedAt - a.startedAt).slice(0, MAX_RECORDS);
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(all));
  } catch {
    // Storage full or refused: the run goes on; resume then relies on the target's state alone.
  }
}
