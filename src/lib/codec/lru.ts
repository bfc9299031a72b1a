// A small bounded memo for pure, deterministic functions (SS58 codec, dev key derivation).

/**
 * A `Map` bounded to `max` entries: a hit moves the entry to the back, and an insert beyond `max`
 * drops the entry at the front (the least recently used). Values are stored as given, so callers
 * that hand them out must store immutable values or copy them.
 */
export class LruCache<K, V> {
  readonly max: number;
  readonly #map = new Map<K, V>();

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`LruCache size must be a positive integer, got ${String(max)}`);
    this.max = max;
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value !== undefined) {
      // Re-insert to mark it most recently used (a Map iterates in insertion order).
      this.#map.delete(key);
      this.#map.set(key, value);
    }
    return value;
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.max) this.#map.delete(this.#map.keys().next().value as K);
  }

  clear(): void {
    this.#map.clear();
  }
}
