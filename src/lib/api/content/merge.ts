// Key-ordered lists, as the chain's BTreeMaps hold properties and permissions.
import { compareKeys } from '../../ledger/properties';

export function sortByKey<T extends { key: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => compareKeys(a.key, b.key));
}

/** `base` with every entry of `overrides` replacing the one of the same key (later wins), sorted. */
export function mergeByKey<T extends { key: string }>(base: readonly T[], overrides: readonly T[]): T[] {
  const byKey = new Map<string, T>();
  for (const item of base) byKey.set(item.key, item);
  for (const item of overrides) byKey.set(item.key, item);
  return sortByKey([...byKey.values()]);
}
