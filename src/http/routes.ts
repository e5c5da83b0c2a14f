import type { AnyOperation, AnyRoute } from './kit/routing/define-route';
import type { AnyPage } from './kit/routing/define-page';
import { accountDeletionPages } from './account/account-deletion-pages';
import { accountPages } from './account/accounts-pages';
import { apiKeyPages } from './account/api-keys-pages';
import { auditLogRoutes } from './account/audit-log-api';
import { auditPages } from './account/audit-pages';
import { devMailboxPages } from './account/dev-mailbox-pages';
import { invitationOfferPages } from './account/invitation-offers-pages';
import { invitationUnsubscribePages } from './account/invitation-unsubscribe-pages';
import { invitationPages } from './account/invitations-pages';
import { memberRemovalPages } from './account/member-removal-pages';
import { oidcSignInPages } from './account/oidc-sign-in-pages';
import { passwordResetPages } from './account/password-reset-pages';
import { settingsPages } from './account/settings-pages';
import { signInPages } from './account/sign-in-pages';
import { signUpPages } from './account/sign-up-pages';
import { teamPages } from './account/team-pages';
import { apiRootRoutes } from './docs/api-root-api';
import { docsRoutes } from './docs/docs-api';
import { domainFormPages } from './domains/domain-forms-pages';
import { domainRoutes } from './domains/domains-api';
import { domainPages } from './domains/domains-pages';
import { publicRoutes } from './domains/public-api';
import { formActionPages } from './forms/form-actions-pages';
import { formAutoresponsePages } from './forms/form-autoresponse-pages';
import { formBuilderPages } from './forms/form-builder-pages';
import { formCaptchaPages } from './forms/form-captcha-pages';
import { formSchemaRoutes } from './forms/form-schema-api';
import { formSectionPages } from './forms/form-sections-pages';
import { formRoutes } from './forms/forms-api';
import { formPages } from './forms/forms-pages';
import { healthRoutes } from './health';
import { captchaIngestRoutes } from './ingest/captcha-ingest-api';
import { formPageRoutes } from './ingest/form-page-api';
import { ingestRoutes } from './ingest/ingest-api';
import { jwksRoutes } from './ingest/jwks-api';
import { manageChangeRoutes } from './manage/manage-changes-api';
import { manageRoutes } from './manage/manage-api';
import { pageOperations } from './kit/routing/page-operations';
import { legacyPluginPages } from './plugins/legacy-plugin-paths-pages';
import { pluginActionPages } from './plugins/plugin-actions-pages';
import { pluginSettingsPages } from './plugins/plugin-settings-pages';
import { pluginRoutes } from './plugins/plugins-api';
import { pluginPages } from './plugins/plugins-pages';
import { recipientPages } from './plugins/recipients-pages';
import { recoveryRoutes } from './plugins/recoveries-api';
import { recoveryPages } from './plugins/recoveries-pages';
import { overviewPages } from './stats/overview-pages';
import { statsRoutes } from './stats/stats-api';
import { statsPages } from './stats/stats-pages';
import { deliveryRoutes } from './submissions/deliveries-api';
import { deliveryPages } from './submissions/deliveries-pages';
import { submissionActionPages } from './submissions/submission-actions-pages';
import { submissionExportPages } from './submissions/submission-export-pages';
import { submissionRoutes } from './submissions/submissions-api';
import { submissionVersionRoutes } from './submissions/submission-versions-api';
import { submissionPages } from './submissions/submissions-pages';

/*
 * The one list of the HTTP surface: every API operation (ROUTES, defineRoute) and every
 * dashboard page (PAGES, definePage), each in matching order, from the areas' files
 * (src/http/<area>/*-api.ts and *-pages.ts). app.ts registers both from here; OPERATIONS, what
 * the OpenAPI document and /docs describe, is built from the same two lists.
 */

/**
 * Every dashboard page (definePage), in matching order: a fixed path such as
 * `/app/forms/new` or `/app/submissions/erase` before `/app/forms/:id` or
 * `/app/submissions/:id`. app.ts hands this list to dashboardRouter, which registers it; add
 * new pages here. The signed-out pages come first; those with a `document` are also in the
 * API reference (OPERATIONS below), in this order.
 */
export const PAGES: readonly AnyPage[] = [
  ...signInPages,
  ...oidcSignInPages,
  ...signUpPages,
  ...passwordResetPages,
  ...recipientPages,
  ...invitationPages,
  ...invitationUnsubscribePages,
  ...overviewPages,
  ...settingsPages,
  ...apiKeyPages,
  ...teamPages,
  ...memberRemovalPages,
  ...invitationOfferPages,
  ...accountPages,
  ...accountDeletionPages,
  ...auditPages,
  ...formPages,
  ...formSectionPages,
  ...formBuilderPages,
  ...formActionPages,
  ...formCaptchaPages,
  ...formAutoresponsePages,
  ...submissionActionPages,
  ...submissionPages,
  ...submissionExportPages,
  ...pluginPages,
  ...pluginActionPages,
  ...legacyPluginPages,
  ...pluginSettingsPages,
  ...deliveryPages,
  ...recoveryPages,
  ...statsPages,
  ...domainPages,
  ...domainFormPages,
  ...devMailboxPages,
];

// In the document, the dashboard's signed-out pages sit between these two parts (OPERATIONS).
const PROBE_AND_INGEST_ROUTES = [
  ...healthRoutes,
  ...formPageRoutes,
  ...ingestRoutes,
  ...captchaIngestRoutes,
  ...jwksRoutes,
  ...manageRoutes,
  ...manageChangeRoutes,
];
const DOCS_AND_API_ROUTES = [
  ...docsRoutes(() => OPERATIONS),
  ...publicRoutes,
  ...apiRootRoutes,
  ...formRoutes,
  ...formSchemaRoutes,
  ...pluginRoutes,
  ...domainRoutes,
  ...submissionRoutes,
  ...submissionVersionRoutes,
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
 * pages that declare a `document` (tag Dashboard; PAGES above, registerPages).
 */
export const OPERATIONS: readonly AnyOperation[] = [
  ...PROBE_AND_INGEST_ROUTES,
  ...pageOperations(PAGES),
  ...DOCS_AND_API_ROUTES,
];
