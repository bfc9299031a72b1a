// Runs async sections one at a time per key (per signer), in arrival order; different keys overlap.
export class KeyedSerial<K> {
  private readonly tails = new Map<K, Promise<unknown>>();

  run<T>(key: K, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    const tail = next.catch(() => {});
    this.tails.set(key, tail);
    // Forget the key once nothing more is queued behind this section (keeps the map small).
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
