import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';

describe('TEMPORAL_DEV_SQLITE_SYNCHRONOUS', () => {
  it('is normal unless set', () => {
    expect(loadConfig({}).temporal.devSqliteSynchronous).toBe('normal');
  });

  it('takes full, normal or off', () => {
    for (const level of ['full', 'normal', 'off'] as const)
      expect(
        loadConfig({ TEMPORAL_DEV_SQLITE_SYNCHRONOUS: level }).temporal.devSqliteSynchronous,
      ).toBe(level);
  });

  it('refuses any other level', () => {
    expect(() => loadConfig({ TEMPORAL_DEV_SQLITE_SYNCHRONOUS: 'extra' })).toThrow(
      /TEMPORAL_DEV_SQLITE_SYNCHRONOUS/,
    );
  });
});
