import { Router } from 'express';
import type { AppContext } from '../../app-context';
import { can } from '../../domain/accounts/principal';
import { link } from '../links';
import { methodNotAllowed } from '../middleware/errors';

/** `GET /api`: the account id and the operations this credential may use. */
export function apiRootRouter(ctx: AppContext): Router {
  const router = Router();
  router
    .route(['/api', '/api/'])
    .get((req, res) => {
      const principal = req.principal!;
      const base = ctx.urls.base;
      const links = [link('self', `${base}/api`), link('forms', `${base}/api/forms`)];
      if (can(principal, 'can_create_forms'))
        links.push(link('create_form', `${base}/api/forms`, 'POST'));
      if (can(principal, 'can_read_submissions'))
        links.push(link('submissions', `${base}/api/submissions`));
      if (can(principal, 'can_read_spam_submissions'))
        links.push(link('spam_submissions', `${base}/api/submissions/spam`));
      if (principal.kind === 'session') links.push(link('stats', `${base}/api/stats`));
      links.push(link('openapi', `${base}/api/openapi.json`), link('docs', `${base}/docs`));
      res.json({ ok: true, account_id: principal.accountId, links });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
