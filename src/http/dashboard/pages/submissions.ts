import type { Request, Response } from 'express';
import { findAccountForm } from '../../../domain/forms/forms';
import { RANGES } from '../../../domain/submissions/range';
import { findAccountSubmission } from '../../../domain/submissions/submission-queries';
import { submissionListPage } from '../../submission-list';
import { submissionView } from '../../views/submission-view';
import { sessionPrincipal } from '../account-form';
import type { DashboardPages } from '../app-page';
import { sendAppPage } from '../app-page';
import { sendNotFound } from '../not-found';
import { formatTime } from '../format-time';
import { submissionActionPages } from './submission-actions';
import { submissionExportPages } from './submission-export';
import { sessionOf } from '../session-guard';
import { displayFields, filterQuery, parseListFilters, summarize } from '../submission-display';

/**
 * `/app/submissions` (every form) and `/app/forms/{id}/submissions`: search, range, the spam
 * tab, and pages cut by the API's own list code (byte budget and cursor). `/app/submissions/{id}`:
 * one submission in full.
 */
const submissionViewPages: DashboardPages = (router, ctx) => {
  async function listPage(req: Request, res: Response, formId?: string) {
    const { accountId } = sessionOf(res);
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
    await sendAppPage(
      req,
      res,
      { template: 'submissions', title: form ? `Submissions of ${form.name}` : 'Submissions' },
      {
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
          spam: `${base}?${filterQuery({ ...filters, spam: true })}`,
          next: list.next && `${base}?${filterQuery(filters, { cursor: list.next })}`,
          first: list.page.page > 1 ? `${base}?${filterQuery(filters)}` : null,
          exportPreview: form && `/app/forms/${form.id}/export?${filterQuery(filters)}`,
        },
      },
    );
  }

  router.get('/app/submissions', (req, res) => listPage(req, res));
  router.get('/app/forms/:formId/submissions', (req, res) =>
    listPage(req, res, String(req.params.formId)),
  );

  router.get('/app/submissions/:id', async (req, res) => {
    const { accountId } = sessionOf(res);
    const row = await findAccountSubmission(req.em, accountId, String(req.params.id));
    if (!row) return sendNotFound(req, res, 'submission');
    // The API's Submission resource, so the page and GET /api/submissions/{id} agree.
    const submission = submissionView(row, ctx.urls, sessionPrincipal(sessionOf(res)));
    await sendAppPage(
      req,
      res,
      { template: 'submission', title: `Submission ${submission.id}` },
      { submission, fields: displayFields(row.payload_json, submission.id) },
    );
  });
};

/** Every submission page; the actions first, so `/app/submissions/erase` is not taken for an id. */
export const submissionPages: DashboardPages = (router, ctx) => {
  submissionActionPages(router, ctx);
  submissionViewPages(router, ctx);
  submissionExportPages(router, ctx);
};
