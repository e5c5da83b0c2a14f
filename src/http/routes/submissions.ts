import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../app-context';
import { findAccountForm } from '../../domain/forms/forms';
import { listSubmissions } from '../../domain/submissions/submission-queries';
import { submissionView } from '../../domain/submissions/submission-view';
import { SubmissionFile } from '../../db/entities';
import { sendEnvelope, setLinkHeader } from '../envelope';
import { findReadableSubmission } from '../submission-access';
import { notFound } from '../http-error';
import { methodNotAllowed } from '../middleware/errors';
import { requireScope } from '../middleware/require-scope';
import { pageMetaAndLinks, toPage } from '../pagination';
import { submissionListQuery } from '../schemas/submissions';
import { parseOrThrow } from '../validate';

/** `/api/submissions`: the non-spam and spam lists, one submission, and its uploaded files. */
export function submissionsRouter(ctx: AppContext): Router {
  const router = Router();

  const list = (spam: boolean) => async (req: Request, res: Response) => {
    const principal = req.principal!;
    const query = parseOrThrow(submissionListQuery, req.query, 'query');
    let formId: string | undefined;
    if (query.form_id && query.form_id !== 'all') {
      const form = await findAccountForm(req.em, principal.accountId, query.form_id);
      if (!form) throw notFound('form');
      formId = form.id;
    }
    const page = toPage(query);
    const { rows, total } = await listSubmissions(
      req.em,
      { accountId: principal.accountId, spam, formId, q: query.q || undefined, range: query.range },
      page,
    );
    const params = new URLSearchParams();
    if (query.form_id) params.set('form_id', query.form_id);
    if (query.q) params.set('q', query.q);
    params.set('range', query.range);
    const path = spam ? '/api/submissions/spam' : '/api/submissions';
    const { meta, links } = pageMetaAndLinks(`${ctx.urls.base}${path}`, params, page, total);
    setLinkHeader(res, links);
    const views = rows.map((row) => submissionView(row, ctx.urls, principal));
    sendEnvelope(res, 'submissions', views, links, { meta });
  };

  router
    .route('/api/submissions')
    .get(requireScope('can_read_submissions'), list(false))
    .all(methodNotAllowed(['GET']));
  router
    .route('/api/submissions/spam')
    .get(requireScope('can_read_spam_submissions'), list(true))
    .all(methodNotAllowed(['GET']));

  const readable = findReadableSubmission;

  router
    .route('/api/submissions/:id')
    .get(requireScope('can_read_submissions'), async (req, res) => {
      const view = submissionView(await readable(req), ctx.urls, req.principal!);
      sendEnvelope(res, 'submission', view, view.links);
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/api/submissions/:id/files/:fileId')
    .get(requireScope('can_read_submissions'), async (req, res) => {
      const row = await readable(req);
      const fileId = String(req.params.fileId);
      if (!/^\d{1,18}$/.test(fileId)) throw notFound('file');
      const file = await req.em.findOne(
        SubmissionFile,
        { id: fileId, submissionId: row.id },
        { populate: ['content'] },
      );
      if (!file) throw notFound('file');
      // attachment() guesses a type from the file name, so the stored type is set after it.
      res.attachment(file.filename);
      res.setHeader('Content-Type', file.contentType);
      res.setHeader('Content-Length', String(file.content.length));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      res.end(file.content);
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
