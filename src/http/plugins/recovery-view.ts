import { z } from 'zod';
import type { RecoveryRow } from '../../plugins/manage/recovery';
import { envelopeSchema } from '../kit/answers/envelope';
import { link, linksSchema } from '../kit/answers/links';
import type { PublicUrls } from '../../runtime/public-urls';
import { count, dateTime, idString } from '../kit/answers/fields';

export const recoverBody = z
  .strictObject({
    since: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 date-time' })
      .describe('recover submissions created since then: not in the future, at most 90 days ago'),
  })
  .meta({ id: 'RecoverDeliveries' });

export const recoverySchema = z
  .object({
    id: idString('the recovery run'),
    plugin_id: idString('the plugin delivered to'),
    since: dateTime('the start of the window'),
    until: dateTime('its end: the time of the request'),
    total: count('submissions to recover, counted at the request'),
    done: count('delivered since'),
    failed: count('still failing after their retries'),
    status: z
      .enum(['running', 'completed', 'failed'])
      .describe('`failed`: stopped early (the plugin was deleted or disabled meanwhile)'),
    workflow_id: z.string().nullable().describe('`recovery-{id}`; null when there was nothing'),
    created_at: dateTime('when the run was requested'),
    finished_at: dateTime('when it ended').nullable(),
    links: linksSchema('rels `self` (progress), `plugin` and `deliveries`'),
  })
  .meta({ id: 'Recovery' });

export const recoveryEnvelope = envelopeSchema('RecoveryEnvelope', 'recovery', recoverySchema);

/** The API's path of a run: where its progress is read. */
export const recoveryPath = (r: { form_id: string; plugin_id: string; id: string }) =>
  `/api/forms/${r.form_id}/plugins/${r.plugin_id}/recoveries/${r.id}`;

/** One recovery run as the API shows it (docs/recovery.md). */
export function recoveryView(row: RecoveryRow, urls: PublicUrls): z.input<typeof recoverySchema> {
  const plugin = `${urls.base}/api/forms/${row.form_id}/plugins/${row.plugin_id}`;
  return {
    id: row.id,
    plugin_id: row.plugin_id,
    since: row.since.toISOString(),
    until: row.until.toISOString(),
    total: row.total,
    done: row.done,
    failed: row.failed,
    status: row.status,
    workflow_id: row.workflow_id,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
    links: [
      link('self', `${urls.base}${recoveryPath(row)}`),
      link('plugin', plugin),
      link('deliveries', `${plugin}/deliveries`),
    ],
  };
}
