import { z } from 'zod';
import { can, type Principal } from '../../domain/accounts/principal';
import type { SubmissionRow } from '../../domain/submissions/submission-queries';
import { envelopeSchema, listEnvelopeSchema } from '../kit/answers/envelope';
import { link, linksSchema } from '../kit/answers/links';
import type { PublicUrls } from '../../runtime/public-urls';
import { dateTime, idString } from '../kit/answers/fields';

export const submissionSchema = z
  .object({
    id: idString('submission id'),
    form_id: idString('form id'),
    form_endpoint_token: z.string(),
    payload_json: z
      .record(z.string(), z.unknown())
      .describe(
        'the submitted fields; repeated names are arrays, an uploaded file is ' +
          '`{filename, content_type, size, url}` (`url`: its authenticated download link)',
      ),
    special_normalized: z
      .object({
        email: z.string().optional().describe('trimmed and lower-cased'),
        name: z.string().optional().describe('trimmed'),
        message: z.string().optional().describe('trimmed'),
      })
      .nullable()
      .describe('normalized special fields; null when none came'),
    source_ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    referrer: z.string().nullable(),
    is_spam: z.boolean(),
    spam_reason: z.string().nullable().describe('e.g. `honeypot`; null when not spam'),
    created_at: dateTime('when it was received'),
    updated_at: dateTime('last change'),
    links: linksSchema(),
  })
  .meta({ id: 'Submission' });

export type SubmissionView = z.input<typeof submissionSchema>;

export const submissionEnvelope = envelopeSchema(
  'SubmissionEnvelope',
  'submission',
  submissionSchema,
);
export const submissionListEnvelope = listEnvelopeSchema(
  'SubmissionListEnvelope',
  'submissions',
  submissionSchema,
);

export function submissionView(
  row: SubmissionRow,
  urls: PublicUrls,
  principal: Principal,
): SubmissionView {
  const self = `${urls.base}/api/submissions/${row.id}`;
  const links = [link('self', self), link('form', `${urls.base}/api/forms/${row.form_id}`)];
  if (can(principal, 'can_create_forms')) links.push(link('replay', `${self}/replay`, 'POST'));
  links.push(link('deliveries', `${self}/deliveries`));
  return {
    id: String(row.id),
    form_id: String(row.form_id),
    form_endpoint_token: row.form_endpoint_token,
    payload_json: row.payload_json,
    special_normalized: row.special_normalized,
    source_ip: row.source_ip,
    user_agent: row.user_agent,
    referrer: row.referrer,
    is_spam: row.is_spam,
    spam_reason: row.spam_reason,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    links,
  };
}
