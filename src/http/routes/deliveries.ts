import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../app-context';
import { findAccountForm } from '../../domain/forms/forms';
import { findFormPlugin } from '../../domain/plugins/plugins';
import { findAccountSubmission } from '../../domain/submissions/submission-queries';
import { listAttempts } from '../../domain/webhooks/delivery-records';
import { deliveryView } from '../../domain/webhooks/delivery-view';
import { sendEnvelope, setLinkHeader } from '../envelope';
import { HttpError, notFound } from '../http-error';
import { link } from '../links';
import { methodNotAllowed } from '../middleware/errors';
import { requireScope } from '../middleware/require-scope';
import { pageMetaAndLinks, paginationQuery, toPage } from '../pagination';
import { findReadableSubmission } from '../submission-access';
import { parseOrThrow } from '../validate';

/**
 * The delivery log (every attempt, decisions §7) of a submission or of a plugin, and replay:
 * a new workflow that delivers a submission to its form's plugins again.
 */
export function deliveriesRouter(ctx: AppContext): Router {
  const router = Router();

  const sendAttempts = async (
    req: Request,
    res: Response,
    self: string,
    filter: { submissionId?: string; pluginId?: string },
    extraLinks: ReturnType<typeof link>[],
  ) => {
    const page = toPage(parseOrThrow(paginationQuery, req.query, 'query'));
    const { rows, total } = await listAttempts(
      req.em,
      { accountId: req.principal!.accountId, ...filter },
      page,
    );
    const { meta, links } = pageMetaAndLinks(self, new URLSearchParams(), page, total);
    links.push(...extraLinks);
    setLinkHeader(res, links);
    const views = rows.map((row) => deliveryView(row, ctx.urls));
    sendEnvelope(res, 'deliveries', views, links, { meta });
  };

  router
    .route('/api/submissions/:id/deliveries')
    .get(requireScope('can_read_submissions'), async (req, res) => {
      const submission = await findReadableSubmission(req);
      const base = `${ctx.urls.base}/api/submissions/${submission.id}`;
      await sendAttempts(req, res, `${base}/deliveries`, { submissionId: submission.id }, [
        link('submission', base),
      ]);
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/api/forms/:formId/plugins/:id/deliveries')
    .get(requireScope('can_read_submissions'), async (req, res) => {
      const form = await findAccountForm(
        req.em,
        req.principal!.accountId,
        String(req.params.formId),
      );
      if (!form) throw notFound('form');
      const plugin = await findFormPlugin(req.em, form.id, String(req.params.id));
      if (!plugin) throw notFound('plugin');
      const base = `${ctx.urls.base}/api/forms/${form.id}/plugins/${plugin.id}`;
      await sendAttempts(req, res, `${base}/deliveries`, { pluginId: plugin.id }, [
        link('plugin', base),
      ]);
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/api/submissions/:id/replay')
    .post(requireScope('can_create_forms'), async (req, res) => {
      const submission = await findAccountSubmission(
        req.em,
        req.principal!.accountId,
        String(req.params.id),
      );
      if (!submission) throw notFound('submission');
      if (submission.is_spam) {
        throw new HttpError(
          422,
          'validation_failed',
          'spam submissions are not delivered, so they cannot be replayed',
        );
      }
      let started: { workflowId: string; runId: string };
      try {
        started = await ctx.workflows.replay(String(submission.id));
      } catch (error) {
        ctx.logger.warn({ err: (error as Error).message }, 'replay could not start');
        throw new HttpError(
          503,
          'unavailable',
          'the delivery engine (Temporal) is unreachable; try again shortly',
          undefined,
          { 'Retry-After': '30' },
        );
      }
      const self = `${ctx.urls.base}/api/submissions/${submission.id}`;
      const links = [link('deliveries', `${self}/deliveries`), link('submission', self)];
      sendEnvelope(
        res,
        'replay',
        {
          submission_id: String(submission.id),
          workflow_id: started.workflowId,
          run_id: started.runId,
          links,
        },
        links,
        { status: 202 },
      );
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
