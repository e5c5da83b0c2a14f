import { describe, expect, it } from 'vitest';
import { ByteLruCache } from '../../src/domain/cache/byte-lru-cache';

const clock = () => {
  const c = { now: 0, fn: () => c.now };
  return c;
};

describe('ByteLruCache', () => {
  it('keeps values within the byte cap, dropping the least recently used first', () => {
    const cache = new ByteLruCache<string>({ maxBytes: 300 });
    cache.set('a', 'A', 100);
    cache.set('b', 'B', 100);
    cache.set('c', 'C', 100);
    expect(cache.get('a')).toBe('A'); // a is now the most recently used
    cache.set('d', 'D', 100);
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((k) => cache.get(k))).toEqual(['A', 'C', 'D']);
    expect(cache.bytes).toBe(300);
    cache.set('e', 'E', 250);
    expect(cache.bytes).toBeLessThanOrEqual(300);
    expect(cache.get('e')).toBe('E');
  });

  it('never keeps a value larger than the cap, and replacing a key counts it once', () => {
    const cache = new ByteLruCache<string>({ maxBytes: 100 });
    cache.set('big', 'x', 101);
    expect(cache.get('big')).toBeUndefined();
    expect(cache.bytes).toBe(0);
    cache.set('k', 'one', 60);
    cache.set('k', 'two', 70);
    expect(cache.get('k')).toBe('two');
    expect(cache.bytes).toBe(70);
    cache.delete('k');
    expect(cache.bytes).toBe(0);
  });

  it('an expired entry is a miss, and expired entries are swept on insert', () => {
    const time = clock();
    const cache = new ByteLruCache<number>({ maxBytes: 1 << 30, ttlMs: 1000, now: time.fn });
    // Distinct keys over a long time: the count stays near what one ttl holds.
    for (let i = 0; i < 10_000; i++) {
      cache.set(`token-${i}`, i, 10);
      time.now += 10;
      expect(cache.size).toBeLessThanOrEqual(201);
    }
    expect(cache.get('token-9999')).toBe(9999);
    time.now += 1000;
    expect(cache.get('token-9999')).toBeUndefined();
    cache.set('fresh', 1, 10);
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(10);
  });
});
