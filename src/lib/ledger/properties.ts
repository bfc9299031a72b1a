// Property keys and the space properties take, exactly as the chain counts them.
import { MAX_PROPERTIES_PER_ITEM, MAX_PROPERTY_KEY_LENGTH, MAX_PROPERTY_VALUE_LENGTH } from './constants';
import { DispatchError } from './errors';
import type { Property } from './types';

const utf8 = new TextEncoder();

export function byteLength(text: string): number {
  return utf8.encode(text).length;
}

/** Length of a SCALE compact length prefix. */
function compactLength(n: number): number {
  return n < 64 ? 1 : n < 16_384 ? 2 : 4;
}

/** Space one stored pair consumes: compact(len key) + key + compact(len value) + value. */
export function propertyCost(key: string, value: string): number {
  const k = byteLength(key);
  const v = byteLength(value);
  return compactLength(k) + k + compactLength(v) + v;
}

export function propertiesSize(properties: readonly Property[]): number {
  return properties.reduce((sum, p) => sum + propertyCost(p.key, p.value), 0);
}

/**
 * A set or delete list (properties, keys, permissions) of more than 64 entries: decoded by the
 * chain (a plain Vec), included and failed with `common.PropertyLimitReached` (DECISIONS 5).
 */
export function checkEntryCount(count: number, what: string): void {
  if (count > MAX_PROPERTIES_PER_ITEM) {
    throw new DispatchError('common.PropertyLimitReached', `At most ${MAX_PROPERTIES_PER_ITEM} ${what} can be given in one call, got ${count}`);
  }
}

/** 1 to 256 bytes, every byte one of A-Z a-z 0-9 _ - . (the specification's regex is wrong). */
export function checkPropertyKey(key: string): void {
  if (key.length === 0) throw new DispatchError('common.EmptyPropertyKey');
  if (!/^[A-Za-z0-9_.-]+$/.test(key)) {
    throw new DispatchError('common.InvalidCharacterInPropertyKey', `Property key "${key}" has a character other than A-Z a-z 0-9 _ - .`);
  }
  if (key.length > MAX_PROPERTY_KEY_LENGTH) {
    throw new DispatchError('common.PropertyKeyIsTooLong', `Property key "${key.slice(0, 32)}…" is longer than ${MAX_PROPERTY_KEY_LENGTH} bytes`);
  }
}

export function isValidPropertyKey(key: string): boolean {
  return key.length > 0 && key.length <= MAX_PROPERTY_KEY_LENGTH && /^[A-Za-z0-9_.-]+$/.test(key);
}

export function checkPropertyValue(key: string, value: string): void {
  if (byteLength(value) > MAX_PROPERTY_VALUE_LENGTH) {
    throw new DispatchError('common.NoSpaceForProperty', `Value of property "${key}" is longer than ${MAX_PROPERTY_VALUE_LENGTH} bytes`);
  }
}

/** Compare keys by their bytes, as the chain's BTreeMap orders them (keys are ASCII). */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A copy of a sorted property list with `key` set to `value` (kept sorted). */
export function withProperty(list: readonly Property[], key: string, value: string): Property[] {
  const next = list.filter((p) => p.key !== key);
  next.push({ key, value });
  return next.sort((a, b) => compareKeys(a.key, b.key));
}

/** A copy of a property list without `key`. */
export function withoutProperty(list: readonly Property[], key: string): Property[] {
  return list.filter((p) => p.key !== key);
}

/**
 * Select properties by key: all (sorted) when `keys` is absent, otherwise in the order of the
 * requested keys, silently skipping missing ones (the chain's read rule).
 */
export function selectProperties<T extends { key: string }>(list: readonly T[], keys?: readonly string[]): T[] {
  if (!keys) return [...list];
  const byKey = new Map(list.map((p) => [p.key, p]));
  return keys.flatMap((k) => (byKey.has(k) ? [byKey.get(k)!] : []));
}
