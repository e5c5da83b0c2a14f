import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';

// SPAM_RETENTION_DAYS (docs/retention.md): days spam is kept in every form.
describe('SPAM_RETENTION_DAYS', () => {
  it('is 30 days unless set', () => {
    expect(loadConfig({}).spamRetentionDays).toBe(30);
    expect(loadConfig({ SPAM_RETENTION_DAYS: '7' }).spamRetentionDays).toBe(7);
  });

  it.each(['0', '3651', '1.5', 'a week'])('refuses %j', (value) => {
    expect(() => loadConfig({ SPAM_RETENTION_DAYS: value })).toThrow(/SPAM_RETENTION_DAYS/);
  });
});
