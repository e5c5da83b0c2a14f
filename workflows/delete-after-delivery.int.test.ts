import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { REDELIVERY } from './submission-contract';
import { DELIVERY_FAILED } from './failure-types';
import {
  mockActivities,
  outcomeFor,
  runWorkflow,
  useWorkflowTestEnv,
  webhook,
} from '../test/temporal/workflow-test-env';

// The submission workflow's last step, patched('delete-after-delivery') (docs/retention.md):
// asked only when the plan says the form deletes delivered submissions and every delivery of
// the run succeeded.

useWorkflowTestEnv();

describe('the delete-after-delivery step', () => {
  it('comes last, after every delivery succeeded and the e-mail went', async () => {
    const { activities, calls } = mockActivities({
      targets: [webhook('p1'), webhook('p2')],
      deleteAfterDelivery: true,
    });
    const { result } = await runWorkflow(activities, { submissionId: '11' });
    expect(result.deliveries.every((d) => d.ok)).toBe(true);
    expect(calls.sendNotificationEmail).toEqual(['11']);
    expect(calls.deleteDeliveredSubmission).toEqual(['11']);
  });

  it('also ends a re-delivery that succeeded', async () => {
    const { activities, calls } = mockActivities({
      targets: [webhook('p1')],
      deleteAfterDelivery: true,
    });
    await runWorkflow(activities, { submissionId: '12', mode: REDELIVERY });
    expect(calls.deleteDeliveredSubmission).toEqual(['12']);
  });

  it('is not asked when a delivery failed, for spam, or without any delivery', async () => {
    const failing = mockActivities({
      targets: [webhook('p1'), webhook('p2')],
      deleteAfterDelivery: true,
      deliver: async (input, attempt) => {
        if (input.pluginId === 'p1') return outcomeFor(input, attempt);
        throw ApplicationFailure.nonRetryable(
          'receiver answered 400',
          DELIVERY_FAILED,
          outcomeFor(input, attempt, { ok: false, statusCode: 400 }),
        );
      },
    });
    const { result } = await runWorkflow(failing.activities, { submissionId: '13' });
    expect(result.deliveries.map((d) => d.ok).sort()).toEqual([false, true]);
    expect(failing.calls.deleteDeliveredSubmission).toEqual([]);

    const spam = mockActivities({
      spam: { isSpam: true, reason: 'links' },
      targets: [webhook('p1')],
      deleteAfterDelivery: true,
    });
    await runWorkflow(spam.activities, { submissionId: '14' });
    expect(spam.calls.deleteDeliveredSubmission).toEqual([]);

    const nowhere = mockActivities({ targets: [], deleteAfterDelivery: true });
    await runWorkflow(nowhere.activities, { submissionId: '15' });
    expect(nowhere.calls.deleteDeliveredSubmission).toEqual([]);
  });

  it('is not asked for a form that keeps its delivered submissions', async () => {
    const { activities, calls } = mockActivities({ targets: [webhook('p1')] });
    const { result } = await runWorkflow(activities, { submissionId: '17' });
    expect(result.deliveries.every((d) => d.ok)).toBe(true);
    expect(calls.deleteDeliveredSubmission).toEqual([]);
  });

  it('a failing step leaves the run completed (the hourly purge is the backstop)', async () => {
    const { activities, calls } = mockActivities({
      targets: [webhook('p1')],
      deleteAfterDelivery: true,
    });
    const broken = {
      ...activities,
      async deleteDeliveredSubmission(submissionId: string): Promise<boolean> {
        calls.deleteDeliveredSubmission.push(submissionId);
        throw ApplicationFailure.nonRetryable('the database is gone');
      },
    };
    const { result } = await runWorkflow(broken, { submissionId: '16' });
    expect(result.deliveries).toHaveLength(1);
    expect(calls.deleteDeliveredSubmission).toEqual(['16']);
  });
});
