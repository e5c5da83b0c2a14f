import { PAGES } from '../dashboard/pages';
import { pageOperations } from '../dashboard/page-operations';
import type { AnyOperation, AnyRoute } from '../routing/define-route';
import { apiRootRoutes } from './api-root';
import { auditLogRoutes } from './audit-log';
import { captchaIngestRoutes } from './captcha-ingest';
import { deliveryRoutes } from './deliveries';
import { docsRoutes } from './docs';
import { domainRoutes } from './domains';
import { formRoutes } from './forms';
import { healthRoutes } from './health';
import { ingestRoutes } from './ingest';
import { pluginRoutes } from './plugins';
import { publicRoutes } from './public';
import { recoveryRoutes } from './recoveries';
import { statsRoutes } from './stats';
import { submissionRoutes } from './submissions';

// In the document, the dashboard's signed-out pages sit between these two parts (OPERATIONS).
const PROBE_AND_INGEST_ROUTES = [...healthRoutes, ...ingestRoutes, ...captchaIngestRoutes];
const DOCS_AND_API_ROUTES = [
  ...docsRoutes(() => OPERATIONS),
  ...publicRoutes,
  ...apiRootRoutes,
  ...formRoutes,
  ...pluginRoutes,
  ...domainRoutes,
  ...submissionRoutes,
  ...deliveryRoutes,
  ...recoveryRoutes,
  ...statsRoutes,
  ...auditLogRoutes,
];

/**
 * Every operation of the HTTP surface, in matching order (a fixed path such as
 * `/api/submissions/spam` before `/api/submissions/{id}`). The app registers them from this
 * list; the OpenAPI document and /docs describe OPERATIONS.
 */
export const ROUTES: readonly AnyRoute[] = [...PROBE_AND_INGEST_ROUTES, ...DOCS_AND_API_ROUTES];

/**
 * What the OpenAPI document and /docs describe: every route, and the signed-out dashboard
 * pages that declare a `document` (tag Dashboard; src/http/dashboard/pages, registerPages).
 */
export const OPERATIONS: readonly AnyOperation[] = [
  ...PROBE_AND_INGEST_ROUTES,
  ...pageOperations(PAGES),
  ...DOCS_AND_API_ROUTES,
];
