import type { Config } from '../config/config';
import type { DeliveryPolicy } from '../../workflows/submission-workflow';

/** 1 + up to 3 retries (specification, "Delivery rules"). */
const WEBHOOK_MAX_ATTEMPTS = 4;
/** Room beyond the connect and read timeouts for recording the attempt. */
const ATTEMPT_MARGIN_MS = 5_000;

/** The webhook retry policy from the WEBHOOK_* knobs, handed to each submission workflow. */
export function deliveryPolicy(config: Config): DeliveryPolicy {
  const { connectTimeoutMs, readTimeoutMs } = config.webhook;
  return {
    initialIntervalMs: config.webhook.retryInitialIntervalMs,
    backoffCoefficient: config.webhook.retryBackoffCoefficient,
    maxAttempts: WEBHOOK_MAX_ATTEMPTS,
    // Headers and body each have the read timeout.
    attemptTimeoutMs: connectTimeoutMs + 2 * readTimeoutMs + ATTEMPT_MARGIN_MS,
  };
}
