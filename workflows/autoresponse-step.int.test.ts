import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { REDELIVERY } from './submission-contract';
import { SMTP_REJECTED_FAILURE } from './failure-types';
import {
  deliveryIdOf,
  mockActivities,
  runWorkflow,
  SENT,
  useWorkflowTestEnv,
  webhook,
} from '../test/temporal/workflow-test-env';

useWorkflowTestEnv();

// The autoresponse step of the submission workflow (docs/autoresponse.md), with mocked
// activities on a real Temporal dev server.

describe('the autoresponse step', () => {
  it('is one activity beside the deliveries when the plan says so, under its own delivery id', async () => {
    const { activities, calls } = mockActivities({ targets: [webhook('p1')], autorespond: true });
    const { result, runId } = await runWorkflow(activities, { submissionId: '42' });
    expect(calls.sendAutoresponse).toEqual([
      {
        input: {
          submissionId: '42',
          deliveryId: deliveryIdOf(runId, 'autoresponse'),
          mode: 'live',
          maxAttempts: 6,
        },
        attempt: 1,
      },
    ]);
    expect(result.autoresponse).toEqual({
      sent: true,
      deliveryId: deliveryIdOf(runId, 'autoresponse'),
    });
    expect(result.notification).toEqual(SENT);
    expect(result.deliveries.map((d) => d.ok)).toEqual([true]);
  });

  it('gets one attempt in test mode, and its failure settles it without failing the others', async () => {
    const { activities, calls } = mockActivities({
      targets: [webhook('p1')],
      autorespond: true,
      autoresponse: async () => {
        throw ApplicationFailure.nonRetryable('550 no such mailbox', SMTP_REJECTED_FAILURE);
      },
    });
    const { result, runId } = await runWorkflow(activities, { mode: 'test' });
    expect(calls.sendAutoresponse.map((call) => call.input.maxAttempts)).toEqual([1]);
    expect(result.autoresponse).toEqual({
      sent: false,
      deliveryId: deliveryIdOf(runId, 'autoresponse'),
      error: '550 no such mailbox',
    });
    expect(result.deliveries.map((d) => d.ok)).toEqual([true]);
  });

  it('is not scheduled without an autoresponse to send, nor in a re-delivery', async () => {
    const none = mockActivities({ targets: [webhook('p1')] });
    const { result } = await runWorkflow(none.activities);
    expect(none.calls.sendAutoresponse).toEqual([]);
    expect(result).not.toHaveProperty('autoresponse');

    const replay = mockActivities({ targets: [webhook('p1')], autorespond: true });
    const replayed = await runWorkflow(replay.activities, { mode: REDELIVERY });
    expect(replay.calls.sendAutoresponse).toEqual([]);
    expect(replayed.result).not.toHaveProperty('autoresponse');
  });
});
