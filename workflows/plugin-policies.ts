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

/**
 * Google Sheets: one attempt is up to seven requests (token, header, grid, header write,
 * append) and may wait for another delivery adding columns, so it gets four webhook
 * attempts' time. Write quotas are per minute: six attempts from a third of the webhook's
 * first interval, doubling (10 s to 160 s by default), outlast a quota minute; a 429's
 * `Retry-After` sets the next delay when Google sends one.
 */
export const GOOGLE_SHEETS_MAX_ATTEMPTS = 6;

export function googleSheetsActivityPolicy(
  webhook: DeliveryPolicy,
  test: boolean,
): PluginActivityPolicy {
  const maxAttempts = test ? 1 : GOOGLE_SHEETS_MAX_ATTEMPTS;
  const initialInterval = Math.max(1, Math.round(webhook.initialIntervalMs / 3));
  return {
    maxAttempts,
    startToCloseTimeoutMs: 4 * webhook.attemptTimeoutMs,
    retry: {
      initialInterval,
      backoffCoefficient: 2,
      maximumInterval: initialInterval * 2 ** (GOOGLE_SHEETS_MAX_ATTEMPTS - 2),
      maximumAttempts: maxAttempts,
      nonRetryableErrorTypes: [PLUGIN_UNAVAILABLE],
    },
  };
}

/** A `Retry-After` longer than this is not waited for: the normal backoff applies. */
export const MAX_RETRY_AFTER_MS = 15 * 60_000;

/**
 * Airtable allows 5 requests a second per base and asks a client it answered 429 to wait
 * 30 seconds: retries start at the webhook's first interval (30 s by default), double, and a
 * 429 without `Retry-After` waits those 30 s (activities/airtable-delivery.ts). The attempt is
 * one request, so it has the webhook's timeout.
 */
export const AIRTABLE_MAX_ATTEMPTS = 5;

export function airtableActivityPolicy(
  webhook: DeliveryPolicy,
  test: boolean,
): PluginActivityPolicy {
  const maxAttempts = test ? 1 : AIRTABLE_MAX_ATTEMPTS;
  return {
    maxAttempts,
    startToCloseTimeoutMs: webhook.attemptTimeoutMs,
    retry: {
      initialInterval: webhook.initialIntervalMs,
      backoffCoefficient: 2,
      maximumInterval: webhook.initialIntervalMs * 2 ** (AIRTABLE_MAX_ATTEMPTS - 2),
      maximumAttempts: maxAttempts,
      nonRetryableErrorTypes: [PLUGIN_UNAVAILABLE],
    },
  };
}

/**
 * Notion averages 3 requests a second per integration and says when to come back (429 with
 * `Retry-After`): retries as Slack's. An attempt may make two requests (the database's
 * properties, then the page), so it has twice the webhook's timeout.
 */
export const NOTION_MAX_ATTEMPTS = 5;

export function notionActivityPolicy(webhook: DeliveryPolicy, test: boolean): PluginActivityPolicy {
  const chat = chatActivityPolicy(webhook, test);
  return {
    ...chat,
    maxAttempts: test ? 1 : NOTION_MAX_ATTEMPTS,
    startToCloseTimeoutMs: 2 * webhook.attemptTimeoutMs,
    retry: { ...chat.retry, maximumAttempts: test ? 1 : NOTION_MAX_ATTEMPTS },
  };
}
