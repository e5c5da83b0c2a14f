// Pure (imported by workflow code: no Node built-ins, no side effects, and by the starters):
// each plugin type's delivery, the activity that makes one attempt and that activity's
// timeout and retry policy, in one table. A new type adds one line to DELIVERY_KINDS; its
// declaration lives in its plugin folder. test/plugins/registry.test.ts checks the
// domain's declarations and the worker's activities against this table.
import type { RetryPolicy } from '@temporalio/common';
import { PLUGIN_UNAVAILABLE, SMTP_REJECTED_FAILURE } from './failure-types';

/**
 * The delivery policy from the WEBHOOK_* knobs: webhooks use it as it is, Slack and Discord
 * derive theirs from it (below). Passed in with each workflow because
 * workflow code reads no environment.
 */
export type DeliveryPolicy = {
  initialIntervalMs: number;
  backoffCoefficient: number;
  /** 1 + retries: the specification's "up to 3 retries" is 4. */
  maxAttempts: number;
  /** One attempt's limit: connect + read timeouts and a margin. */
  attemptTimeoutMs: number;
};

/** The WEBHOOK_* knobs a policy is made of (docs/configuration.md). */
export type WebhookTimings = {
  connectTimeoutMs: number;
  readTimeoutMs: number;
  retryInitialIntervalMs: number;
  retryBackoffCoefficient: number;
};

/** The specification's connect and read timeouts; src/config/config.ts's WEBHOOK_* defaults. */
export const DEFAULT_WEBHOOK_TIMINGS: WebhookTimings = {
  connectTimeoutMs: 3_000,
  readTimeoutMs: 5_000,
  retryInitialIntervalMs: 30_000,
  retryBackoffCoefficient: 4,
};

/** 1 + up to 3 retries (specification, "Delivery rules"). */
export const WEBHOOK_MAX_ATTEMPTS = 4;
/** Room beyond the connect and read timeouts for loading the plugin and recording the attempt. */
const ATTEMPT_MARGIN_MS = 5_000;

/** The one derivation of a delivery policy from the webhook knobs. */
export function deliveryPolicyFor(timings: WebhookTimings): DeliveryPolicy {
  return {
    initialIntervalMs: timings.retryInitialIntervalMs,
    backoffCoefficient: timings.retryBackoffCoefficient,
    maxAttempts: WEBHOOK_MAX_ATTEMPTS,
    // Headers and body each have the read timeout.
    attemptTimeoutMs: timings.connectTimeoutMs + 2 * timings.readTimeoutMs + ATTEMPT_MARGIN_MS,
  };
}

/** What a workflow started without a policy uses: the defaults, 18 s an attempt. */
export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = deliveryPolicyFor(DEFAULT_WEBHOOK_TIMINGS);

/**
 * Temporal's retry policy for one delivery: exponential backoff from the policy, capped at the
 * interval before the last retry, and never a retry for a plugin that is gone.
 */
export function webhookRetryPolicy(policy: DeliveryPolicy, maxAttempts: number): RetryPolicy {
  return {
    initialInterval: policy.initialIntervalMs,
    backoffCoefficient: policy.backoffCoefficient,
    maximumInterval: policy.initialIntervalMs * policy.backoffCoefficient ** 3,
    maximumAttempts: maxAttempts,
    nonRetryableErrorTypes: [PLUGIN_UNAVAILABLE],
  };
}

/** The webhook activity's options: one attempt under `?test=true`, as every delivery there. */
export function webhookActivityPolicy(policy: DeliveryPolicy, test: boolean): PluginActivityPolicy {
  const maxAttempts = test ? 1 : policy.maxAttempts;
  return {
    maxAttempts,
    startToCloseTimeoutMs: policy.attemptTimeoutMs,
    retry: webhookRetryPolicy(policy, maxAttempts),
  };
}

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
 * 429 without `Retry-After` waits those 30 s (src/plugins/airtable/delivery.ts). The attempt is
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

/** A plugin type's delivery: its activity and that activity's timeout and retry policy. */
export type DeliveryKind = { activity: DeliveryActivityName; policy: PluginActivityPolicy };

type PolicyOf = (webhook: DeliveryPolicy, test: boolean) => PluginActivityPolicy;

/**
 * Each type's delivery activity, by the name the worker registers and histories record, and
 * its policy from the WEBHOOK_* knobs and whether the run is a `?test=true` one.
 */
const DELIVERY_KINDS = {
  webhook: { activity: 'deliverWebhook', policy: webhookActivityPolicy },
  email: {
    activity: 'deliverEmailPlugin',
    policy: (_webhook, test) => emailPluginActivityPolicy(test),
  },
  slack: { activity: 'deliverSlack', policy: chatActivityPolicy },
  discord: { activity: 'deliverDiscord', policy: chatActivityPolicy },
  teams: { activity: 'deliverTeams', policy: chatActivityPolicy },
  telegram: { activity: 'deliverTelegram', policy: chatActivityPolicy },
  google_sheets: { activity: 'deliverGoogleSheets', policy: googleSheetsActivityPolicy },
  airtable: { activity: 'deliverAirtable', policy: airtableActivityPolicy },
  notion: { activity: 'deliverNotion', policy: notionActivityPolicy },
} as const satisfies Record<string, { activity: string; policy: PolicyOf }>;

export type PluginTypeKey = keyof typeof DELIVERY_KINDS;
export type DeliveryActivityName = (typeof DELIVERY_KINDS)[PluginTypeKey]['activity'];

export const PLUGIN_TYPE_KEYS = Object.keys(DELIVERY_KINDS) as PluginTypeKey[];

/** Each type's delivery activity name. */
export const DELIVERY_ACTIVITY = Object.fromEntries(
  PLUGIN_TYPE_KEYS.map((key) => [key, DELIVERY_KINDS[key].activity]),
) as { [K in PluginTypeKey]: (typeof DELIVERY_KINDS)[K]['activity'] };

export function isPluginTypeKey(key: string): key is PluginTypeKey {
  return Object.prototype.hasOwnProperty.call(DELIVERY_KINDS, key);
}

/**
 * The delivery of a planned plugin, or undefined when this worker has none for its type (a
 * type it does not know, or any type but webhook in a run from before the other types).
 */
export function deliveryKindOf(
  pluginType: string,
  webhook: DeliveryPolicy,
  test: boolean,
  typed: boolean,
): DeliveryKind | undefined {
  if (!isPluginTypeKey(pluginType) || (!typed && pluginType !== 'webhook')) return undefined;
  const kind = DELIVERY_KINDS[pluginType];
  return { activity: kind.activity, policy: kind.policy(webhook, test) };
}
