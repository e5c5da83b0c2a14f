import express, { type Router } from 'express';
import type { AppContext } from '../../../runtime/app-context';
import { noStore } from '../middleware/no-store';
import { appErrorPage, appNotFound } from './app-errors';
import { assetsRouter } from './assets';
import type { AnyPage } from '../routing/define-page';
import { registerPages, SESSION_AREA } from '../routing/register-pages';
import { takeReveal } from '../session/reveal-once';
import { requireSession } from '../session/session-guard';

/**
 * The dashboard's Express router (docs/dashboard.md): the assets, the ALTCHA challenge of the
 * sign-up form, and the pages it is given (PAGES of src/http/routes.ts): the signed-out ones (sign-in, sign-up,
 * password reset, recipient links, the dev mailbox; those with a `document` are in the
 * OpenAPI document too), and `/app` and below behind requireSession (session, then CSRF on
 * every state change).
 */
export function dashboardRouter(ctx: AppContext, pages: readonly AnyPage[]): Router {
  const router = express.Router();
  router.use(assetsRouter());

  router.get('/signup/challenge', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await ctx.accounts.altcha.challenge());
  });

  const app = express.Router();
  // Signed-in pages show submissions, keys and tokens: none is kept by a cache.
  app.use(SESSION_AREA, noStore, requireSession(ctx), takeReveal(ctx));
  registerPages(app, pages, ctx);
  app.use(SESSION_AREA, appNotFound, appErrorPage(ctx.logger));
  router.use(app);
  return router;
}
