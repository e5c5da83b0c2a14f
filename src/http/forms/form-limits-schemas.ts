import { z } from 'zod';
import {
  CLOSED_MESSAGE_MAX_CHARS,
  MAX_SUBMISSIONS_CAP,
  type FormLimits,
} from '../../domain/forms/form-limits';
import { text } from '../kit/answers/text';

/** An RFC 3339 time with its offset (`Z` or `+02:00`), kept as the same instant in UTC. */
const instant = (what: string) =>
  z.iso
    .datetime({
      offset: true,
      error: 'must be an RFC 3339 date-time with an offset, such as 2027-01-31T17:00:00Z',
    })
    .transform((value) => new Date(value).toISOString())
    .nullable()
    .optional()
    .describe(what);

/**
 * A form's gates (docs/form-limits.md), as POST and PATCH take them: every key optional
 * (missing is null), the whole object replaced when sent. Nothing set at all is no gate
 * (null). `unique_field` must also name a field of the form's `fields`, checked against the
 * form (limitsProblem).
 */
export const formLimitsInput = z
  .strictObject({
    max_submissions: z
      .number({ error: `must be a whole number from 1 to ${MAX_SUBMISSIONS_CAP}, or null` })
      .int(`must be a whole number from 1 to ${MAX_SUBMISSIONS_CAP}, or null`)
      .min(1, 'must be at least 1 (null: no limit)')
      .max(MAX_SUBMISSIONS_CAP, `must be at most ${MAX_SUBMISSIONS_CAP}`)
      .nullable()
      .optional()
      .describe('accepted (non-spam) submissions the form takes, then it closes; null: no limit'),
    opens_at: instant('RFC 3339: before it, ingest answers 403 `form_closed`; null: open now'),
    closes_at: instant(
      'RFC 3339, after `opens_at`: from it on, ingest answers 403 `form_closed`; null: no end',
    ),
    unique_field: z
      .string()
      .min(1, 'must name a field')
      .max(128, 'must be at most 128 characters')
      .nullable()
      .optional()
      .describe(
        'a field of `fields` whose value may be accepted once (trimmed; any case for an `email` field): a repeat is 409 `already_submitted`; null: none',
      ),
    closed_message: text()
      .trim()
      .min(1, 'must not be empty (null: the default message)')
      .max(CLOSED_MESSAGE_MAX_CHARS, `must be at most ${CLOSED_MESSAGE_MAX_CHARS} characters`)
      .nullable()
      .optional()
      .describe('plain text shown (and answered) when the form is closed; null: a default'),
  })
  .superRefine((limits, ctx) => {
    // Both are ISO strings in UTC here: their order is their text's.
    if (limits.opens_at && limits.closes_at && limits.closes_at <= limits.opens_at)
      ctx.addIssue({ code: 'custom', path: ['closes_at'], message: 'must be after opens_at' });
  })
  .transform((limits): FormLimits | null => {
    const stored: FormLimits = {
      max_submissions: limits.max_submissions ?? null,
      opens_at: limits.opens_at ?? null,
      closes_at: limits.closes_at ?? null,
      unique_field: limits.unique_field ?? null,
      closed_message: limits.closed_message ?? null,
    };
    return Object.values(stored).every((value) => value === null) ? null : stored;
  })
  .nullable()
  .describe(
    "the form's gates (docs/form-limits.md): a count, a window, a field whose value comes once; null: none",
  );

/** The gates as the Form shows them. */
export const formLimitsView = z
  .object({
    max_submissions: z.number().int().nullable(),
    opens_at: z.string().meta({ format: 'date-time' }).nullable(),
    closes_at: z.string().meta({ format: 'date-time' }).nullable(),
    unique_field: z.string().nullable(),
    closed_message: z.string().nullable(),
  })
  .nullable()
  .describe("the form's gates (docs/form-limits.md); null: none")
  .meta({ id: 'FormLimits' });
