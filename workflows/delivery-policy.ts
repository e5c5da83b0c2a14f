// Pure: imported by workflow code (no Node built-ins, no side effects) and by the starters.
import type { RetryPolicy } from '@temporalio/common';
import type { PluginActivityPolicy } from './plugin-policies';
import { PLUGIN_UNAVAILABLE } from './submission-contract';

/**
 * The delivery policy from the WEBHOOK_* knobs: webhooks use it as it is, Slack and Discord
 * derive theirs from it (workflows/plugin-policies.ts). Passed in with each workflow because
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
