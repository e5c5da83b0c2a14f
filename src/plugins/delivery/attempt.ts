import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm';
import type { ProviderUrls } from '../../config/config';
import type { DeliverableRow, StoredFileRow } from '../../db/sql/workflow-step-reads';
import type { SpecialFields } from '../../db/entities/submission';
import type { Mailer } from '../../domain/mail/mailer';
import type { UnsubscribeTokens } from '../../domain/recipients/unsubscribe-tokens';
import type { SigningSecretCipher } from '../../domain/secrets/signing-secret';
import type { OutboundSender, SendResult } from '../../outbound/sender';
import type { DeliveryInput } from '../../../workflows/submission-contract';
import type { PluginHealthDeps } from '../manage/plugin-health';
import type { WebhookSource } from '../webhook/webhook-body';

/*
 * What one delivery attempt of any type is handed and hands back. The steps around it (load
 * the plugin and the submission, open the config, log, record, settle) are the same for every
 * type: src/plugins/deliveries.ts runs them; a type's delivery.ts only sends.
 */

/** What the worker gives every type's delivery (activities/index.ts fills it in). */
export type PluginDeliveryDeps = PluginHealthDeps & {
  orm: Orm;
  sender: OutboundSender;
  /** Opens the sealed webhook signing secrets. */
  signingSecrets: SigningSecretCipher;
  /** Opens plugins' sealed tokens and keys (src/plugins/manage/plugin-secrets.ts). */
  pluginSecrets: SigningSecretCipher;
  /** Seals the one-click unsubscribe link of every mail to a recipient. */
  unsubscribeTokens: UnsubscribeTokens;
  /** ACCOUNT_MAIL_PER_HOUR. */
  mailPerHour: number;
  /** The third-party plugin APIs' base URLs (GOOGLE_SHEETS_API_URL and the others). */
  providerUrls: ProviderUrls;
  mailer: Mailer;
};

/** What an attempt reads of the submission beyond the webhook body: its form and special fields. */
export type DeliverableSubmission = {
  form: { id: string; accountId: string; name: string };
  specialNormalized: SpecialFields | null;
};

/** One attempt as a type's delivery gets it: the plugin, its config opened and typed, the submission. */
export type Attempt<C> = {
  input: DeliveryInput;
  em: EntityManager;
  plugin: DeliverableRow['plugin'];
  config: C;
  /** The submission as the plugin is sent it (its `include_fields` only). */
  source: WebhookSource;
  submission: DeliverableSubmission;
  /** The uploads' metadata, when the type `reads` them (e-mail); else empty. */
  files: StoredFileRow[];
  /** The form's field names (null: free-form), when the type `reads` them (Google Sheets). */
  formFieldNames: string[] | null;
};

/** An attempt's result as recorded: the sender's, or the mailer's in the same shape. */
export type AttemptResult = Omit<SendResult, 'failure'> & { failure: string | null };

/** What an attempt did, for the shared steps to log, record and settle. */
export type AttemptDone = {
  result: AttemptResult;
  /** A refusal that cannot change by retrying. */
  permanent: boolean;
  /** What a success did, for the log: `row appended`. */
  delivered: string;
  /** Secrets the attempt got beyond its config (an access token): never recorded. */
  secrets?: readonly string[];
  /** The failure type Temporal is told (workflows/failure-types.ts); DELIVERY_FAILED if absent. */
  failureType?: string;
};

/** A type's delivery, bound to the worker's dependencies: one attempt, sent and read. */
export type DeliverAttempt<C> = (attempt: Attempt<C>) => Promise<AttemptDone>;
