import type { PublicUrls } from '../../app-context';
import { link } from '../../http/links';
import type { AttemptRow } from './delivery-records';

/** One delivery attempt as the API shows it (decisions §7). */
export function deliveryView(row: AttemptRow, urls: PublicUrls) {
  const submission = `${urls.base}/api/submissions/${row.submission_id}`;
  return {
    id: String(row.id),
    delivery_id: row.delivery_id,
    submission_id: String(row.submission_id),
    plugin_id: String(row.plugin_id),
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
      link('plugin', `${urls.base}/api/forms/${row.form_id}/plugins/${row.plugin_id}`),
    ],
  };
}
