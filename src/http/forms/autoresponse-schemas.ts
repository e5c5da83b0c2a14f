import { z } from 'zod';
import { BODY_MAX, SUBJECT_MAX } from '../../domain/autoresponse/autoresponse-text';
import { text } from '../kit/answers/text';

/** A form's autoresponse to the submitter, as PATCH takes it and the Form shows it. */
export const autoresponseSchema = z
  .object({
    subject: text()
      .trim()
      .min(1, 'must not be empty')
      .max(SUBJECT_MAX)
      .refine((value) => !/[\r\n]/.test(value), 'must be one line')
      .describe('merge tags `{form}`, `{name}`, `{field:NAME}`; at most 200 characters'),
    body: text()
      .min(1, 'must not be empty')
      .max(BODY_MAX)
      .describe('plain text with the same merge tags; at most 10000 characters'),
    reply_to: z
      .email({ error: 'must be an e-mail address' })
      .max(254)
      .nullable()
      .describe("the autoresponse's Reply-To; null: none"),
  })
  .strict()
  .meta({
    id: 'Autoresponse',
    description:
      'The e-mail sent to the submitter of a non-spam submission with a valid `email` field, at ' +
      'most once per address per form per AUTORESPONSE_INTERVAL (docs/autoresponse.md). Submitted ' +
      'values are inserted as plain text, cut to 200 characters, without URLs or e-mail addresses.',
  });
