import './express-augment';
import express, { type Express } from 'express';
import type { AppContext } from '../runtime/app-context';
import { dashboardRouter } from './kit/chrome/router';
import { authenticate } from './kit/middleware/authenticate';
import { entityManagerPerRequest } from './kit/middleware/entity-manager';
import { errorHandler, notFoundHandler } from './kit/middleware/errors';
import { hostRouting } from './kit/middleware/host-routing';
import { noStore } from './kit/middleware/no-store';
import { requestMetrics } from './kit/middleware/request-metrics';
import { securityHeaders } from './kit/middleware/security-headers';
import { PAGES, ROUTES } from './routes';
import { ingestPosts } from './ingest/ingest-api';
import { directDispatch } from './kit/routing/direct-dispatch';
import type { AnyRoute } from './kit/routing/define-route';
import { registerRoutes } from './kit/routing/register-routes';

const isPublic = (route: AnyRoute) => route.access === 'public';

/**
 * The whole HTTP surface: host routing (custom domains), the public routes (ingest, pages, documentation, public endpoints),
 * then authentication (and `Cache-Control: no-store`) for everything under /api, then the
 * authenticated API. `strictAnswers`
 * (tests) answers 500 `undeclared_answer` for an error a route does not declare.
 */
export function createApp(
  ctx: AppContext,
  options: { checkTemporal: () => Promise<void>; strictAnswers: boolean },
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.trustProxy);
  app.use(requestMetrics());
  app.use(securityHeaders(ctx.urls.base));
  entityManagerPerRequest(app, ctx.orm);
  // Before every route: a custom domain reaches only its form pages (docs/custom-domains.md).
  app.use(hostRouting(ctx));

  const routeCtx = { ...ctx, checkTemporal: options.checkTemporal };
  const publicPaths = new Set(ROUTES.filter(isPublic).map((route) => route.path));
  for (const route of ROUTES.filter((r) => !isPublic(r))) {
    // The 405 of a path lists all its methods, so a path is public or authenticated as a whole.
    if (publicPaths.has(route.path) || !route.path.startsWith('/api'))
      throw new Error(
        `${route.operationId}: authenticated routes live under /api, alone on a path`,
      );
  }
  // The ingest posts skip the router's walk; the router keeps them for any other spelling.
  app.use(directDispatch(ingestPosts, routeCtx));
  registerRoutes(app, ROUTES.filter(isPublic), routeCtx);
  app.use(dashboardRouter(ctx, PAGES));
  // Everything under /api past the public routes answers for an account: never cached.
  app.use('/api', noStore, authenticate(ctx.urls, ctx.accounts.sessions));
  registerRoutes(
    app,
    ROUTES.filter((route) => !isPublic(route)),
    routeCtx,
  );

  app.use(notFoundHandler);
  app.use(errorHandler(ctx.urls, ctx.logger, { strictAnswers: options.strictAnswers }));
  return app;
}
