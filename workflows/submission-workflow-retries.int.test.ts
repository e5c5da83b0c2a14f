import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import type { DeliveryPolicy } from './delivery-kinds';
import { DELIVERY_FAILED, PLUGIN_UNAVAILABLE } from './failure-types';
import {
  byPlugin,
  type DeliverBehaviour,
  FAST_POLICY,
  deliveryIdOf,
  mockActivities,
  outcomeFor,
  runWorkflow,
  SENT,
  useWorkflowTestEnv,
  webhook,
} from '../test/temporal/workflow-test-env';

useWorkflowTestEnv();

describe('submissionWorkflow retries', () => {
  it('retries a retryable failure and reports the attempt that succeeded', async () => {
    const { activities, calls } = mockActivities({
      targets: [webhook('p1')],
      deliver: async (input, attempt) => {
        if (attempt < 3) {
          throw ApplicationFailure.retryable(
            `HTTP 503 (attempt ${attempt})`,
            DELIVERY_FAILED,
            outcomeFor(input, attempt, { ok: false, statusCode: 503, error: 'HTTP 503' }),
          );
        }
        return outcomeFor(input, attempt, { statusCode: 202, durationMs: 17 });
      },
    });
    const { result, runId } = await runWorkflow(activities, { delivery: FAST_POLICY });

    // The first attempt a local activity, the retries the regular one numbering on after it.
    expect(calls.deliverWebhook.map((call) => [call.attempt, call.local])).toEqual([
      [1, true],
      [2, false],
      [3, false],
    ]);
    // Every retry is the same delivery: same id; the regular activity has the attempts left.
    const deliveryId = deliveryIdOf(runId, 'p1');
    const first = { submissionId: '42', pluginId: 'p1', deliveryId, mode: 'live' };
    expect(calls.deliverWebhook.map((call) => call.input)).toEqual([
      { ...first, maxAttempts: 4 },
      { ...first, maxAttempts: 3, attemptOffset: 1 },
      { ...first, maxAttempts: 3, attemptOffset: 1 },
    ]);
    expect(result.deliveries).toEqual([
      {
        pluginId: 'p1',
        pluginType: 'webhook',
        ok: true,
        statusCode: 202,
        error: null,
        durationMs: 17,
        attempts: 3,
        deliveryId: deliveryId,
      },
    ]);
  });

  it('gives up after maxAttempts and reports the last attempt', async () => {
    const { activities, calls } = mockActivities({
      targets: [webhook('p1'), webhook('p2')],
      deliver: async (input, attempt) => {
        if (input.pluginId === 'p2') return outcomeFor(input, attempt);
        throw ApplicationFailure.retryable(
          `HTTP 500 (attempt ${attempt})`,
          DELIVERY_FAILED,
          outcomeFor(input, attempt, {
            ok: false,
            statusCode: 500 + attempt,
            error: `HTTP 50${attempt} on attempt ${attempt}`,
            durationMs: 100 + attempt,
          }),
        );
      },
    });
    const { result, runId } = await runWorkflow(activities, { delivery: FAST_POLICY });

    expect(byPlugin(calls, 'p1').map((call) => call.attempt)).toEqual([1, 2, 3, 4]);
    expect(byPlugin(calls, 'p2')).toHaveLength(1);
    expect(result.deliveries).toEqual([
      {
        pluginId: 'p1',
        pluginType: 'webhook',
        ok: false,
        statusCode: 504,
        error: 'HTTP 504 on attempt 4',
        durationMs: 104,
        attempts: 4,
        deliveryId: deliveryIdOf(runId, 'p1'),
      },
      {
        pluginId: 'p2',
        pluginType: 'webhook',
        ok: true,
        statusCode: 200,
        error: null,
        durationMs: 5,
        attempts: 1,
        deliveryId: deliveryIdOf(runId, 'p2'),
      },
    ]);
    expect(result.notification).toEqual(SENT);
  });

  it('never retries PluginUnavailable, even when thrown as retryable', async () => {
    const { activities, calls } = mockActivities({
      targets: [webhook('p1'), webhook('p2')],
      deliver: async (input) => {
        // p1 as the real activity throws it; p2 flagged retryable, so only the workflow's
        // nonRetryableErrorTypes can stop the retries.
        if (input.pluginId === 'p1') {
          throw ApplicationFailure.nonRetryable('the plugin was deleted', PLUGIN_UNAVAILABLE);
        }
        throw ApplicationFailure.retryable('the plugin was disabled', PLUGIN_UNAVAILABLE);
      },
    });
    const { result, runId } = await runWorkflow(activities, { delivery: FAST_POLICY });

    expect(byPlugin(calls, 'p1')).toHaveLength(1);
    expect(byPlugin(calls, 'p2')).toHaveLength(1);
    // No outcome attached: no request was made, so no status, duration or attempts.
    expect(result.deliveries).toEqual([
      {
        pluginId: 'p1',
        pluginType: 'webhook',
        ok: false,
        statusCode: null,
        error: 'the plugin was deleted',
        durationMs: null,
        attempts: 0,
        deliveryId: deliveryIdOf(runId, 'p1'),
      },
      {
        pluginId: 'p2',
        pluginType: 'webhook',
        ok: false,
        statusCode: null,
        error: 'the plugin was disabled',
        durationMs: null,
        attempts: 0,
        deliveryId: deliveryIdOf(runId, 'p2'),
      },
    ]);
  });

  it('counts the attempts made when the last one timed out', async () => {
    // The server checks timeouts about once a second: shorter ones would not be seen in time.
    const timeouts: DeliveryPolicy = { ...FAST_POLICY, attemptTimeoutMs: 1000 };
    // A receiver that never answers in time: every attempt outlives its start-to-close timeout
    // (and ends when the worker shuts down and cancels it).
    const hangs: DeliverBehaviour = async (input, attempt) => {
      if (input.pluginId === 'p2') return outcomeFor(input, attempt);
      await Context.current().sleep(30_000);
      return outcomeFor(input, attempt);
    };
    const live = mockActivities({ targets: [webhook('p1'), webhook('p2')], deliver: hangs });
    const { result, runId } = await runWorkflow(live.activities, { delivery: timeouts });

    expect(byPlugin(live.calls, 'p1').map((call) => call.attempt)).toEqual([1, 2, 3, 4]);
    expect(result.deliveries).toEqual([
      {
        pluginId: 'p1',
        pluginType: 'webhook',
        ok: false,
        statusCode: null,
        error: expect.stringMatching(/timeout/i),
        durationMs: null,
        attempts: 4,
        deliveryId: deliveryIdOf(runId, 'p1'),
      },
      expect.objectContaining({ pluginId: 'p2', ok: true, attempts: 1 }),
    ]);

    const test = mockActivities({ targets: [webhook('p1')], deliver: hangs });
    const testRun = await runWorkflow(test.activities, { mode: 'test', delivery: timeouts });
    expect(test.calls.deliverWebhook).toHaveLength(1);
    expect(testRun.result.deliveries).toEqual([
      expect.objectContaining({ pluginId: 'p1', ok: false, statusCode: null, attempts: 1 }),
    ]);
  });
});
