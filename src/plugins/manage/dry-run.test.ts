import { describe, expect, it } from 'vitest';
import {
  createSampleCache,
  DRY_RUN_CACHE_MAX_BYTES,
  DRY_RUN_CACHE_MS,
  MAX_CACHED_SAMPLE_BYTES,
  sampleBytes,
} from './dry-run';

// The dry run's samples are kept in the shared byte-bounded cache: a minute each, and never
// more than DRY_RUN_CACHE_MAX_BYTES however many forms' settings pages are opened.
describe('the dry run sample cache', () => {
  const sample = (text: string) => ({
    payloads: [{ message: text }],
    skipped: 0,
    names: ['message'],
  });

  it('keeps a sample for a minute', () => {
    let now = 0;
    const cache = createSampleCache(() => now);
    const read = sample('hi');
    cache.set('a', read, sampleBytes(read));
    now = DRY_RUN_CACHE_MS - 1;
    expect(cache.get('a')).toBe(read);
    now = DRY_RUN_CACHE_MS;
    expect(cache.get('a')).toBeUndefined();
  });

  it('holds at most its byte budget, however many forms are sampled', () => {
    const cache = createSampleCache();
    const big = sample('x'.repeat(MAX_CACHED_SAMPLE_BYTES - 100));
    const bytes = sampleBytes(big);
    expect(bytes).toBeLessThanOrEqual(MAX_CACHED_SAMPLE_BYTES);
    for (let form = 0; form < 200; form += 1) cache.set(`form-${form}`, big, bytes);
    expect(cache.bytes).toBeLessThanOrEqual(DRY_RUN_CACHE_MAX_BYTES);
    expect(cache.size).toBe(Math.floor(DRY_RUN_CACHE_MAX_BYTES / bytes));
    expect(cache.get('form-199')).toBe(big);
    expect(cache.get('form-0')).toBeUndefined();
  });

  it('counts bytes, not characters', () => {
    expect(sampleBytes(sample('é'))).toBe(sampleBytes(sample('e')) + 1);
  });
});
