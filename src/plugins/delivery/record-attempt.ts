import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordDeliveryHealth, type PluginHealthDeps } from '../manage/plugin-health';
import { upsertAttempt } from '../../db/sql/delivery-attempts';
import { recordDeliveryMetrics } from './delivery-metrics';
import { pluginSecretValues } from '../manage/plugin-secret-values';
import type { PluginConfig, PluginTypeDeclaration } from '../plugin-type';
import type { AttemptResult } from './attempt';
import { withoutSecrets } from './secret-free-result';
import { MAX_RETRY_AFTER_MS } from '../../../workflows/delivery-kinds';
import {
  REDELIVERY,
  type DeliveryOutcome,
  type DeliveryInput,
} from '../../../workflows/submission-contract';
import { DELIVERY_FAILED, DELIVERY_SKIPPED } from '../../../workflows/failure-types';
import { attemptNumberOf } from './attempt-number';

// An attempt's last step (src/plugins/deliveries.ts): the attempt recorded without a secret
// value, and Temporal told what next.

/**
 * The secret values an attempt of a plugin of `type` sends, from its opened config (its declaration
 * names them: plugin-secret-values.ts), and any the attempt got on the way (`more`: an access
 * token). recordAndSettle replaces each in what it records; a type's log line uses them too.
 */
export function attemptSecrets(
  type: PluginTypeDeclaration,
  opened: PluginConfig,
  more: readonly string[] = [],
): string[] {
  return [...pluginSecretValues(type, opened), ...more];
}

/** The result with every secret replaced (src/plugins/delivery/secret-free-result.ts). */
export function scrubbedResult(result: AttemptResult, secrets: readonly string[]): AttemptResult {
  return withoutSecrets(result, secrets);
}

/**
 * Records the attempt (the same delivery id for every retry), its error and answer without
 * the plugin's secret values (`secrets`: attemptSecrets), then returns the outcome or throws: retryable unless this was the last attempt, a test, or a refusal that cannot
 * change (`final`); a cancelled attempt is reported as cancelled. A `Retry-After` the
 * receiver sent becomes the next retry's delay. A settled delivery (succeeded, or failed for
 * good) counts towards the plugin's health (docs/endpoint-health.md).
 */
export async function recordAndSettle(
  em: EntityManager,
  input: DeliveryInput,
  sent: AttemptResult,
  options: {
    /** The plugin's secret values (attemptSecrets): never recorded, thrown or counted. */
    secrets: readonly string[];
    health: PluginHealthDeps;
    startedAt: Date;
    /** The plugin's type and when the submission was stored, for the metrics. */
    pluginType: string;
    storedAt: Date;
    permanent?: boolean;
    failureType?: string;
    /** The plugin as loadDeliverable read it: healthy and stamped within the last second. */
    recentlyHealthy?: boolean;
  },
): Promise<DeliveryOutcome> {
  const result = scrubbedResult(sent, options.secrets);
  const context = Context.current();
  const { info } = context;
  const final =
    result.ok ||
    input.mode === 'test' ||
    options.permanent === true ||
    info.attempt >= input.maxAttempts;
  // A deleted submission's delivery (docs/manage-links.md) has no row to log it under: the
  // log is the submission's, and went with it. Its outcome and health count all the same.
  if (!input.deleted)
    await upsertAttempt(em, {
      deliveryId: input.deliveryId,
      submissionId: input.submissionId,
      pluginId: input.pluginId,
      attempt: attemptNumberOf(input.attemptOffset),
      status: result.ok ? 'succeeded' : final ? 'failed' : 'pending_retry',
      httpStatus: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
      responseBody: result.responseBody,
      isReplay: input.mode === REDELIVERY,
      isTest: input.mode === 'test',
      workflowId: info.workflowExecution?.workflowId ?? '',
      workflowRunId: info.workflowExecution?.runId ?? '',
      startedAt: options.startedAt,
      finishedAt: new Date(),
    });
  // A cancelled attempt (workflow cancelled, worker stopping) says nothing of the receiver.
  if (result.failure !== 'cancelled') recordDeliveryMetrics(input, result, { ...options, final });
  if ((result.ok || final) && result.failure !== 'cancelled') {
    await recordDeliveryHealth(em, options.health, {
      pluginId: input.pluginId,
      pluginType: options.pluginType,
      ok: result.ok,
      final,
      mode: input.mode,
      recentlyHealthy: options.recentlyHealthy,
    });
  }

  // Recorded above like any failed attempt; Temporal is told it was cancelled, not failed.
  if (result.failure === 'cancelled') {
    const reason: unknown = context.cancellationSignal.reason;
    throw reason instanceof Error ? reason : new CancelledFailure('delivery attempt cancelled');
  }

  const outcome: DeliveryOutcome = {
    pluginId: input.pluginId,
    deliveryId: input.deliveryId,
    ok: result.ok,
    statusCode: result.statusCode,
    error: result.error,
    durationMs: result.durationMs,
    attempt: info.attempt, // this run's attempts, as the workflow's summary counts them
  };
  if (result.ok) return outcome;
  const message = result.error ?? 'delivery failed';
  const type = options.failureType ?? DELIVERY_FAILED;
  if (final) throw ApplicationFailure.nonRetryable(message, type, outcome);
  // A Retry-After within bounds sets the next retry; the outcome carries it too, since a
  // local first attempt's failure reaches the workflow without nextRetryDelay.
  const delay = result.retryAfterMs;
  const honoured = delay != null && delay <= MAX_RETRY_AFTER_MS;
  throw ApplicationFailure.create({
    message,
    type,
    details: [honoured ? { ...outcome, retryAfterMs: delay } : outcome],
    ...(honoured && { nextRetryDelay: delay }),
  });
}

/**
 * Records the attempt as `skipped` (nothing was sent, `reason` says why) and ends the delivery
 * without retry. It says nothing of the receiver, so the plugin's health is left alone; a
 * recovery (docs/recovery.md) can send it later.
 */
export async function recordSkippedAttempt(
  em: EntityManager,
  input: DeliveryInput,
  reason: string,
): Promise<never> {
  const { info } = Context.current();
  const now = new Date();
  await upsertAttempt(em, {
    deliveryId: input.deliveryId,
    submissionId: input.submissionId,
    pluginId: input.pluginId,
    attempt: attemptNumberOf(input.attemptOffset),
    status: 'skipped',
    httpStatus: null,
    error: reason,
    durationMs: 0,
    responseBody: null,
    isReplay: input.mode === REDELIVERY,
    isTest: input.mode === 'test',
    workflowId: info.workflowExecution?.workflowId ?? '',
    workflowRunId: info.workflowExecution?.runId ?? '',
    startedAt: now,
    finishedAt: now,
  });
  const outcome: DeliveryOutcome = {
    pluginId: input.pluginId,
    deliveryId: input.deliveryId,
    ok: false,
    statusCode: null,
    error: `skipped: ${reason}`,
    durationMs: 0,
    attempt: info.attempt,
  };
  throw ApplicationFailure.nonRetryable(`skipped: ${reason}`, DELIVERY_SKIPPED, outcome);
}
