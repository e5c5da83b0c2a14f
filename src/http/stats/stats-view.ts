import { z } from 'zod';
import { envelopeSchema } from '../kit/answers/envelope';
import { count, dateTime, idString } from '../kit/answers/fields';

/** The answers of src/domain/stats, as the stats endpoints send them. */

export const accountStatsSchema = z
  .object({
    totalForms: count('forms of the account'),
    active: count('forms accepting submissions'),
    subs24h: count('non-spam submissions in the last 24 hours'),
    subs7d: count('non-spam submissions in the last 7 days'),
  })
  .meta({ id: 'AccountStats' });

export const formStatsSchema = z
  .object({
    form_id: idString('form id'),
    endpoint_token: z.string(),
    is_active: z.boolean(),
    total_submissions: count('non-spam submissions, all time'),
    spam_submissions: count('spam submissions, all time'),
    subs24h: count('non-spam, last 24 hours'),
    subs7d: count('non-spam, last 7 days'),
    subs30d: count('non-spam, last 30 days'),
    spam30d: count('spam, last 30 days'),
    last_submission_at: dateTime('newest non-spam submission').nullable(),
    daily: z
      .array(
        z.object({
          date: z.string().meta({ format: 'date', description: 'UTC day' }),
          submissions: count('non-spam'),
          spam: count('spam'),
        }),
      )
      .describe('the last 30 UTC days, oldest first'),
  })
  .meta({ id: 'FormStats' });

export const accountStatsEnvelope = envelopeSchema(
  'AccountStatsEnvelope',
  'stats',
  accountStatsSchema,
);
export const formStatsEnvelope = envelopeSchema('FormStatsEnvelope', 'stats', formStatsSchema);
