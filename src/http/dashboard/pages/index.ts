import type { AnyPage } from '../define-page';
import { accountDeletionPages } from './account-deletion';
import { accountPages } from './accounts';
import { apiKeyPages } from './api-keys';
import { auditPages } from './audit';
import { deliveryPages } from './deliveries';
import { devMailboxPages } from './dev-mailbox';
import { domainFormPages } from './domain-forms';
import { domainPages } from './domains';
import { formActionPages } from './form-actions';
import { formCaptchaPages } from './form-captcha';
import { formAutoresponsePages } from './form-autoresponse';
import { formPages } from './forms';
import { formBuilderPages } from './form-builder';
import { formSectionPages } from './form-sections';
import { invitationOfferPages } from './invitation-offers';
import { invitationPages } from './invitations';
import { invitationUnsubscribePages } from './invitation-unsubscribe';
import { oidcSignInPages } from './oidc-sign-in';
import { overviewPages } from './overview';
import { passwordResetPages } from './password-reset';
import { legacyPluginPages } from './legacy-plugin-paths';
import { pluginActionPages } from './plugin-actions';
import { pluginSettingsPages } from './plugin-settings';
import { pluginPages } from './plugins';
import { recipientPages } from './recipients';
import { recoveryPages } from './recoveries';
import { settingsPages } from './settings';
import { signInPages } from './sign-in';
import { signUpPages } from './sign-up';
import { statsPages } from './stats';
import { submissionActionPages } from './submission-actions';
import { submissionExportPages } from './submission-export';
import { submissionPages } from './submissions';
import { memberRemovalPages } from './member-removal';
import { teamPages } from './team';

/**
 * Every dashboard page (definePage), in matching order: a fixed path such as
 * `/app/forms/new` or `/app/submissions/erase` before `/app/forms/:id` or
 * `/app/submissions/:id`. dashboardRouter registers them from this list; add new pages here.
 * The signed-out pages come first; those with a `document` are also in the API reference
 * (OPERATIONS, src/http/routes/index.ts), in this order.
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
