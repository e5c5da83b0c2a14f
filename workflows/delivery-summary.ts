// Pure: how the workflow turns a delivery activity's result or failure into its summary.
import { ActivityFailure, ApplicationFailure, RetryState } from '@temporalio/common';
import type { DeliveryOutcome, DeliverySummary, DeliveryTarget } from './submission-contract';

/** The failure an activity threw, with the details it attached (its DeliveryOutcome). */
export function failureOf(error: unknown): { message: string; outcome: DeliveryOutcome | null } {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure) {
    const [details] = (cause.details ?? []) as [DeliveryOutcome | undefined];
    return { message: cause.message, outcome: details ?? null };
  }
  return { message: (cause as Error)?.message ?? String(cause), outcome: null };
}

/**
 * Attempts made when the last one left no outcome. A timed-out attempt carries none, but
 * Temporal says why it stopped retrying: with every attempt used, there were `maxAttempts`.
 * A failure without retries exhausted and without an outcome (the plugin was gone) made none.
 */
function attemptsWithoutOutcome(error: unknown, maxAttempts: number): number {
  const exhausted =
    error instanceof ActivityFailure && error.retryState === RetryState.MAXIMUM_ATTEMPTS_REACHED;
  return exhausted ? maxAttempts : 0;
}

export function deliveredSummary(
  target: DeliveryTarget,
  deliveryId: string,
  outcome: DeliveryOutcome,
): DeliverySummary {
  return {
    pluginId: target.pluginId,
    pluginType: target.pluginType,
    ok: true,
    statusCode: outcome.statusCode,
    error: null,
    durationMs: outcome.durationMs,
    attempts: outcome.attempt,
    deliveryId,
  };
}

export function failedSummary(
  target: DeliveryTarget,
  deliveryId: string,
  error: unknown,
  maxAttempts: number,
): DeliverySummary {
  const { message, outcome } = failureOf(error);
  return {
    pluginId: target.pluginId,
    pluginType: target.pluginType,
    ok: false,
    statusCode: outcome?.statusCode ?? null,
    error: outcome?.error ?? message,
    durationMs: outcome?.durationMs ?? null,
    attempts: outcome?.attempt ?? attemptsWithoutOutcome(error, maxAttempts),
    deliveryId,
  };
}

/** A plugin type this version has no delivery activity for: reported, never attempted. */
export function notDeliveredSummary(target: DeliveryTarget): DeliverySummary {
  return {
    pluginId: target.pluginId,
    pluginType: target.pluginType,
    ok: false,
    statusCode: null,
    error: `plugin type ${target.pluginType} is not delivered by this version`,
    durationMs: null,
    attempts: 0,
    deliveryId: null,
  };
}
