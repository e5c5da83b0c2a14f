import {
  ActivityFailure,
  ApplicationFailure,
  RetryState,
  TimeoutFailure,
  TimeoutType,
} from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { webhookActivityPolicy } from '../../workflows/delivery-kinds';
import {
  delayBeforeRetries,
  laterAttemptsInput,
  laterAttemptsPolicy,
} from '../../workflows/first-attempt';
import { emailPluginActivityPolicy } from '../../workflows/delivery-kinds';
import {
  DELIVERY_FAILED,
  PLUGIN_UNAVAILABLE,
  SMTP_REJECTED_FAILURE,
} from '../../workflows/failure-types';

const policy = webhookActivityPolicy(
  { initialIntervalMs: 30_000, backoffCoefficient: 4, maxAttempts: 4, attemptTimeoutMs: 18_000 },
  false,
);

/** A local attempt's failure as the workflow sees it: an ActivityFailure wrapping the cause. */
const failed = (cause: Error) =>
  new ActivityFailure(
    'activity failed',
    'deliverWebhook',
    '1',
    RetryState.MAXIMUM_ATTEMPTS_REACHED,
    'id',
    cause,
  );
const outcome = (fields = {}) => ({
  pluginId: 'p1',
  deliveryId: 'dlv',
  ok: false,
  statusCode: 503,
  error: 'HTTP 503',
  durationMs: 4,
  attempt: 1,
  ...fields,
});

describe('after a failed local first attempt', () => {
  it('waits the first interval, or the receiver\u2019s Retry-After up to the cap', () => {
    const plain = ApplicationFailure.retryable('HTTP 503', DELIVERY_FAILED, outcome());
    expect(delayBeforeRetries(policy, failed(plain))).toBe(30_000);
    const throttled = ApplicationFailure.retryable(
      'HTTP 429',
      DELIVERY_FAILED,
      outcome({ retryAfterMs: 2_000 }),
    );
    expect(delayBeforeRetries(policy, failed(throttled))).toBe(2_000);
    const tooLong = ApplicationFailure.retryable(
      'HTTP 429',
      DELIVERY_FAILED,
      outcome({ retryAfterMs: 60 * 60_000 }),
    );
    expect(delayBeforeRetries(policy, failed(tooLong))).toBe(30_000);
    expect(
      delayBeforeRetries(
        policy,
        failed(new TimeoutFailure('timed out', null, TimeoutType.START_TO_CLOSE)),
      ),
    ).toBe(30_000);
  });

  it('does not retry what cannot change, nor a single-attempt (test) delivery', () => {
    const gone = ApplicationFailure.retryable('disabled', PLUGIN_UNAVAILABLE);
    expect(delayBeforeRetries(policy, failed(gone))).toBeNull();
    const last = ApplicationFailure.nonRetryable('HTTP 500', DELIVERY_FAILED, outcome());
    expect(delayBeforeRetries(policy, failed(last))).toBeNull();
    const smtp = ApplicationFailure.retryable('550', SMTP_REJECTED_FAILURE);
    expect(delayBeforeRetries(emailPluginActivityPolicy(false), failed(smtp))).toBeNull();
    const test = webhookActivityPolicy(
      { initialIntervalMs: 30_000, backoffCoefficient: 4, maxAttempts: 4, attemptTimeoutMs: 1 },
      true,
    );
    const plain = ApplicationFailure.retryable('HTTP 503', DELIVERY_FAILED, outcome());
    expect(delayBeforeRetries(test, failed(plain))).toBeNull();
  });

  it('leaves the regular activity the other attempts, backoff going on from the second interval', () => {
    const later = laterAttemptsPolicy(policy);
    expect(later).toEqual({
      maxAttempts: 3,
      startToCloseTimeoutMs: 18_000,
      retry: { ...policy.retry, initialInterval: 120_000, maximumAttempts: 3 },
    });
    const input = { submissionId: '1', pluginId: 'p1', deliveryId: 'dlv', mode: 'live' as const };
    expect(laterAttemptsInput({ ...input, maxAttempts: 4 }, later)).toEqual({
      ...input,
      maxAttempts: 3,
      attemptOffset: 1,
    });
    // A recovery's attempts numbered on after the failed ones: the first attempt is one more.
    expect(laterAttemptsInput({ ...input, maxAttempts: 4, attemptOffset: 4 }, later)).toEqual({
      ...input,
      maxAttempts: 3,
      attemptOffset: 5,
    });
  });
});
