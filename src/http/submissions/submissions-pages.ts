import type { Request, Response } from 'express';
import { listSubmissionVersions } from '../../domain/manage/submission-versions';
import type { AppContext } from '../../runtime/app-context';
import { findAccountForm } from '../../domain/forms/forms';
import { RANGES } from '../../domain/submissions/range';
import { findAccountSubmission } from '../../domain/submissions/submission-queries';
import { submissionListPage } from './submission-list';
import { submissionView } from './submission-view';
import { sessionPrincipal } from '../forms/account-form';
import { sendAppPage } from '../kit/chrome/app-page';
import { definePage, type Render } from '../kit/routing/define-page';
import { sendNotFound } from '../kit/chrome/not-found';
import { formatTime } from '../kit/chrome/format-time';
import type { DashboardSession } from '../kit/session/session-guard';
import { displayFields, filterQuery, parseListFilters, summarize } from './submission-display';

/** A list of submissions, of the account or of one form, with the list's filters. */
type ListPage = {
  req: Request;
  res: Response;
  session: DashboardSession;
  render: Render<'submissions'>;
};

async function listPage({ req, res, session, render }: ListPage, ctx: AppContext, formId?: string) {
  const { accountId } = session;
  const form = formId ? await findAccountForm(req.em, accountId, formId) : null;
  if (formId && !form) return sendNotFound(req, res, 'form');
  const filters = parseListFilters(req.query);
  if (!filters) {
    const lines = ['The search or the page link is not valid.'];
    const link = { href: req.path, label: 'Start again' };
    return sendAppPage(
      req,
      res,
      { status: 400, template: 'message', title: 'Bad request' },
      {
        lines,
        link,
        error: true,
      },
    );
  }
  const readsSpam = session.scopes.has('can_read_spam_submissions');
  if (filters.spam && !readsSpam) return sendNotFound(req, res, 'submission');
  const list = await submissionListPage(
    req.em,
    {
      accountId,
      spam: filters.spam,
      formId: form?.id,
      q: filters.q || undefined,
      range: filters.range,
    },
    { page: filters.page, cursor: filters.cursor },
    ctx.config.listMaxBytes,
  );
  const rows = list.rows.map((row) => ({
    id: String(row.id),
    formId: String(row.form_id),
    formToken: row.form_endpoint_token,
    receivedAt: new Date(row.created_at).toISOString(),
    receivedLabel: formatTime(new Date(row.created_at)),
    sender: row.special_normalized?.email ?? '',
    summary: summarize(row.payload_json),
    spamReason: row.spam_reason,
  }));
  const base = form ? `/app/forms/${form.id}/submissions` : '/app/submissions';
  await render({
    form: form && { id: form.id, name: form.name },
    base,
    filters,
    ranges: RANGES,
    rows,
    total: list.total,
    page: list.page.page,
    cut: list.cut,
    links: {
      inbox: `${base}?${filterQuery({ ...filters, spam: false })}`,
      spam: readsSpam ? `${base}?${filterQuery({ ...filters, spam: true })}` : null,
      next: list.next && `${base}?${filterQuery(filters, { cursor: list.next })}`,
      first: list.page.page > 1 ? `${base}?${filterQuery(filters)}` : null,
      exportPreview: form && `/app/forms/${form.id}/export?${filterQuery(filters)}`,
    },
  });
}

const LIST = {
  method: 'get',
  access: 'session',
  template: 'submissions',
  title: (data: { form: { name: string } | null }) =>
    data.form ? `Submissions of ${data.form.name}` : 'Submissions',
} as const;

/**
 * `/app/submissions` (every form) and `/app/forms/{id}/submissions`: search, range, the spam
 * tab, and pages cut by the API's own list code (byte budget and cursor). `/app/submissions/{id}`:
 * one submission in full. The actions (submission-actions-pages.ts) come first in the page list, so
 * `/app/submissions/erase` is not taken for an id.
 */
/** How many versions the submission page lists; the API lists them all. */
const VERSIONS_SHOWN = 20;

export const submissionPages = [
  definePage({ need: 'can_read_submissions', ...LIST, path: '/app/submissions' }).handle(
    (page, ctx) => listPage(page, ctx),
  ),
  definePage({
    need: 'can_read_submissions',
    ...LIST,
    path: '/app/forms/:formId/submissions',
  }).handle((page, ctx) => listPage(page, ctx, page.params.formId)),

  definePage({
    need: 'can_read_submissions',
    method: 'get',
    path: '/app/submissions/:id',
    access: 'session',
    template: 'submission',
    title: (data) => `Submission ${data.submission.id}`,
  }).handle(async ({ req, res, params, session, render }, ctx) => {
    const row = await findAccountSubmission(req.em, session.accountId, params.id);
    // A spam submission stays invisible to a role without the spam scope, as to such a key.
    if (!row || (row.is_spam && !session.scopes.has('can_read_spam_submissions')))
      return sendNotFound(req, res, 'submission');
    // The API's Submission resource, so the page and GET /api/submissions/{id} agree.
    const submission = submissionView(row, ctx.urls, sessionPrincipal(session));
    // Versions its submitter's edits made (docs/manage-links.md): the first page of them.
    const listed = await listSubmissionVersions(req.em, row, {
      page: 1,
      perPage: VERSIONS_SHOWN,
      afterVersion: null,
    });
    const versions =
      listed.total > 1
        ? {
            total: listed.total,
            shown: listed.rows.map((version) => ({
              version: version.version,
              status: version.status,
              createdAt: new Date(version.created_at).toISOString(),
              fields: displayFields(version.payload_json, submission.id),
            })),
          }
        : undefined;
    await render({ submission, fields: displayFields(row.payload_json, submission.id), versions });
  }),
];
