// localStorage's interface over a Map, for the consent tests: `writes` counts what was stored,
// and `refuse` makes every write throw, as a full or disabled storage does.
export function memoryStorage(refuse = false): Storage & { writes: number } {
  const map = new Map<string, string>();
  return {
    writes: 0,
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem(key, value) {
      if (refuse) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      this.writes++;
      map.set(key, String(value));
    }
  };
}
