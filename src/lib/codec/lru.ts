// A small bounded memo for pure, deterministic functions (SS58 codec, dev key derivation).

/**
 * A map of at most `max` entries that forgets the least recently used ones, approximately: entries
 * live in a young and an old generation of up to `max / 2` each. A hit in the young generation is
 * one `Map.get` (no reordering, unlike a strict LRU's delete + set); a hit in the old one moves the
 * entry to the young one; when the young generation is full it becomes the old one and the previous
 * old one is dropped whole. So an entry used at least once per `max / 2` inserts is never evicted.
 *
 * Values are stored as given: a cache that hands them out must hold immutable values or copy them.
 */
export class LruCache<K, V> {
  readonly max: number;
  readonly #generation: number;
  #young = new Map<K, V>();
  #old = new Map<K, V>();

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 2) throw new RangeError(`LruCache size must be an integer of at least 2, got ${String(max)}`);
    this.max = max;
    this.#generation = Math.floor(max / 2);
  }

  /** Entries held, never more than `max`. */
  get size(): number {
    return this.#young.size + this.#old.size;
  }

  get(key: K): V | undefined {
    const value = this.#young.get(key);
    if (value !== undefined) return value;
    const old = this.#old.get(key);
    if (old !== undefined) {
      this.#old.delete(key);
      this.#insert(key, old);
    }
    return old;
  }

  set(key: K, value: V): void {
    this.#old.delete(key);
    if (this.#young.has(key)) this.#young.set(key, value);
    else this.#insert(key, value);
  }

  clear(): void {
    this.#young.clear();
    this.#old.clear();
  }

  #insert(key: K, value: V): void {
    this.#young.set(key, value);
    if (this.#young.size >= this.#generation) {
      this.#old = this.#young;
      this.#young = new Map();
    }
  }
}
