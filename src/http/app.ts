import './express-augment';
import express, { type Express } from 'express';
import type { AppContext } from '../app-context';
import { authenticate } from './middleware/authenticate';
import { entityManagerPerRequest } from './middleware/entity-manager';
import { errorHandler, notFoundHandler } from './middleware/errors';
import { apiRootRouter } from './routes/api-root';
import { deliveriesRouter } from './routes/deliveries';
import { docsRouter } from './routes/docs';
import { formsRouter } from './routes/forms';
import { healthRouter } from './routes/health';
import { ingestRouter } from './routes/ingest';
import { pluginsRouter } from './routes/plugins';
import { publicRouter } from './routes/public';
import { sessionsRouter } from './routes/sessions';
import { statsRouter } from './routes/stats';
import { submissionsRouter } from './routes/submissions';

/** The whole HTTP surface: ingest, pages, public endpoints, then the authenticated API. */
export function createApp(
  ctx: AppContext,
  options: { checkTemporal: () => Promise<void> },
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.trustProxy);
  app.use(entityManagerPerRequest(ctx.orm));

  app.use(healthRouter(ctx, options.checkTemporal));
  app.use(ingestRouter(ctx));
  app.use(sessionsRouter(ctx));
  app.use(docsRouter(ctx));
  app.use(publicRouter(ctx));

  app.use('/api', authenticate(ctx.urls));
  app.use(apiRootRouter(ctx));
  app.use(formsRouter(ctx));
  app.use(pluginsRouter(ctx));
  app.use(submissionsRouter(ctx));
  app.use(deliveriesRouter(ctx));
  app.use(statsRouter(ctx));

  app.use(notFoundHandler);
  app.use(errorHandler(ctx.urls, ctx.logger));
  return app;
}
