// The activities as the workflows call them: the worker registers implementations of these
// (activities/index.ts). Declared here, beside the workflows, so workflow code imports nothing
// from outside this folder and activities/ implements what the workflows ask for.
import type {
  RecoveryPageInput,
  RecoveryPageResult,
  RecoveryProgressInput,
} from './recovery-contract';
import type { DeliveryActivityName } from './delivery-kinds';
import type { PurgeBatchInput, PurgeBatchResult, StaleRowsResult } from './retention-contract';
import type {
  AutoresponseInput,
  AutoresponseResult,
  DeliveryInput,
  DeliveryMode,
  DeliveryOutcome,
  DeliveryPlan,
  DeliveryTarget,
  NotificationResult,
  SpamVerdict,
} from './submission-contract';

/** The submission's first step: the spam verdict (activities/spam.ts). */
export type SpamActivities = {
  checkSpam(submissionId: string): Promise<SpamVerdict>;
};

/**
 * What to deliver (activities/delivery-plan.ts). `mode` is the run's own, so a re-delivery's
 * `skipped` records say so; runs recorded before it was passed call it without.
 */
export type DeliveryPlanActivities = {
  planDeliveries(submissionId: string, mode?: DeliveryMode): Promise<DeliveryPlan>;
  /**
   * The plugins a submitter's delete is delivered to (docs/manage-links.md): the form's
   * enabled webhooks.
   */
  planDeletionDeliveries(formId: string): Promise<DeliveryTarget[]>;
};

/**
 * One attempt of a plugin's delivery, one activity per type (delivery-kinds.ts names them;
 * src/plugins/deliveries.ts assembles them from each type's folder).
 */
export type PluginDeliveryActivities = Record<
  DeliveryActivityName,
  (input: DeliveryInput) => Promise<DeliveryOutcome>
>;

/** The form's notification e-mail (activities/notification-email.ts). */
export type NotificationActivities = {
  sendNotificationEmail(submissionId: string): Promise<NotificationResult>;
};

/** The thank-you mail to the submitter (activities/autoresponse.ts). */
export type AutoresponseActivities = {
  sendAutoresponse(input: AutoresponseInput): Promise<AutoresponseResult>;
};

/** The recovery workflow's database steps (activities/recovery.ts). */
export type RecoveryActivities = {
  recoveryPage(input: RecoveryPageInput): Promise<RecoveryPageResult>;
  recordRecoveryProgress(input: RecoveryProgressInput): Promise<void>;
};

/** The hourly purge and delete_after_delivery (activities/retention.ts). */
export type RetentionActivities = {
  purgeSubmissionBatch(input: PurgeBatchInput): Promise<PurgeBatchResult>;
  purgeStaleRows(): Promise<StaleRowsResult>;
  /** The submission workflow's last step: true when the submission was deleted. */
  deleteDeliveredSubmission(submissionId: string): Promise<boolean>;
};
