import express, { type Router } from 'express';
import type { AppContext } from '../../runtime/app-context';
import { noStore } from '../middleware/no-store';
import { appErrorPage, appNotFound } from './app-errors';
import { assetsRouter } from './assets';
import { PAGES } from './pages';
import { registerPages, SESSION_AREA } from './register-pages';
import { takeReveal } from './reveal-once';
import { requireSession } from './session-guard';

/**
 * The dashboard's Express router, outside the OpenAPI document (docs/dashboard.md): the
 * assets, the ALTCHA challenge of the sign-up form, and the pages of pages/index.ts: the dev
 * mailbox, and `/app` and below behind requireSession (session, then CSRF on every state
 * change). The account pages (/, /signup, /confirm, /login, /logout, /forgot, /reset) are
 * defineRoute operations in src/http/routes/sessions.ts and accounts.ts.
 */
export function dashboardRouter(ctx: AppContext): Router {
  const router = express.Router();
  router.use(assetsRouter());

  router.get('/signup/challenge', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await ctx.accounts.altcha.challenge());
  });

  const app = express.Router();
  // Signed-in pages show submissions, keys and tokens: none is kept by a cache.
  app.use(SESSION_AREA, noStore, requireSession(ctx), takeReveal(ctx));
  registerPages(app, PAGES, ctx);
  app.use(SESSION_AREA, appNotFound, appErrorPage(ctx.logger));
  router.use(app);
  return router;
}
