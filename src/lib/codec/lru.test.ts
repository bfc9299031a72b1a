import { describe, expect, it } from 'vitest';
import { LruCache } from './lru';

describe('LruCache', () => {
  it('returns what was set, and undefined for what was not', () => {
    const cache = new LruCache<string, number>(8);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('b')).toBe(2);
    expect(cache.get('c')).toBeUndefined();
    cache.set('a', 3);
    expect(cache.get('a')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('never holds more than max entries', () => {
    const cache = new LruCache<number, number>(64);
    for (let i = 0; i < 10_000; i++) {
      cache.set(i, i);
      expect(cache.size).toBeLessThanOrEqual(64);
    }
    // The most recent inserts are still there.
    expect(cache.get(9_999)).toBe(9_999);
    expect(cache.get(0)).toBeUndefined();
  });

  it('keeps an entry that keeps being used while others come and go', () => {
    const cache = new LruCache<string, number>(16);
    cache.set('hot', 1);
    for (let i = 0; i < 1_000; i++) {
      cache.set(`cold${i}`, i);
      expect(cache.get('hot')).toBe(1);
    }
    expect(cache.size).toBeLessThanOrEqual(16);
  });

  it('updates a value wherever the entry lives', () => {
    const cache = new LruCache<string, number>(4);
    cache.set('a', 1);
    cache.set('b', 2); // 'a' and 'b' now form the old generation
    cache.set('a', 10);
    expect(cache.get('a')).toBe(10);
    expect(cache.get('b')).toBe(2);
    expect(cache.size).toBeLessThanOrEqual(4);
  });

  it('clears', () => {
    const cache = new LruCache<string, number>(4);
    cache.set('a', 1);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get('a')).toBeUndefined();
  });

  it('rejects a size below 2', () => {
    expect(() => new LruCache(1)).toThrow(RangeError);
    expect(() => new LruCache(2.5)).toThrow(RangeError);
  });
});
