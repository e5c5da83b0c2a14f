import type { AnyRoute } from '../routing/define-route';
import { accountRoutes } from './accounts';
import { apiRootRoutes } from './api-root';
import { deliveryRoutes } from './deliveries';
import { docsRoutes } from './docs';
import { formRoutes } from './forms';
import { healthRoutes } from './health';
import { ingestRoutes } from './ingest';
import { pluginRoutes } from './plugins';
import { publicRoutes } from './public';
import { recipientRoutes } from './recipients';
import { recoveryRoutes } from './recoveries';
import { sessionRoutes } from './sessions';
import { statsRoutes } from './stats';
import { submissionRoutes } from './submissions';

/**
 * Every operation of the HTTP surface, in matching order (a fixed path such as
 * `/api/submissions/spam` before `/api/submissions/{id}`). The app, the OpenAPI document and
 * /docs are all built from this list.
 */
export const ROUTES: readonly AnyRoute[] = [
  ...healthRoutes,
  ...ingestRoutes,
  ...sessionRoutes,
  ...accountRoutes,
  ...recipientRoutes,
  ...docsRoutes(() => ROUTES),
  ...publicRoutes,
  ...apiRootRoutes,
  ...formRoutes,
  ...pluginRoutes,
  ...submissionRoutes,
  ...deliveryRoutes,
  ...recoveryRoutes,
  ...statsRoutes,
];
