import type { Logger } from 'pino';
import type { ProviderUrls } from '../src/config/config';
import type { Orm } from '../src/db/orm';
import type { Mailer } from '../src/domain/mail/mailer';
import type { PluginHealthPolicy } from '../src/plugins/manage/plugin-health';
import type { AddressKeys } from '../src/domain/mail/address-keys';
import type { UnsubscribeTokens } from '../src/domain/recipients/unsubscribe-tokens';
import type { Receipts } from '../src/domain/receipts/receipts';
import type { SigningSecretCipher } from '../src/domain/secrets/signing-secret';
import type { OutboundSender } from '../src/outbound/sender';
import { pluginDeliveryActivities } from '../src/plugins/deliveries';
import { createAutoresponseActivities } from './autoresponse';
import { createDeliveryPlanActivities } from './delivery-plan';
import { createNotificationActivities } from './notification-email';
import { createRecoveryActivities } from './recovery';
import { createRetentionActivities } from './retention';
import { createSpamActivities } from './spam';

export type ActivityDeps = {
  orm: Orm;
  logger: Logger;
  sender: OutboundSender;
  mailer: Mailer;
  /** Opens the sealed webhook signing secrets. */
  signingSecrets: SigningSecretCipher;
  /** Opens plugins' sealed tokens and keys (src/plugins/manage/plugin-secrets.ts). */
  pluginSecrets: SigningSecretCipher;
  /** Public API URL, for links in notification e-mails. */
  baseUrl: string;
  /** INGEST_URL: the manage link in the autoresponse (docs/manage-links.md). */
  ingestUrl: string;
  /** When a failing plugin is disabled (docs/endpoint-health.md). */
  pluginHealth: PluginHealthPolicy;
  /** Seals the one-click unsubscribe link of every mail to a recipient. */
  unsubscribeTokens: UnsubscribeTokens;
  /** Keys the addresses and networks the autoresponse caps count. */
  addressKeys: AddressKeys;
  /** Signs the receipt the autoresponse carries (docs/receipts.md). */
  receipts: Receipts;
  /** ACCOUNT_MAIL_PER_HOUR. */
  mailPerHour: number;
  /** AUTORESPONSE_INTERVAL (docs/autoresponse.md). */
  autoresponseIntervalMs: number;
  /** AUTORESPONSE_PER_ADDRESS and AUTORESPONSE_PER_CLIENT (docs/autoresponse.md). */
  autoresponseCaps: { perAddress: number; perClientHour: number };
  /** SPAM_RETENTION_DAYS (docs/retention.md). */
  spamRetentionDays: number;
  /** AUDIT_RETENTION_DAYS (docs/audit-log.md). */
  auditRetentionDays: number;
  /** The third-party plugin APIs' base URLs (GOOGLE_SHEETS_API_URL and the others). */
  providerUrls: ProviderUrls;
};

/** Every activity the worker registers, bound to the process's ORM, sender and mailer. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createSpamActivities(deps.orm),
    ...createDeliveryPlanActivities(deps.orm),
    ...createNotificationActivities(deps),
    ...pluginDeliveryActivities(deps),
    ...createAutoresponseActivities(deps),
    ...createRecoveryActivities(deps.orm),
    ...createRetentionActivities(deps),
  };
}
