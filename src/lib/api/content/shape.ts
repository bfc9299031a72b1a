// Small shape checks shared by the content modules.

export type Json = Record<string, unknown>;

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON clients send `null` for "not given"; treat it like an absent field. */
export function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** A canonical non-negative integer key ("0", "12"), the only form that survives 2-level flattening. */
export function isIndexKey(key: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(key);
}

/**
 * True iff the library's semver parse of `version` is 1.0.0 (it accepts "1", "1.0", "1.0.0-rc"...);
 * mirrored here so a wrong version gets a clear message instead of the library's.
 */
export function isVersion100(version: unknown): boolean {
  if (typeof version !== 'string') return false;
  const parts = version.split('+')[0].split('-')[0].split('.');
  const [major, minor, patch] = [0, 1, 2].map((i) => parseInt(parts[i] ?? '', 10));
  return major === 1 && (Number.isNaN(minor) ? 0 : minor) === 0 && (Number.isNaN(patch) ? 0 : patch) === 0;
}

/** A deep copy of plain JSON data (much cheaper than structuredClone for small objects). */
export function copyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyJson) as T;
  if (typeof value !== 'object' || value === null) return value;
  const copy: Json = {};
  for (const [key, inner] of Object.entries(value)) copy[key] = copyJson(inner);
  return copy as T;
}

/** Freezes an object graph, so shared cached data cannot be changed by a reader. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
