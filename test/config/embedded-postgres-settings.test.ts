import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';

const settingsOf = (text: string) =>
  loadConfig({ EMBEDDED_POSTGRES_SETTINGS: text }).embeddedPostgresSettings;

describe('EMBEDDED_POSTGRES_SETTINGS', () => {
  it('is empty unless set', () => {
    expect(loadConfig({}).embeddedPostgresSettings).toEqual([]);
  });

  it('reads name=value pairs, a piece without = continuing the value before it', () => {
    expect(
      settingsOf(
        'shared_preload_libraries=pg_stat_statements,auto_explain, pg_stat_statements.track=all,work_mem=8MB',
      ),
    ).toEqual([
      ['shared_preload_libraries', 'pg_stat_statements,auto_explain'],
      ['pg_stat_statements.track', 'all'],
      ['work_mem', '8MB'],
    ]);
  });

  it('refuses a first piece without a name, or a name PostgreSQL could not have', () => {
    expect(() => settingsOf('pg_stat_statements')).toThrow(/EMBEDDED_POSTGRES_SETTINGS/);
    expect(() => settingsOf('work mem=8MB')).toThrow(/name=value/);
  });
});
