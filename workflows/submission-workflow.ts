import { patched, proxyActivities, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
// Only types cross into workflow code, plus pure helpers: activities run outside the sandbox.
import type { DeliveryPlanActivities } from '../activities/delivery-plan';
import type { DiscordActivities } from '../activities/discord-delivery';
import type { EmailPluginActivities } from '../activities/email-plugin-delivery';
import type { NotificationActivities } from '../activities/notification-email';
import type { SlackActivities } from '../activities/slack-delivery';
import type { SpamActivities } from '../activities/spam';
import type { WebhookActivities } from '../activities/webhook-delivery';
import { deliveryIdOf } from '../src/domain/webhooks/delivery-ids';
import { DATABASE_STEP } from './database-step';
import {
  DEFAULT_DELIVERY_POLICY,
  webhookRetryPolicy,
  type DeliveryPolicy,
} from './delivery-policy';
import {
  deliveredSummary,
  failedSummary,
  failureOf,
  notDeliveredSummary,
} from './delivery-summary';
import {
  chatActivityPolicy,
  emailPluginActivityPolicy,
  type PluginActivityPolicy,
} from './plugin-policies';
import type {
  DeliveryOutcome,
  DeliverySummary,
  DeliveryTarget,
  NotificationResult,
  SpamVerdict,
  SubmissionWorkflowInput,
  SubmissionWorkflowResult,
  WebhookDeliveryInput,
} from './submission-contract';

// The commands this workflow issues are the released ones (commit f520858): a change of them
// goes behind `patched()` (test/fixtures/workflow-histories/README.md).
const { checkSpam } = proxyLocalActivities<SpamActivities>(DATABASE_STEP);
const { planDeliveries } = proxyLocalActivities<DeliveryPlanActivities>(DATABASE_STEP);

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

  const spam = mode === 'replay' ? NOT_CHECKED : await checkSpam(submissionId);
  if (spam.isSpam) return { submissionId, mode, spam, deliveries: [], notification: null };

  const maxAttempts = mode === 'test' ? 1 : policy.maxAttempts;
  const { deliverWebhook } = proxyActivities<WebhookActivities>({
    startToCloseTimeout: policy.attemptTimeoutMs,
    retry: webhookRetryPolicy(policy, maxAttempts),
  });

  // A recovery (docs/recovery.md) delivers to its one plugin and plans nothing. Runs without
  // `recover` issue exactly the commands they always did, so no patched() marker is needed:
  // the recorded histories still replay (test/temporal/workflow-replay.test.ts).
  const { recover } = input;
  const { targets, notify } = recover
    ? { targets: [{ pluginId: recover.pluginId, pluginType: recover.pluginType }], notify: false }
    : await planDeliveries(submissionId);
  const { runId } = workflowInfo();
  // Runs started before the e-mail, Slack and Discord activities existed reported those
  // types as not delivered; they keep doing so when replayed (test/fixtures/workflow-histories).
  const typed = patched('plugin-types');
  const pluginActivities = typed ? pluginTypeActivities(policy, mode === 'test') : {};
  const deliveries = targets.map(async (target): Promise<DeliverySummary> => {
    const deliveryId = recover?.deliveryId ?? deliveryIdOf(runId, target.pluginId);
    const activity =
      target.pluginType === 'webhook'
        ? { deliver: deliverWebhook, maxAttempts }
        : pluginActivities[target.pluginType];
    if (!activity) return notDeliveredSummary(target);
    try {
      const outcome = await activity.deliver({
        submissionId,
        pluginId: target.pluginId,
        deliveryId,
        mode,
        maxAttempts: activity.maxAttempts,
        ...(recover && { attemptOffset: recover.attemptOffset }),
      });
      return deliveredSummary(target, deliveryId, outcome);
    } catch (error) {
      return failedSummary(target, deliveryId, error, activity.maxAttempts);
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

type DeliveryActivity = {
  deliver(input: WebhookDeliveryInput): Promise<DeliveryOutcome>;
  maxAttempts: number;
};

function proxiesOf<T>(policy: PluginActivityPolicy) {
  return proxyActivities<T>({
    startToCloseTimeout: policy.startToCloseTimeoutMs,
    retry: policy.retry,
  });
}

/** The delivery activity of each plugin type beside webhook, each with its own policy. */
function pluginTypeActivities(
  webhook: DeliveryPolicy,
  test: boolean,
): Partial<Record<DeliveryTarget['pluginType'], DeliveryActivity>> {
  const chat = chatActivityPolicy(webhook, test);
  const email = emailPluginActivityPolicy(test);
  return {
    slack: {
      deliver: proxiesOf<SlackActivities>(chat).deliverSlack,
      maxAttempts: chat.maxAttempts,
    },
    discord: {
      deliver: proxiesOf<DiscordActivities>(chat).deliverDiscord,
      maxAttempts: chat.maxAttempts,
    },
    email: {
      deliver: proxiesOf<EmailPluginActivities>(email).deliverEmailPlugin,
      maxAttempts: email.maxAttempts,
    },
  };
}
