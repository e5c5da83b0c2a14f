import { describe, expect, it } from 'vitest';
import { editDeadline, editDurationMs } from '../../src/domain/manage/edit-window';

// A form's `edit_until` (docs/manage-links.md): ISO 8601 durations of days, hours and minutes,
// and the deadline they make with the form's `closes_at`.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('editDurationMs', () => {
  it('reads days, hours and minutes, alone and together', () => {
    expect(editDurationMs('P7D')).toBe(7 * DAY);
    expect(editDurationMs('PT12H')).toBe(12 * HOUR);
    expect(editDurationMs('PT90M')).toBe(90 * MINUTE);
    expect(editDurationMs('P1DT12H30M')).toBe(DAY + 12 * HOUR + 30 * MINUTE);
    expect(editDurationMs('P365D')).toBe(365 * DAY);
  });

  it('refuses what is not one of ours, zero, and more than a year', () => {
    for (const text of [
      '',
      'P',
      'PT',
      'P1DT',
      '7D',
      'P1W',
      'P1M',
      'P1Y',
      'PT30S',
      'P0D',
      'PT0H0M',
      'P366D',
      'PT8761H',
      'p7d',
      'P7D ',
      'P-1D',
      'P1.5D',
    ])
      expect(editDurationMs(text), text).toBeNull();
  });
});

describe('editDeadline', () => {
  const received = new Date('2027-01-10T12:00:00.000Z');

  it('is edit_until after the submission', () => {
    expect(editDeadline(received, 'P7D', null)?.toISOString()).toBe('2027-01-17T12:00:00.000Z');
  });

  it('is capped by the form closing, which also ends a link without edit_until', () => {
    const closes = '2027-01-12T00:00:00.000Z';
    expect(editDeadline(received, 'P7D', closes)?.toISOString()).toBe(closes);
    expect(editDeadline(received, null, closes)?.toISOString()).toBe(closes);
    expect(editDeadline(received, 'PT1H', closes)?.toISOString()).toBe('2027-01-10T13:00:00.000Z');
  });

  it('has no end without either', () => {
    expect(editDeadline(received, null, null)).toBeNull();
  });
});
