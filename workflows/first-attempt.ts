// Pure: a plugin delivery's first attempt as a local activity, the rest as the durable one.
// A local activity costs the Temporal server a marker instead of an activity task, and most
// deliveries succeed on the first attempt (docs/webhook-delivery.md, "The Temporal design").
import {
  ApplicationFailure,
  TimeoutFailure,
  type ActivityOptions,
  type LocalActivityOptions,
} from '@temporalio/common';
import { msToNumber } from '@temporalio/common/lib/time';
import { failedSummary, failureOf } from './delivery-summary';
import { MAX_RETRY_AFTER_MS, type PluginActivityPolicy } from './delivery-kinds';
import type { DeliverySummary, DeliveryTarget, DeliveryInput } from './submission-contract';

/** What an activity failure wraps: the activity's own failure, or its timeout. */
const causeOf = (error: unknown): unknown =>
  error instanceof Error && error.cause instanceof Error ? error.cause : error;

/** The durable activity's options for a plugin type's policy. */
export function durableOptions(policy: PluginActivityPolicy): ActivityOptions {
  return { startToCloseTimeout: policy.startToCloseTimeoutMs, retry: policy.retry };
}

/**
 * The first attempt: the type's timeout, and no retry of its own (the retries are the durable
 * activity's). An attempt longer than the workflow task timeout is fine: the worker asks for a
 * new workflow task at 80% of it while the local activity runs ("workflow task heartbeating",
 * docs.temporal.io/local-activity), e.g. the e-mail plugin's 2 minutes.
 */
export function firstAttemptOptions(policy: PluginActivityPolicy): LocalActivityOptions {
  return { startToCloseTimeout: policy.startToCloseTimeoutMs, retry: { maximumAttempts: 1 } };
}

/**
 * How long to wait before the durable attempts after a failed first one, or null when there
 * is no retry: the failure cannot change (non-retryable, the plugin gone), the attempt was
 * the last one (`?test=true`), or it was cancelled. The receiver's `Retry-After` (carried in
 * the outcome, capped as the activity caps it) comes first, then the policy's first interval:
 * the schedule a receiver sees is the durable activity's own.
 */
export function delayBeforeRetries(policy: PluginActivityPolicy, error: unknown): number | null {
  if (policy.maxAttempts <= 1) return null;
  const cause = causeOf(error);
  const retryable =
    cause instanceof TimeoutFailure ||
    (cause instanceof ApplicationFailure &&
      !cause.nonRetryable &&
      !(policy.retry.nonRetryableErrorTypes ?? []).includes(cause.type ?? ''));
  if (!retryable) return null;
  const retryAfter = failureOf(error).outcome?.retryAfterMs;
  const delay =
    retryAfter != null && retryAfter <= MAX_RETRY_AFTER_MS
      ? retryAfter
      : msToNumber(policy.retry.initialInterval ?? 1_000);
  return Math.max(1, delay); // a workflow timer needs a positive duration
}

/**
 * The summary of a first attempt no retry follows. A timed-out one left no outcome, and a
 * local activity's failure does not say its attempts ran out as a regular one's does: it
 * was made all the same.
 */
export function firstAttemptFailedSummary(
  target: DeliveryTarget,
  deliveryId: string,
  error: unknown,
): DeliverySummary {
  const summary = failedSummary(target, deliveryId, error, 1);
  return causeOf(error) instanceof TimeoutFailure ? { ...summary, attempts: 1 } : summary;
}

/**
 * The durable activity after the first attempt: one attempt fewer, and backoff that goes on
 * from the second interval, so attempt 3 comes `initialInterval × coefficient` after attempt 2
 * as it did when Temporal made every attempt.
 */
export function laterAttemptsPolicy(policy: PluginActivityPolicy): PluginActivityPolicy {
  const maxAttempts = policy.maxAttempts - 1;
  const { retry } = policy;
  const coefficient = retry.backoffCoefficient ?? 2;
  const initialInterval = msToNumber(retry.initialInterval ?? 1_000);
  return {
    maxAttempts,
    startToCloseTimeoutMs: policy.startToCloseTimeoutMs,
    retry: {
      ...retry,
      initialInterval: initialInterval * coefficient,
      // Temporal's default cap is 100× the initial interval: kept the first attempt's.
      maximumInterval: retry.maximumInterval ?? initialInterval * 100,
      maximumAttempts: maxAttempts,
    },
  };
}

/** The durable attempts' input: they number on after the first (and a recovery's) attempts. */
export function laterAttemptsInput(
  input: DeliveryInput,
  policy: PluginActivityPolicy,
): DeliveryInput {
  return {
    ...input,
    maxAttempts: policy.maxAttempts,
    attemptOffset: (input.attemptOffset ?? 0) + 1,
  };
}

/** The durable activity counts its own attempts; the summary counts the first one too. */
export function withFirstAttempt(summary: DeliverySummary): DeliverySummary {
  return { ...summary, attempts: summary.attempts + 1 };
}
