import { patched, proxyActivities, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
// Only types cross into workflow code, plus pure helpers: activities run outside the sandbox.
import type { DeliveryPlanActivities } from '../activities/delivery-plan';
import type { NotificationActivities } from '../activities/notification-email';
import type { SpamActivities } from '../activities/spam';
import type { WebhookActivities } from '../activities/webhook-delivery';
import { deliveryIdOf } from '../src/domain/webhooks/delivery-ids';
import { DEFAULT_DELIVERY_POLICY, webhookRetryPolicy } from './delivery-policy';
import {
  deliveredSummary,
  failedSummary,
  failureOf,
  notDeliveredSummary,
} from './delivery-summary';
import type {
  DeliveryPlan,
  DeliverySummary,
  LegacyDeliveryTargetActivities,
  NotificationResult,
  SpamVerdict,
  SubmissionWorkflowInput,
  SubmissionWorkflowResult,
} from './submission-contract';

/**
 * Patch ids: each names a change of the commands this workflow issues, so runs started before
 * it replay the old commands (test/fixtures/workflow-histories/README.md).
 *
 * `local-database-steps`: the spam check and the delivery plan run as local activities, and the
 * e-mail activity is scheduled only when the form has addresses. Before: the regular
 * activities `checkSpam` and `listDeliveryTargets`, and the e-mail always scheduled.
 */
export const LOCAL_DATABASE_STEPS = 'local-database-steps';

/** Database-only steps: quick, and retried patiently through a database restart. */
const databaseStep = {
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '1m',
    maximumAttempts: 20,
  },
} as const;

type DatabaseSteps = {
  checkSpam(submissionId: string): Promise<SpamVerdict>;
  planDeliveries(submissionId: string): Promise<DeliveryPlan>;
};

/** Local activities: in the worker, without a round trip through the Temporal server each. */
const { checkSpam } = proxyLocalActivities<SpamActivities>(databaseStep);
const { planDeliveries } = proxyLocalActivities<DeliveryPlanActivities>(databaseStep);
const localDatabaseSteps: DatabaseSteps = { checkSpam, planDeliveries };

/** The steps before `local-database-steps`: regular activities, and always an e-mail. */
const { checkSpam: checkSpamActivity } = proxyActivities<SpamActivities>(databaseStep);
const { listDeliveryTargets } = proxyActivities<LegacyDeliveryTargetActivities>(databaseStep);
const legacyDatabaseSteps: DatabaseSteps = {
  checkSpam: checkSpamActivity,
  // The e-mail activity itself skips a form without addresses.
  planDeliveries: async (submissionId) => ({
    targets: await listDeliveryTargets(submissionId),
    notify: true,
  }),
};

// Room for the mailer's SMTP timeouts (connect, greeting, idle).
const notificationTimeouts = { startToCloseTimeout: '2m' } as const;
const { sendNotificationEmail } = proxyActivities<NotificationActivities>({
  ...notificationTimeouts,
  retry: {
    initialInterval: '30s',
    backoffCoefficient: 2,
    maximumInterval: '10m',
    maximumAttempts: 6,
  },
});
/** `?test=true` waits for the result, so its e-mail gets one attempt, like its deliveries. */
const { sendNotificationEmail: sendTestNotificationEmail } =
  proxyActivities<NotificationActivities>({
    ...notificationTimeouts,
    retry: { maximumAttempts: 1 },
  });

const NOT_CHECKED: SpamVerdict = { isSpam: false, reason: null };

/** The form has no notification addresses: the e-mail activity is not scheduled at all. */
const NOBODY_TO_NOTIFY: NotificationResult = {
  sent: false,
  recipients: [],
  messageId: null,
  skipped: 'no_recipients',
};

/**
 * One workflow per submission (`submission-{id}`, or `submission-{id}-replay-…`): the spam
 * check, then every enabled plugin in parallel, each delivery an activity with its own
 * timeout and retry policy, and the form's notification e-mail beside them. One failure
 * never stops the others: all are settled and summarised.
 */
export async function submissionWorkflow(
  input: SubmissionWorkflowInput,
): Promise<SubmissionWorkflowResult> {
  const mode = input.mode ?? 'live';
  const policy = input.delivery ?? DEFAULT_DELIVERY_POLICY;
  const { submissionId } = input;
  // Asked once, before the first command: a later call would answer true in the same old run.
  const steps = patched(LOCAL_DATABASE_STEPS) ? localDatabaseSteps : legacyDatabaseSteps;

  const spam = mode === 'replay' ? NOT_CHECKED : await steps.checkSpam(submissionId);
  if (spam.isSpam) return { submissionId, mode, spam, deliveries: [], notification: null };

  const maxAttempts = mode === 'test' ? 1 : policy.maxAttempts;
  const { deliverWebhook } = proxyActivities<WebhookActivities>({
    startToCloseTimeout: policy.attemptTimeoutMs,
    retry: webhookRetryPolicy(policy, maxAttempts),
  });

  const { targets, notify } = await steps.planDeliveries(submissionId);
  const { runId } = workflowInfo();
  const deliveries = targets.map(async (target): Promise<DeliverySummary> => {
    if (target.pluginType !== 'webhook') return notDeliveredSummary(target);
    const deliveryId = deliveryIdOf(runId, target.pluginId);
    try {
      const outcome = await deliverWebhook({
        submissionId,
        pluginId: target.pluginId,
        deliveryId,
        mode,
        maxAttempts,
      });
      return deliveredSummary(target, deliveryId, outcome);
    } catch (error) {
      return failedSummary(target, deliveryId, error, maxAttempts);
    }
  });

  const sendEmail = mode === 'test' ? sendTestNotificationEmail : sendNotificationEmail;
  const notification =
    mode === 'replay'
      ? null
      : !notify
        ? NOBODY_TO_NOTIFY
        : sendEmail(submissionId).catch((error: unknown) => ({
            sent: false as const,
            error: failureOf(error).message,
          }));

  return {
    submissionId,
    mode,
    spam,
    deliveries: await Promise.all(deliveries),
    notification: await notification,
  };
}
