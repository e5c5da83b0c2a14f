import { z } from 'zod';
import { PLUGIN_TYPE_KEYS } from '../../../workflows/delivery-kinds';
import type { AttemptRow } from '../../domain/deliveries/delivery-records';
import { envelopeSchema, listEnvelopeSchema } from '../kit/answers/envelope';
import { link, linksSchema } from '../kit/answers/links';
import type { PublicUrls } from '../../runtime/public-urls';
import { dateTime, idString } from '../kit/answers/fields';

export const deliveryAttemptSchema = z
  .object({
    id: idString('the attempt record'),
    delivery_id: z
      .string()
      .describe('the same for every attempt of one delivery; the `webhook-id` header'),
    submission_id: idString('the submission delivered'),
    plugin_id: idString('the plugin delivered to')
      .nullable()
      .describe('the plugin delivered to; null for the autoresponse, which has none'),
    plugin_type: z
      .string()
      .describe(
        `the plugin's type (${PLUGIN_TYPE_KEYS.map((key) => `\`${key}\``).join(', ')}), or \`autoresponse\`: the ` +
          'mail to the submitter (docs/autoresponse.md)',
      ),
    attempt: z
      .number()
      .int()
      .min(1)
      .describe('1 for the first try, up to 4; a recovery numbers on (docs/recovery.md)'),
    status: z
      .enum(['succeeded', 'failed', 'pending_retry', 'skipped'])
      .describe(
        '`pending_retry`: failed, another attempt follows; `failed`: the last one failed; ' +
          '`skipped`: nothing was sent (`error` says why): the plugin was disabled, the ' +
          "submission did not match the plugin's conditions (`conditions: …`), an e-mail " +
          "plugin had no confirmed recipient, the account's hourly mail budget was used up, or " +
          'the autoresponse went to an address that unsubscribed',
      ),
    http_status: z.number().int().nullable().describe("the receiver's status; null: no answer"),
    error: z.string().nullable().describe('why the attempt failed (status, timeout, network)'),
    duration_ms: z.number().int().nullable(),
    response_body: z.string().nullable().describe("the receiver's answer, cut at 4096 bytes"),
    is_replay: z.boolean().describe('made by a replay'),
    is_test: z.boolean().describe('made by a `?test=true` ingest'),
    workflow_id: z.string().nullable().describe('the Temporal workflow that made it'),
    workflow_run_id: z.string().nullable(),
    started_at: dateTime('when the attempt began'),
    finished_at: dateTime('when it ended').nullable(),
    links: linksSchema('rels `submission` and `plugin` (`form` for the autoresponse)'),
  })
  .meta({ id: 'DeliveryAttempt' });

export type DeliveryAttemptView = z.input<typeof deliveryAttemptSchema>;

export const deliveryListEnvelope = listEnvelopeSchema(
  'DeliveryListEnvelope',
  'deliveries',
  deliveryAttemptSchema,
);

export const replaySchema = z
  .object({
    submission_id: idString('the submission delivered again'),
    workflow_id: z.string().describe('`submission-{id}-replay-…`'),
    run_id: z.string(),
    links: linksSchema('rels `deliveries` and `submission`'),
  })
  .meta({ id: 'Replay' });

export const replayEnvelope = envelopeSchema('ReplayEnvelope', 'replay', replaySchema);

/** One delivery attempt as the API shows it (docs/webhook-delivery.md). */
export function deliveryView(row: AttemptRow, urls: PublicUrls): DeliveryAttemptView {
  const submission = `${urls.base}/api/submissions/${row.submission_id}`;
  return {
    id: String(row.id),
    delivery_id: row.delivery_id,
    submission_id: String(row.submission_id),
    plugin_id: row.plugin_id === null ? null : String(row.plugin_id),
    plugin_type: row.plugin_type,
    attempt: row.attempt,
    status: row.status,
    http_status: row.http_status,
    error: row.error,
    duration_ms: row.duration_ms,
    response_body: row.response_body,
    is_replay: row.is_replay,
    is_test: row.is_test,
    workflow_id: row.workflow_id,
    workflow_run_id: row.workflow_run_id,
    started_at: new Date(row.started_at).toISOString(),
    finished_at: row.finished_at ? new Date(row.finished_at).toISOString() : null,
    links: [
      link('submission', submission),
      row.plugin_id === null
        ? link('form', `${urls.base}/api/forms/${row.form_id}`)
        : link('plugin', `${urls.base}/api/forms/${row.form_id}/plugins/${row.plugin_id}`),
    ],
  };
}
