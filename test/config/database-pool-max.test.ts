import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';

// DATABASE_POOL_MAX (docs/running.md, "Connections to PostgreSQL"): each process's pool.
describe('DATABASE_POOL_MAX', () => {
  it('is 20 connections unless set', () => {
    expect(loadConfig({}).databasePoolMax).toBe(20);
    expect(loadConfig({ DATABASE_POOL_MAX: '8' }).databasePoolMax).toBe(8);
  });

  it.each(['0', '1', '501', '2.5', 'many'])('refuses %j', (value) => {
    expect(() => loadConfig({ DATABASE_POOL_MAX: value })).toThrow(/DATABASE_POOL_MAX/);
  });
});
