// Pure: the timeout and retry policy of each plugin type other than webhook (docs/plugins.md).
import type { RetryPolicy } from '@temporalio/common';
import type { DeliveryPolicy } from './delivery-policy';
import { PLUGIN_UNAVAILABLE, SMTP_REJECTED_FAILURE } from './submission-contract';

/** One plugin type's activity options: its attempt limit, timeout and retry policy. */
export type PluginActivityPolicy = {
  maxAttempts: number;
  startToCloseTimeoutMs: number;
  retry: RetryPolicy;
};

/**
 * Slack, Discord, Teams and Telegram go through the webhook sender, so an attempt has the
 * webhook's timeout. They throttle with 429 and `Retry-After` (honoured through nextRetryDelay),
 * so retries start sooner than a webhook's, at a third of its interval, and there is one more.
 */
export const CHAT_MAX_ATTEMPTS = 5;

export function chatActivityPolicy(webhook: DeliveryPolicy, test: boolean): PluginActivityPolicy {
  const maxAttempts = test ? 1 : CHAT_MAX_ATTEMPTS;
  const initialInterval = Math.max(1, Math.round(webhook.initialIntervalMs / 3));
  return {
    maxAttempts,
    startToCloseTimeoutMs: webhook.attemptTimeoutMs,
    retry: {
      initialInterval,
      backoffCoefficient: 2,
      maximumInterval: initialInterval * 2 ** (CHAT_MAX_ATTEMPTS - 2),
      maximumAttempts: maxAttempts,
      nonRetryableErrorTypes: [PLUGIN_UNAVAILABLE],
    },
  };
}

/** The e-mail plugin: the notification e-mail's policy (room for SMTP timeouts, 6 attempts). */
export const EMAIL_PLUGIN_MAX_ATTEMPTS = 6;

export function emailPluginActivityPolicy(test: boolean): PluginActivityPolicy {
  const maxAttempts = test ? 1 : EMAIL_PLUGIN_MAX_ATTEMPTS;
  return {
    maxAttempts,
    startToCloseTimeoutMs: 120_000,
    retry: {
      initialInterval: 30_000,
      backoffCoefficient: 2,
      maximumInterval: 600_000,
      maximumAttempts: maxAttempts,
      nonRetryableErrorTypes: [PLUGIN_UNAVAILABLE, SMTP_REJECTED_FAILURE],
    },
  };
}

/** A `Retry-After` longer than this is not waited for: the normal backoff applies. */
export const MAX_RETRY_AFTER_MS = 15 * 60_000;
