import type { PublicUrls } from '../../app-context';
import type { SubmissionRow } from '../../db/sql/submissions';
import { link } from '../../http/links';
import { can, type Principal } from '../accounts/principal';

export function submissionView(row: SubmissionRow, urls: PublicUrls, principal: Principal) {
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
