import { z } from 'zod';

export const ingestQuery = z.object({
  test: z.literal('true', { error: 'the only allowed value is true' }).optional(),
});

/** JSON ingest takes one object of arbitrary fields. */
export const jsonSubmissionBody = z
  .record(z.string(), z.unknown(), { error: 'the body must be a JSON object of fields' })
  .meta({ id: 'JsonSubmission' });
