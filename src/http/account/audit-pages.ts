import { z } from 'zod';
import { listAuditEvents, type AuditEventRow } from '../../domain/audit/audit-log';
import { definePage } from '../kit/routing/define-page';
import { formatTime } from '../kit/chrome/format-time';
import type { AuditRowView } from '../kit/chrome/template-data';

/** Entries one page of /app/audit shows. */
const PER_PAGE = 50;

const optional = (schema: z.ZodType<string, string>) =>
  z
    .string()
    .optional()
    .transform((value) => value?.trim() || undefined)
    .pipe(schema.optional());

/** The filters as the form sends them: dates (`type="date"`), both days included. */
const auditFilters = z.object({
  action: optional(z.string().max(100)),
  actor: optional(z.string().regex(/^\d{1,19}$/, 'The actor is a user id or a key id (digits).')),
  target_type: optional(z.string().max(50)),
  target_id: optional(z.string().max(100)),
  since: optional(z.iso.date('From must be a date.')),
  until: optional(z.iso.date('To must be a date.')),
  page: optional(z.string().regex(/^\d{1,6}$/, 'The page is a number.')),
});

const FILTER_NAMES = ['action', 'actor', 'target_type', 'target_id', 'since', 'until'] as const;

/** Where a target can be opened in the dashboard, if anywhere. */
function targetHref(type: string | null, id: string | null): string | null {
  if (!id || !/^\d+$/.test(id)) return null;
  if (type === 'form') return `/app/forms/${id}`;
  if (type === 'submission') return `/app/submissions/${id}`;
  if (type === 'api_key') return '/app/keys';
  return null;
}

function rowView(row: AuditEventRow): AuditRowView {
  const target =
    row.target_type || row.target_id
      ? {
          label: [row.target_type, row.target_id].filter(Boolean).join(' '),
          href: targetHref(row.target_type, row.target_id),
        }
      : null;
  return {
    time: new Date(row.occurred_at),
    actor: row.actor_label,
    actorType: row.actor_type.replace('_', ' '),
    clientAddress: row.client_address,
    action: row.action,
    target,
    summary: row.summary,
  };
}

/** `/app/audit`: the account's audit log for owners and admins (docs/audit-log.md). */
export const auditPages = [
  definePage({
    need: 'can_create_forms',
    method: 'get',
    path: '/app/audit',
    access: 'session',
    template: 'audit',
    title: 'Audit log',
  }).handle(async ({ req, session, render }) => {
    const parsed = auditFilters.safeParse(req.query);
    const raw = Object.fromEntries(
      FILTER_NAMES.map((name) => [
        name,
        typeof req.query[name] === 'string' ? req.query[name] : '',
      ]),
    ) as Record<(typeof FILTER_NAMES)[number], string>;
    const common = { filters: raw, formatTime, pageHref: () => '' };
    if (!parsed.success) {
      const error = parsed.error.issues.map((issue) => issue.message).join(' ');
      const empty = { rows: [], total: 0, page: 1, pages: 1 };
      return render({ ...common, ...empty, error }, { status: 422 });
    }
    const f = parsed.data;
    const page = Math.max(1, Number(f.page ?? 1));
    const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000);
    const filters = {
      action: f.action,
      actor: f.actor,
      targetType: f.target_type,
      targetId: f.target_id,
      since: f.since ? new Date(`${f.since}T00:00:00Z`) : undefined,
      until: f.until ? dayAfter(f.until) : undefined,
    };
    const { rows, total } = await listAuditEvents(req.em, session.accountId, filters, {
      page,
      perPage: PER_PAGE,
    });
    const query = new URLSearchParams(Object.entries(raw).filter(([, value]) => value !== ''));
    const pageHref = (n: number) => {
      query.set('page', String(n));
      return `/app/audit?${query.toString()}`;
    };
    await render({
      ...common,
      pageHref,
      rows: rows.map(rowView),
      total,
      page,
      pages: Math.max(1, Math.ceil(total / PER_PAGE)),
    });
  }),
];
