import { z } from 'zod';
import { listEnvelopeSchema } from '../kit/answers/envelope';
import { paginationQuery } from '../kit/answers/pagination';
import { dateTime, idString } from '../kit/answers/fields';
import { text } from '../kit/answers/text';

/*
 * The audit log's query and answer (docs/audit-log.md). `since` and `until` take ISO 8601
 * date-times; `actor` a user id or an API key id.
 */

const isoTime = (what: string) =>
  z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date-time' })
    .transform((value) => new Date(value))
    .optional()
    .describe(what);

export const auditLogQuery = paginationQuery.extend({
  action: text().max(100).optional().describe('only this action, e.g. `form.created`'),
  actor: z
    .string()
    .regex(/^\d{1,19}$/, 'must be a user id or an API key id')
    .optional()
    .describe('only entries by this user id or API key id'),
  target_type: text().max(50).optional().describe('only targets of this type, e.g. `form`'),
  target_id: text().max(100).optional().describe('only this target id'),
  since: isoTime('only entries at or after this time'),
  until: isoTime('only entries before this time'),
});

export const auditEventSchema = z
  .object({
    id: idString('the entry'),
    occurred_at: dateTime('when the change was made'),
    actor: z.object({
      type: z
        .enum(['user', 'api_key', 'operator', 'submitter'])
        .describe(
          'operator: the `formward` CLI; submitter: the person who sent a submission, through its manage link (docs/manage-links.md)',
        ),
      user_id: idString('the user (type user)').nullable(),
      api_key_id: idString('the key (type api_key)').nullable(),
      label: z.string().describe("the e-mail address, or the key's name and prefix, at the time"),
    }),
    client_address: z.string().nullable().describe('the address the change came from'),
    action: z.string().describe('dotted, e.g. `form.created`, `webhook.secret_rotated`'),
    target: z
      .object({ type: z.string().nullable(), id: z.string().nullable() })
      .describe('what was changed, where known'),
    summary: z.string().describe('a short description; never submission values or secrets'),
  })
  .meta({ id: 'AuditEvent' });

export const auditLogEnvelope = listEnvelopeSchema(
  'AuditLogEnvelope',
  'audit_events',
  auditEventSchema,
);
