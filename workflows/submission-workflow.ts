import {
  ActivityFailure,
  ApplicationFailure,
  proxyActivities,
  proxyLocalActivities,
  workflowInfo,
} from '@temporalio/workflow';
// Only types cross into workflow code, plus pure helpers: activities run outside the sandbox.
import type { DeliveryPlanActivities } from '../activities/delivery-plan';
import type { NotificationActivities, NotificationResult } from '../activities/notification-email';
import type { SpamActivities, SpamVerdict } from '../activities/spam';
import type {
  DeliveryMode,
  DeliveryOutcome,
  WebhookActivities,
} from '../activities/webhook-delivery';
import { deliveryIdOf } from '../src/domain/webhooks/delivery-ids';

/** The webhook retry policy (decisions §1 knobs), passed in because workflow code reads no environment. */
export type DeliveryPolicy = {
  initialIntervalMs: number;
  backoffCoefficient: number;
  /** 1 + retries: the specification's "up to 3 retries" is 4. */
  maxAttempts: number;
  /** One attempt's limit: connect + read timeouts and a margin. */
  attemptTimeoutMs: number;
};

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  initialIntervalMs: 30_000,
  backoffCoefficient: 4,
  maxAttempts: 4,
  attemptTimeoutMs: 20_000,
};

export type SubmissionWorkflowInput = {
  submissionId: string;
  /** live (ingest), test (`?test=true`: one attempt each), replay (deliver again, no spam check, no e-mail). */
  mode?: DeliveryMode;
  delivery?: DeliveryPolicy;
};

/** Decisions §7's delivery summary, plus the attempts made and the delivery id. */
export type DeliverySummary = {
  plugin_id: string;
  plugin_type: string;
  ok: boolean;
  status_code: number | null;
  error: string | null;
  duration_ms: number | null;
  attempts: number;
  delivery_id: string | null;
};

export type SubmissionWorkflowResult = {
  submissionId: string;
  mode: DeliveryMode;
  spam: SpamVerdict;
  deliveries: DeliverySummary[];
  notification: NotificationResult | { sent: false; error: string } | null;
};

/**
 * Database-only steps run as local activities: in the worker, without a round trip through
 * the Temporal server each, and retried patiently through a database restart.
 */
const databaseStep = {
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '1m',
    maximumAttempts: 20,
  },
} as const;
const { checkSpam } = proxyLocalActivities<SpamActivities>(databaseStep);
const { planDeliveries } = proxyLocalActivities<DeliveryPlanActivities>(databaseStep);

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

/** The form has no notification addresses: the e-mail activity is not scheduled at all. */
const NOBODY_TO_NOTIFY: NotificationResult = {
  sent: false,
  recipients: [],
  messageId: null,
  skipped: 'no_recipients',
};

/** The failure an activity threw, with the details it attached (its DeliveryOutcome). */
function outcomeOf(error: unknown): { message: string; outcome: DeliveryOutcome | null } {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure) {
    const [details] = (cause.details ?? []) as [DeliveryOutcome | undefined];
    return { message: cause.message, outcome: details ?? null };
  }
  return { message: (cause as Error)?.message ?? String(cause), outcome: null };
}

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

  const spam: SpamVerdict =
    mode === 'replay' ? { isSpam: false, reason: null } : await checkSpam(submissionId);
  if (spam.isSpam) return { submissionId, mode, spam, deliveries: [], notification: null };

  const maxAttempts = mode === 'test' ? 1 : policy.maxAttempts;
  const { deliverWebhook } = proxyActivities<WebhookActivities>({
    startToCloseTimeout: policy.attemptTimeoutMs,
    retry: {
      initialInterval: policy.initialIntervalMs,
      backoffCoefficient: policy.backoffCoefficient,
      maximumInterval: policy.initialIntervalMs * policy.backoffCoefficient ** 3,
      maximumAttempts: maxAttempts,
      nonRetryableErrorTypes: ['PluginUnavailable'],
    },
  });

  const { targets, notify } = await planDeliveries(submissionId);
  const { runId } = workflowInfo();
  const deliveries = targets.map(async (target): Promise<DeliverySummary> => {
    const summary = { plugin_id: target.pluginId, plugin_type: target.pluginType };
    if (target.pluginType !== 'webhook') {
      return {
        ...summary,
        ok: false,
        status_code: null,
        error: `plugin type ${target.pluginType} is not delivered by this version`,
        duration_ms: null,
        attempts: 0,
        delivery_id: null,
      };
    }
    const deliveryId = deliveryIdOf(runId, target.pluginId);
    try {
      const outcome = await deliverWebhook({
        submissionId,
        pluginId: target.pluginId,
        deliveryId,
        mode,
        maxAttempts,
      });
      return {
        ...summary,
        ok: true,
        status_code: outcome.statusCode,
        error: null,
        duration_ms: outcome.durationMs,
        attempts: outcome.attempt,
        delivery_id: deliveryId,
      };
    } catch (error) {
      const { message, outcome } = outcomeOf(error);
      return {
        ...summary,
        ok: false,
        status_code: outcome?.statusCode ?? null,
        error: outcome?.error ?? message,
        duration_ms: outcome?.durationMs ?? null,
        attempts: outcome?.attempt ?? 0,
        delivery_id: deliveryId,
      };
    }
  });

  const notification =
    mode === 'replay'
      ? null
      : !notify
        ? NOBODY_TO_NOTIFY
        : (mode === 'test' ? sendTestNotificationEmail : sendNotificationEmail)(submissionId).catch(
            (error: unknown) => ({
              sent: false as const,
              error: outcomeOf(error).message,
            }),
          );

  return {
    submissionId,
    mode,
    spam,
    deliveries: await Promise.all(deliveries),
    notification: await notification,
  };
}
