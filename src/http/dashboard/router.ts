import express, { type Router } from 'express';
import type { AppContext } from '../../runtime/app-context';
import { noStore } from '../middleware/no-store';
import type { DashboardPages } from './app-page';
import { appErrorPage, appNotFound } from './app-errors';
import { assetsRouter } from './assets';
import { apiKeyPages } from './pages/api-keys';
import { deliveryPages } from './pages/deliveries';
import { devMailboxPages } from './pages/dev-mailbox';
import { formPages } from './pages/forms';
import { overviewPages } from './pages/overview';
import { recoveryPages } from './pages/recoveries';
import { settingsPages } from './pages/settings';
import { statsPages } from './pages/stats';
import { submissionPages } from './pages/submissions';
import { webhookPages } from './pages/webhooks';
import { pluginTypePages } from './pages/plugin-types';
import { takeReveal } from './reveal-once';
import { requireSession } from './session-guard';

/** Every signed-in page module, in the order their routes are tried. Add new pages here. */
const APP_PAGES: readonly DashboardPages[] = [
  overviewPages,
  settingsPages,
  apiKeyPages,
  formPages,
  submissionPages,
  webhookPages,
  pluginTypePages,
  deliveryPages,
  recoveryPages,
  statsPages,
];

/**
 * The dashboard's Express router, outside the OpenAPI document (docs/dashboard.md): the
 * assets, the ALTCHA challenge of the sign-up form, the dev mailbox, and `/app` and below
 * behind requireSession (session, then CSRF on every state change). The account pages
 * (/, /signup, /confirm, /login, /logout, /forgot, /reset) are defineRoute operations in
 * src/http/routes/sessions.ts and accounts.ts.
 */
export function dashboardRouter(ctx: AppContext): Router {
  const router = express.Router();
  router.use(assetsRouter());

  router.get('/signup/challenge', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await ctx.accounts.altcha.challenge());
  });
  devMailboxPages(router, ctx);

  const app = express.Router();
  // Signed-in pages show submissions, keys and tokens: none is kept by a cache.
  app.use('/app', noStore, requireSession(ctx), takeReveal(ctx));
  for (const pages of APP_PAGES) pages(app, ctx);
  app.use('/app', appNotFound, appErrorPage(ctx.logger));
  router.use(app);
  return router;
}
