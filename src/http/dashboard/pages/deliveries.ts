import type { Request, Response } from 'express';
import { findAccountSubmission } from '../../../domain/submissions/submission-queries';
import { listAttempts, type AttemptRow } from '../../../domain/deliveries/delivery-records';
import { replaySubmission } from '../../../domain/deliveries/replay';
import type { DashboardPages } from '../app-page';
import { sendAppPage } from '../app-page';
import { setFlash } from '../flash';
import { sessionOf } from '../session-guard';
import { temporalUiLinks } from '../temporal-ui';
import { ownedPlugin, pageNumber, sendNotFound } from './owned';

const PER_PAGE = 25;

type LogPage = { rows: AttemptRow[]; total: number; page: number; pages: number };

/** One page of the attempts of a submission or of a webhook, within the signed-in account. */
async function logPage(
  req: Request,
  res: Response,
  filter: { submissionId?: string; pluginId?: string },
): Promise<LogPage> {
  const page = pageNumber(req);
  const { rows, total } = await listAttempts(
    req.em,
    { accountId: sessionOf(res).accountId, ...filter },
    { page, perPage: PER_PAGE },
  );
  return { rows, total, page, pages: Math.max(1, Math.ceil(total / PER_PAGE)) };
}

/**
 * The delivery log: every attempt with its status, HTTP status, duration, error and stored
 * answer (4 KB, as text), per submission (with replay) and per webhook; links into the
 * Temporal UI when its address is known.
 */
export const deliveryPages: DashboardPages = (router, ctx) => {
  const temporal = temporalUiLinks(ctx.temporalUiUrl, ctx.config.temporal.namespace);

  router.get('/app/submissions/:id/deliveries', async (req, res) => {
    const submission = await findAccountSubmission(req.em, sessionOf(res).accountId, req.params.id);
    if (!submission) return sendNotFound(req, res, 'submission');
    const submissionId = String(submission.id);
    await sendAppPage(
      req,
      res,
      { template: 'submission-deliveries', title: `Deliveries of submission ${submissionId}` },
      {
        submissionId,
        formId: String(submission.form_id),
        isSpam: submission.is_spam,
        log: await logPage(req, res, { submissionId }),
        temporal,
        workflowsUrl: temporal?.submission(submissionId),
      },
    );
  });

  router.post('/app/submissions/:id/replay', async (req, res) => {
    const { accountId } = sessionOf(res);
    const replayed = await replaySubmission(req.em, ctx, accountId, req.params.id);
    if (replayed.outcome === 'not_found') return sendNotFound(req, res, 'submission');
    if (replayed.outcome === 'unavailable') {
      ctx.logger.warn({ err: replayed.error.message }, 'replay could not start');
    }
    const flash = {
      started: 'replay_started',
      spam: 'replay_spam',
      rate_limited: 'replay_rate_limited',
      unavailable: 'replay_unavailable',
    } as const;
    setFlash(res, ctx.urls.base, flash[replayed.outcome]);
    res.redirect(303, `/app/submissions/${encodeURIComponent(req.params.id)}/deliveries`);
  });

  router.get('/app/forms/:formId/webhooks/:pluginId/deliveries', async (req, res) => {
    const owned = await ownedPlugin(req, res, req.params);
    if (!owned) return;
    await sendAppPage(
      req,
      res,
      { template: 'webhook-deliveries', title: `Deliveries · ${owned.plugin.name}` },
      {
        form: owned.form,
        webhook: owned.plugin,
        log: await logPage(req, res, { pluginId: owned.plugin.id }),
        temporal,
      },
    );
  });
};
