import {
  patched,
  proxyActivities,
  proxyLocalActivities,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
// Workflow code imports only from this folder: the activities' types and pure helpers.
import type {
  DeliveryPlanActivities,
  NotificationActivities,
  PluginDeliveryActivities,
  RetentionActivities,
  SpamActivities,
} from './activity-contracts';
import { deliveryIdOf } from './delivery-ids';
import { sendAutoresponseStep } from './autoresponse-step';
import { DATABASE_STEP } from './database-step';
import { DEFAULT_DELIVERY_POLICY, type DeliveryPolicy } from './delivery-kinds';
import {
  deliveredSummary,
  failedSummary,
  failureOf,
  notDeliveredSummary,
} from './delivery-summary';
import {
  delayBeforeRetries,
  durableOptions,
  firstAttemptFailedSummary,
  firstAttemptOptions,
  laterAttemptsInput,
  laterAttemptsPolicy,
  withFirstAttempt,
} from './first-attempt';
import { deliveryKindOf, type DeliveryKind } from './delivery-kinds';
import {
  REDELIVERY,
  type DeletedSubmission,
  type DeliveryInput,
  type DeliveryPlan,
  type DeliverySummary,
  type DeliveryTarget,
  type NotificationResult,
  type SpamVerdict,
  type SubmissionWorkflowInput,
  type SubmissionWorkflowResult,
} from './submission-contract';

// The commands this workflow issues are the released ones (commit f520858): a change of them
// goes behind `patched()` (test/fixtures/workflow-histories/README.md).
const { checkSpam } = proxyLocalActivities<SpamActivities>(DATABASE_STEP);
const { planDeliveries, planDeletionDeliveries } =
  proxyLocalActivities<DeliveryPlanActivities>(DATABASE_STEP);
const { deleteDeliveredSubmission } = proxyLocalActivities<RetentionActivities>(DATABASE_STEP);

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
 * timeout and retry policy (its first attempt a local one), and the form's notification
 * e-mail beside them. One failure
 * never stops the others: all are settled and summarised.
 */
export async function submissionWorkflow(
  input: SubmissionWorkflowInput,
): Promise<SubmissionWorkflowResult> {
  const mode = input.mode ?? 'live';
  const policy = input.delivery ?? DEFAULT_DELIVERY_POLICY;
  const { submissionId } = input;

  // A submitter's delete (docs/manage-links.md): its own commands, only in runs started with
  // it, so every recorded history replays as before.
  if (input.event === 'submission.deleted' && input.deleted && patched('submission-events'))
    return deliverDeletion(input, input.deleted, policy);

  const spam = mode === REDELIVERY ? NOT_CHECKED : await checkSpam(submissionId);
  if (spam.isSpam) return { submissionId, mode, spam, deliveries: [], notification: null };

  const test = mode === 'test';
  // A recovery (docs/recovery.md) delivers to its one plugin and plans nothing. Runs without
  // `recover` issue exactly the commands they always did, so no patched() marker is needed:
  // the recorded histories still replay (test/temporal/workflow-replay.test.ts).
  const { recover } = input;
  const plan: DeliveryPlan = recover
    ? { targets: [{ pluginId: recover.pluginId, pluginType: recover.pluginType }], notify: false }
    : await planDeliveries(submissionId, mode);
  const { targets, notify, autorespond } = plan;
  const { runId } = workflowInfo();
  // Runs started before the e-mail, Slack and Discord activities existed reported those
  // types as not delivered; they keep doing so when replayed (test/fixtures/workflow-histories).
  const typed = patched('plugin-types');
  // Runs started before it made every attempt a regular activity, and still do.
  const deliver = patched('local-first-attempt') ? deliverLocalFirst : deliverDurably;
  const deliveries = targets.map(async (target): Promise<DeliverySummary> => {
    const kind = deliveryKindOf(target.pluginType, policy, test, typed);
    if (!kind) return notDeliveredSummary(target);
    const deliveryId = recover?.deliveryId ?? deliveryIdOf(runId, target.pluginId);
    return deliver(kind, target, {
      submissionId,
      pluginId: target.pluginId,
      deliveryId,
      mode,
      maxAttempts: kind.policy.maxAttempts,
      ...(recover && { attemptOffset: recover.attemptOffset }),
      // A submitter's edit (docs/manage-links.md); the same commands, only the input grows.
      ...(input.event && { event: input.event }),
    });
  });

  const sendEmail = mode === 'test' ? sendTestNotificationEmail : sendNotificationEmail;
  const notification =
    mode === REDELIVERY
      ? null
      : !notify
        ? NOBODY_TO_NOTIFY
        : sendEmail(submissionId).catch((error: unknown) => ({
            sent: false as const,
            error: failureOf(error).message,
          }));

  // Only when the plan has one to send; runs started before it existed never do.
  const autoresponse =
    mode !== REDELIVERY && autorespond === true && patched('autoresponse')
      ? sendAutoresponseStep(submissionId, runId, mode)
      : undefined;

  const result = {
    submissionId,
    mode,
    spam,
    deliveries: await Promise.all(deliveries),
    notification: await notification,
    ...(autoresponse && { autoresponse: await autoresponse }),
  };
  // Last: delete_after_delivery (docs/retention.md), when the form asks for it and every delivery
  // of this run succeeded; the activity checks all the submission's deliveries. Should it fail
  // (or a recovery, which plans nothing, succeed), the hourly purge deletes it. Runs started
  // before it end as they did.
  const delivered = result.deliveries.length > 0 && result.deliveries.every((d) => d.ok);
  if (plan.deleteAfterDelivery && delivered && patched('delete-after-delivery')) {
    await deleteDeliveredSubmission(submissionId).catch(() => false);
  }
  return result;
}

/**
 * `submission.deleted` to the form's enabled webhooks (planDeletionDeliveries), each with the
 * deleted submission's ids only; no spam check, plan records or e-mail: its row is gone.
 */
async function deliverDeletion(
  input: SubmissionWorkflowInput,
  deleted: DeletedSubmission,
  policy: DeliveryPolicy,
): Promise<SubmissionWorkflowResult> {
  const { submissionId } = input;
  const { runId } = workflowInfo();
  const targets = await planDeletionDeliveries(deleted.formId);
  const deliveries = targets.map(async (target): Promise<DeliverySummary> => {
    const kind = deliveryKindOf(target.pluginType, policy, false, true);
    if (!kind) return notDeliveredSummary(target);
    return deliverLocalFirst(kind, target, {
      submissionId,
      pluginId: target.pluginId,
      deliveryId: deliveryIdOf(runId, target.pluginId),
      mode: REDELIVERY,
      maxAttempts: kind.policy.maxAttempts,
      event: 'submission.deleted',
      deleted,
    });
  });
  return {
    submissionId,
    mode: REDELIVERY,
    spam: NOT_CHECKED,
    deliveries: await Promise.all(deliveries),
    notification: null,
  };
}

/** Every attempt a regular activity, retried by Temporal; one failure settles the summary. */
async function deliverDurably(
  { activity, policy }: DeliveryKind,
  target: DeliveryTarget,
  input: DeliveryInput,
): Promise<DeliverySummary> {
  try {
    const outcome = await proxyActivities<PluginDeliveryActivities>(durableOptions(policy))[
      activity
    ](input);
    return deliveredSummary(target, input.deliveryId, outcome);
  } catch (error) {
    return failedSummary(target, input.deliveryId, error, policy.maxAttempts);
  }
}

/**
 * The first attempt a local activity (a marker in the history, no activity task); when it
 * fails and may be retried, a timer of the first retry interval (or the receiver's
 * `Retry-After`), then the other attempts as the regular activity, numbered on after it.
 */
async function deliverLocalFirst(
  kind: DeliveryKind,
  target: DeliveryTarget,
  input: DeliveryInput,
): Promise<DeliverySummary> {
  const { activity, policy } = kind;
  try {
    const local = proxyLocalActivities<PluginDeliveryActivities>(firstAttemptOptions(policy));
    return deliveredSummary(target, input.deliveryId, await local[activity](input));
  } catch (error) {
    const delay = delayBeforeRetries(policy, error);
    if (delay === null) return firstAttemptFailedSummary(target, input.deliveryId, error);
    await sleep(delay);
    const later = laterAttemptsPolicy(policy);
    const summary = await deliverDurably(
      { activity, policy: later },
      target,
      laterAttemptsInput(input, later),
    );
    return withFirstAttempt(summary);
  }
}
