import { describe, expect, it } from 'vitest';
import { formatBytes, parseByteSize } from '../../src/config/byte-size';

describe('parseByteSize', () => {
  it.each([
    ['1024', 1024],
    ['512B', 512],
    ['10KiB', 10 * 1024],
    ['10kb', 10 * 1024],
    ['1.5 MiB', 1.5 * 1024 * 1024],
    ['2GiB', 2 * 1024 ** 3],
    ['1T', 1024 ** 4],
  ])('%s → %d bytes', (text, bytes) => {
    expect(parseByteSize(text)).toBe(bytes);
  });

  it.each(['', 'lots', '-1MiB', '1 PB'])('refuses %j', (text) => {
    expect(() => parseByteSize(text)).toThrow(/invalid size/);
  });
});

describe('formatBytes', () => {
  it.each([
    [512, '512 B'],
    [10 * 1024, '10 KiB'],
    [1024 * 1024, '1 MiB'],
    [1.5 * 1024 ** 3, '1.5 GiB'],
  ])('%d → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
