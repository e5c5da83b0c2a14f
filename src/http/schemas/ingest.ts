import { z } from 'zod';

export const ingestQuery = z.object({
  test: z
    .literal('true', { error: 'the only allowed value is true' })
    .optional()
    .describe('`true`: run the deliveries once, synchronously, and report them'),
});

/** JSON ingest takes one object of arbitrary fields. */
export const jsonSubmissionBody = z
  .record(z.string(), z.unknown(), { error: 'the body must be a JSON object of fields' })
  .describe(
    'any fields; `email`, `name`, `message`, the honeypot `_hp` and the fill timestamp `_ts` ' +
      'are handled specially',
  )
  .meta({ id: 'JsonSubmission' });
