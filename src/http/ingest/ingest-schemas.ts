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

/** What an HTML form posts (read by busboy, not by zod: this is the document's description). */
export const htmlFormSubmission = z
  .object({
    _hp: z
      .string()
      .optional()
      .describe('honeypot: render it hidden and empty; filled means spam (never stored)'),
    _ts: z
      .string()
      .optional()
      .describe(
        'page-load time in ms since the epoch, filled by the embed markup; a form sent less ' +
          'than 3 s after it is spam (`too_fast`); never stored',
      ),
    email: z.string().optional().describe('when present, must be an e-mail address'),
    name: z.string().optional(),
    message: z.string().optional(),
  })
  .catchall(z.union([z.string(), z.array(z.string())]))
  .describe(
    'Any field names. Repeated names become arrays; multipart file parts are stored and ' +
      'appear in `payload_json` as `{filename, content_type, size, url}`.',
  )
  .meta({ id: 'HtmlFormSubmission' });
