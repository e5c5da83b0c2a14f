import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { Plugin } from '../src/db/entities';
import type { Orm } from '../src/db/orm';
import { findWebhookSourceRow } from '../src/db/sql/submissions';
import { upsertAttempt } from '../src/db/sql/delivery-attempts';
import { signatureHeaders } from '../src/domain/webhooks/signatures';
import { webhookBody, type WebhookSource } from '../src/domain/webhooks/webhook-body';
import type { SigningSecretCipher } from '../src/domain/plugins/signing-secret';
import type { WebhookSender } from '../src/domain/webhooks/webhook-sender';
import {
  DELIVERY_FAILED,
  PLUGIN_UNAVAILABLE,
  type DeliveryOutcome,
  type WebhookDeliveryInput,
} from '../workflows/submission-contract';

const HEARTBEAT_EVERY_MS = 1_000;

/** The failure Temporal expects from a cancelled activity (the signal's reason). */
function cancellationOf(context: Context): unknown {
  const reason: unknown = context.cancellationSignal.reason;
  return reason instanceof Error ? reason : new CancelledFailure('webhook attempt cancelled');
}

export type WebhookActivities = {
  deliverWebhook(input: WebhookDeliveryInput): Promise<DeliveryOutcome>;
};

async function loadSource(em: EntityManager, submissionId: string): Promise<WebhookSource | null> {
  const row = await findWebhookSourceRow(em, submissionId);
  if (!row) return null;
  return {
    submissionId: String(row.id),
    createdAt: new Date(row.created_at),
    formEndpointToken: row.endpoint_token,
    formName: row.name,
    sourceIp: row.source_ip,
    userAgent: row.user_agent,
    referrer: row.referrer,
    payload: row.payload_json,
  };
}

/**
 * One attempt of a webhook delivery (docs/webhook-delivery.md), run by Temporal with the retry policy
 * of the workflow. The plugin's URL and secret are read now, so a rotation applies to the
 * very next attempt and a deleted or disabled plugin stops its retries. The attempt records
 * itself before it reports, whatever happened.
 */
export function createWebhookActivities(deps: {
  orm: Orm;
  sender: WebhookSender;
  logger: Logger;
  signingSecrets: SigningSecretCipher;
}): WebhookActivities {
  return {
    async deliverWebhook(input) {
      const context = Context.current();
      const info = context.info;
      // Temporal counts this run's attempts; a recovery numbers on after the recorded ones.
      const attempt = (input.attemptOffset ?? 0) + info.attempt;
      const log = deps.logger.child({
        submissionId: input.submissionId,
        pluginId: input.pluginId,
        deliveryId: input.deliveryId,
        attempt,
      });
      const em = deps.orm.em.fork();
      const plugin = await em.findOne(Plugin, { id: input.pluginId });
      if (!plugin || plugin.deletedAt || !plugin.enabled || !plugin.signingSecret) {
        log.info('plugin deleted or disabled: delivery stopped');
        throw ApplicationFailure.nonRetryable(
          'the plugin was deleted or disabled; delivery stopped',
          PLUGIN_UNAVAILABLE,
        );
      }
      const source = await loadSource(em, input.submissionId);
      if (!source) {
        throw ApplicationFailure.nonRetryable(
          'the submission no longer exists',
          PLUGIN_UNAVAILABLE,
        );
      }

      const body = webhookBody(source);
      const timestamp = Math.floor(Date.now() / 1000);
      const secret = deps.signingSecrets.open(plugin.signingSecret);
      const startedAt = new Date();
      // Temporal delivers a cancellation (workflow cancelled, worker shutting down) only in
      // answer to a heartbeat; the SDK throttles these, so beating often costs nothing.
      context.heartbeat();
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
      const result = await deps.sender
        .send({
          signal: context.cancellationSignal,
          url: String(plugin.config.url),
          body,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Formward-Webhooks/1',
            'x-formward-delivery': input.deliveryId,
            'x-formward-attempt': String(attempt),
            ...signatureHeaders(secret, input.deliveryId, timestamp, body),
          },
        })
        .finally(() => clearInterval(beat));

      const final =
        result.ok ||
        input.mode === 'test' ||
        result.failure === 'blocked_address' ||
        info.attempt >= input.maxAttempts;
      await upsertAttempt(em, {
        deliveryId: input.deliveryId,
        submissionId: input.submissionId,
        pluginId: input.pluginId,
        attempt,
        status: result.ok ? 'succeeded' : final ? 'failed' : 'pending_retry',
        httpStatus: result.statusCode,
        error: result.error,
        durationMs: result.durationMs,
        responseBody: result.responseBody,
        isReplay: input.mode === 'replay',
        isTest: input.mode === 'test',
        workflowId: info.workflowExecution?.workflowId ?? '',
        workflowRunId: info.workflowExecution?.runId ?? '',
        startedAt,
        finishedAt: new Date(),
      });

      // Recorded above like any failed attempt; Temporal is told it was cancelled, not failed.
      if (result.failure === 'cancelled') throw cancellationOf(context);

      const outcome: DeliveryOutcome = {
        pluginId: input.pluginId,
        deliveryId: input.deliveryId,
        ok: result.ok,
        statusCode: result.statusCode,
        error: result.error,
        durationMs: result.durationMs,
        attempt: info.attempt, // this run's attempts, as the workflow's summary counts them
      };
      if (result.ok) {
        log.info(
          { statusCode: result.statusCode, durationMs: result.durationMs },
          'webhook delivered',
        );
        return outcome;
      }
      log.warn(
        { statusCode: result.statusCode, error: result.error, final },
        'webhook attempt failed',
      );
      const message = result.error ?? 'delivery failed';
      throw final
        ? ApplicationFailure.nonRetryable(message, DELIVERY_FAILED, outcome)
        : ApplicationFailure.retryable(message, DELIVERY_FAILED, outcome);
    },
  };
}
