import type { Logger } from 'pino';
import type { Orm } from '../src/db/orm';
import type { Mailer } from '../src/domain/mail/mailer';
import type { SigningSecretCipher } from '../src/domain/plugins/signing-secret';
import type { WebhookSender } from '../src/domain/webhooks/webhook-sender';
import { createDeliveryPlanActivities } from './delivery-plan';
import { createNotificationActivities } from './notification-email';
import { createRecoveryActivities } from './recovery';
import { createSpamActivities } from './spam';
import { createWebhookActivities } from './webhook-delivery';

export type ActivityDeps = {
  orm: Orm;
  logger: Logger;
  sender: WebhookSender;
  mailer: Mailer;
  /** Opens the sealed webhook signing secrets. */
  signingSecrets: SigningSecretCipher;
  /** Public API URL, for links in notification e-mails. */
  baseUrl: string;
};

/** Every activity the worker registers, bound to the process's ORM, sender and mailer. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createSpamActivities(deps.orm),
    ...createDeliveryPlanActivities(deps.orm),
    ...createWebhookActivities(deps),
    ...createNotificationActivities(deps),
    ...createRecoveryActivities(deps.orm),
  };
}
