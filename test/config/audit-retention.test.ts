import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';

// AUDIT_RETENTION_DAYS (docs/audit-log.md): days audit log entries are kept.
describe('AUDIT_RETENTION_DAYS', () => {
  it('is 365 days unless set', () => {
    expect(loadConfig({}).auditRetentionDays).toBe(365);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '90' }).auditRetentionDays).toBe(90);
  });

  it.each(['0', '36501', '1.5', 'a year'])('refuses %j', (value) => {
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: value })).toThrow(/AUDIT_RETENTION_DAYS/);
  });
});
