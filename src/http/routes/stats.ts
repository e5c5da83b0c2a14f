import { Router } from 'express';
import type { AppContext } from '../../app-context';
import { findAccountForm } from '../../domain/forms/forms';
import { accountStats } from '../../domain/stats/account-stats';
import { formStats } from '../../domain/stats/form-stats';
import { sendEnvelope } from '../envelope';
import { HttpError, notFound } from '../http-error';
import { link } from '../links';
import { methodNotAllowed } from '../middleware/errors';

/** `/api/stats` (dashboard sessions only) and `/api/form_stats/{form_id}`. */
export function statsRouter(ctx: AppContext): Router {
  const router = Router();

  router
    .route('/api/stats')
    .get(async (req, res) => {
      if (req.principal!.kind !== 'session') {
        throw new HttpError(
          401,
          'unauthorized',
          'this endpoint needs a signed-in dashboard session; API keys are not accepted',
        );
      }
      const stats = await accountStats(req.em, req.principal!.accountId);
      sendEnvelope(res, 'stats', stats, [
        link('self', `${ctx.urls.base}/api/stats`),
        link('forms', `${ctx.urls.base}/api/forms`),
      ]);
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/api/form_stats/:formId')
    .get(async (req, res) => {
      const form = await findAccountForm(req.em, req.principal!.accountId, req.params.formId);
      if (!form) throw notFound('form');
      const stats = await formStats(req.em, form);
      sendEnvelope(res, 'stats', stats, [
        link('self', `${ctx.urls.base}/api/form_stats/${form.id}`),
        link('form', `${ctx.urls.base}/api/forms/${form.id}`),
      ]);
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
