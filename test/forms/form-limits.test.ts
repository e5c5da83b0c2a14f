import { describe, expect, it } from 'vitest';
import {
  closedMessage,
  closedReason,
  limitsProblem,
  uniqueKeyOf,
  uniqueValueOf,
  type FormLimits,
} from '../../src/domain/forms/form-limits';
import type { FormField } from '../../src/domain/forms/form-fields';
import { formLimitsInput } from '../../src/http/forms/form-limits-schemas';

// The pure rules of a form's gates (docs/form-limits.md) and the schema POST/PATCH take them by.

const NONE: FormLimits = {
  max_submissions: null,
  opens_at: null,
  closes_at: null,
  unique_field: null,
  closed_message: null,
};
const FIELDS: FormField[] = [
  { name: 'email', label: 'E-mail', type: 'email', required: true },
  { name: 'team', label: 'Team', type: 'text', required: false },
];
const NOW = Date.parse('2027-01-15T12:00:00Z');

describe('closedReason', () => {
  it('is null without limits or inside the window and under the count', () => {
    expect(closedReason(null, NOW, 5)).toBeNull();
    const limits = {
      ...NONE,
      opens_at: '2027-01-15T11:00:00.000Z',
      closes_at: '2027-01-15T13:00:00.000Z',
      max_submissions: 10,
    };
    expect(closedReason(limits, NOW, 9)).toBeNull();
    expect(closedReason(limits, NOW)).toBeNull();
  });

  it('names the window before the count: not yet open, closed from closes_at on, then full', () => {
    const window = { ...NONE, opens_at: '2027-01-15T12:00:00.001Z', max_submissions: 1 };
    expect(closedReason(window, NOW, 5)).toBe('not_open_yet');
    expect(closedReason({ ...NONE, closes_at: '2027-01-15T12:00:00.000Z' }, NOW)).toBe('closed');
    expect(closedReason({ ...NONE, max_submissions: 3 }, NOW, 3)).toBe('full');
    expect(closedReason({ ...NONE, max_submissions: 3 }, NOW, 2)).toBeNull();
  });

  it("says the owner's closed message, or ours by reason", () => {
    expect(closedMessage({ ...NONE, closed_message: 'Sold out' }, 'full')).toBe('Sold out');
    expect(
      closedMessage({ ...NONE, opens_at: '2027-02-01T00:00:00.000Z' }, 'not_open_yet'),
    ).toContain('2027-02-01T00:00:00.000Z');
  });
});

describe('the unique value', () => {
  const byEmail = { ...NONE, unique_field: 'email' };
  const byTeam = { ...NONE, unique_field: 'team' };

  it('is trimmed, lower-cased for an email field only', () => {
    expect(uniqueValueOf(byEmail, FIELDS, { email: '  Ada@Example.COM ' })).toBe('ada@example.com');
    expect(uniqueValueOf(byTeam, FIELDS, { team: ' Blue Team ' })).toBe('Blue Team');
    expect(uniqueValueOf(byTeam, FIELDS, { team: 7 })).toBe('7');
  });

  it('is null with nothing to compare', () => {
    expect(uniqueValueOf(byEmail, FIELDS, {})).toBeNull();
    expect(uniqueValueOf(byEmail, FIELDS, { email: '   ' })).toBeNull();
    expect(uniqueValueOf(byTeam, FIELDS, { team: ['a', 'b'] })).toBeNull();
    expect(uniqueValueOf(byEmail, null, { email: 'a@example.com' })).toBeNull();
    expect(uniqueValueOf(NONE, FIELDS, { email: 'a@example.com' })).toBeNull();
  });

  it('is stored as a hash of the field and the value', () => {
    expect(uniqueKeyOf('email', 'a@example.com')).toBe(uniqueKeyOf('email', 'a@example.com'));
    expect(uniqueKeyOf('email', 'a@example.com')).not.toBe(uniqueKeyOf('team', 'a@example.com'));
    expect(uniqueKeyOf('team', 'x'.repeat(100_000))).toHaveLength(43);
  });

  it('must name one of the fields', () => {
    expect(limitsProblem(FIELDS, byTeam)).toBeNull();
    expect(limitsProblem(FIELDS, { ...NONE, unique_field: 'phone' })).toMatch(
      /^limits\.unique_field: /,
    );
    expect(limitsProblem(null, byEmail)).toMatch(/^limits\.unique_field: /);
    expect(limitsProblem(null, NONE)).toBeNull();
  });
});

describe('formLimitsInput', () => {
  it('keeps times as the same instant in UTC, and nothing set as null', () => {
    expect(formLimitsInput.parse({ opens_at: '2027-01-31T09:00:00+01:00' })).toEqual({
      ...NONE,
      opens_at: '2027-01-31T08:00:00.000Z',
    });
    expect(formLimitsInput.parse({})).toBeNull();
    expect(formLimitsInput.parse({ max_submissions: null })).toBeNull();
    expect(formLimitsInput.parse(null)).toBeNull();
  });

  it('refuses closes_at not after opens_at, at closes_at', () => {
    const parsed = formLimitsInput.safeParse({
      opens_at: '2027-01-31T09:00:00Z',
      closes_at: '2027-01-31T10:00:00+01:00',
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path)).toEqual([['closes_at']]);
  });

  it('bounds max_submissions and closed_message', () => {
    for (const max of [0, -1, 1.5, 100_001, '10'])
      expect(formLimitsInput.safeParse({ max_submissions: max }).success).toBe(false);
    expect(formLimitsInput.safeParse({ max_submissions: 100_000 }).success).toBe(true);
    expect(formLimitsInput.safeParse({ closed_message: 'x'.repeat(2001) }).success).toBe(false);
    expect(formLimitsInput.safeParse({ closed_message: '   ' }).success).toBe(false);
    expect(formLimitsInput.safeParse({ opens_at: '2027-01-31T09:00:00' }).success).toBe(false);
    expect(formLimitsInput.safeParse({ unknown: 1 }).success).toBe(false);
  });
});
