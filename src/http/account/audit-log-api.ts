import { listAuditEvents, type AuditEventRow } from '../../domain/audit/audit-log';
import { listAnswer } from '../kit/answers/envelope';
import { pageMetaAndLinks, toPage } from '../kit/answers/pagination';
import { defineRoute } from '../kit/routing/define-route';
import { auditLogEnvelope, auditLogQuery } from './audit-schemas';
import { LIST_HEADERS } from '../kit/answers/headers';

/** An entry as the API shows it. */
export function auditEventView(row: AuditEventRow) {
  return {
    id: row.id,
    occurred_at: new Date(row.occurred_at).toISOString(),
    actor: {
      type: row.actor_type,
      user_id: row.actor_user_id,
      api_key_id: row.actor_api_key_id,
      label: row.actor_label,
    },
    client_address: row.client_address,
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    summary: row.summary,
  };
}

/** `GET /api/audit_log` (docs/audit-log.md). Reading it is not itself recorded. */
export const auditLogRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/audit_log',
    operationId: 'listAuditLog',
    tag: 'Audit log',
    summary: 'Read the audit log',
    description:
      'Every change made in the account by a member, a key or the operator, newest first, ' +
      'paged like the other lists. Filters: `action`, `actor` (a user id or an API key id), ' +
      '`target_type`, `target_id`, `since` and `until` (ISO 8601; `until` excluded). Entries ' +
      'are kept `AUDIT_RETENTION_DAYS` (365 by default).',
    access: 'can_create_forms',
    query: auditLogQuery,
    responses: {
      200: { description: 'the entries', body: auditLogEnvelope, headers: LIST_HEADERS },
    },
    errors: [],
  }).handle(async ({ req, query, principal }, ctx) => {
    const page = toPage(query);
    const filters = {
      action: query.action,
      actor: query.actor,
      targetType: query.target_type,
      targetId: query.target_id,
      since: query.since,
      until: query.until,
    };
    const { rows, total } = await listAuditEvents(req.em, principal.accountId, filters, page);
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(req.query))
      if (typeof value === 'string' && name !== 'page' && name !== 'per_page')
        params.set(name, value);
    const list = pageMetaAndLinks(`${ctx.urls.base}/api/audit_log`, params, page, total);
    return listAnswer('audit_events', rows.map(auditEventView), list);
  }),
];
