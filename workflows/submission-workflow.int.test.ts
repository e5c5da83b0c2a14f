import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { DELIVERY_FAILED, SMTP_REJECTED_FAILURE } from './failure-types';
import {
  byPlugin,
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

describe('submissionWorkflow', () => {
  it('stops at a spam verdict: no targets, no deliveries, no e-mail', async () => {
    const { activities, calls } = mockActivities({
      spam: { isSpam: true, reason: 'honeypot' },
      targets: [webhook('p1')],
    });
    const { result } = await runWorkflow(activities, { submissionId: '7' });

    expect(result).toEqual({
      submissionId: '7',
      mode: 'live',
      spam: { isSpam: true, reason: 'honeypot' },
      deliveries: [],
      notification: null,
    });
    expect(calls.checkSpam).toEqual(['7']);
    expect(calls.planDeliveries).toEqual([]);
    expect(calls.deliverWebhook).toEqual([]);
    expect(calls.sendNotificationEmail).toEqual([]);
  });

  it('fans out to every webhook with its own delivery id and sends the e-mail once', async () => {
    const { activities, calls } = mockActivities({
      targets: [webhook('p1'), webhook('p2'), webhook('p3')],
      deliver: async (input, attempt) =>
        outcomeFor(input, attempt, {
          statusCode: input.pluginId === 'p2' ? 204 : 200,
          durationMs: Number(input.pluginId.slice(1)) * 10,
        }),
    });
    const { result, runId } = await runWorkflow(activities, { submissionId: '42' });

    expect(calls.checkSpam).toEqual(['42']);
    expect(calls.planDeliveries).toEqual(['42']);
    expect(calls.sendNotificationEmail).toEqual(['42']);
    expect(calls.deliverWebhook).toHaveLength(3);
    const inputs = calls.deliverWebhook.map((call) => call.input);
    expect(inputs.map((input) => input.pluginId).sort()).toEqual(['p1', 'p2', 'p3']);
    for (const input of inputs) {
      expect(input).toEqual({
        submissionId: '42',
        pluginId: input.pluginId,
        deliveryId: deliveryIdOf(runId, input.pluginId),
        mode: 'live',
        maxAttempts: 4,
      });
      expect(input.deliveryId).toMatch(new RegExp(`^dlv_[0-9a-f]{32}_${input.pluginId}$`));
    }
    expect(new Set(inputs.map((input) => input.deliveryId)).size).toBe(3);

    expect(result.mode).toBe('live');
    expect(result.spam).toEqual({ isSpam: false, reason: null });
    expect(result.notification).toEqual(SENT);
    expect(result.deliveries).toEqual(
      ['p1', 'p2', 'p3'].map((pluginId, index) => ({
        pluginId: pluginId,
        pluginType: 'webhook',
        ok: true,
        statusCode: pluginId === 'p2' ? 204 : 200,
        error: null,
        durationMs: (index + 1) * 10,
        attempts: 1,
        deliveryId: deliveryIdOf(runId, pluginId),
      })),
    );
  });

  it('reports a delivery that failed for good without failing the others', async () => {
    const { activities, calls } = mockActivities({
      targets: [webhook('p1'), webhook('p2'), webhook('p3')],
      deliver: async (input, attempt) => {
        if (input.pluginId !== 'p2') return outcomeFor(input, attempt);
        const outcome = outcomeFor(input, attempt, {
          ok: false,
          statusCode: 410,
          error: 'HTTP 410 Gone',
          durationMs: 33,
        });
        throw ApplicationFailure.nonRetryable('HTTP 410 Gone', DELIVERY_FAILED, outcome);
      },
    });
    const { result, runId } = await runWorkflow(activities);

    expect(byPlugin(calls, 'p2')).toHaveLength(1);
    expect(calls.deliverWebhook).toHaveLength(3);
    expect(calls.sendNotificationEmail).toEqual(['42']);
    expect(result.notification).toEqual(SENT);
    expect(result.deliveries).toEqual([
      {
        pluginId: 'p1',
        pluginType: 'webhook',
        ok: true,
        statusCode: 200,
        error: null,
        durationMs: 5,
        attempts: 1,
        deliveryId: deliveryIdOf(runId, 'p1'),
      },
      {
        pluginId: 'p2',
        pluginType: 'webhook',
        ok: false,
        statusCode: 410,
        error: 'HTTP 410 Gone',
        durationMs: 33,
        attempts: 1,
        deliveryId: deliveryIdOf(runId, 'p2'),
      },
      {
        pluginId: 'p3',
        pluginType: 'webhook',
        ok: true,
        statusCode: 200,
        error: null,
        durationMs: 5,
        attempts: 1,
        deliveryId: deliveryIdOf(runId, 'p3'),
      },
    ]);
  });

  it('tries each delivery once in test mode', async () => {
    const { activities, calls } = mockActivities({
      targets: [webhook('p1'), webhook('p2')],
      deliver: async (input, attempt) => {
        if (input.pluginId === 'p2') return outcomeFor(input, attempt);
        // Retryable on purpose: only the workflow's maximumAttempts of 1 stops it.
        throw ApplicationFailure.retryable(
          'connection refused',
          DELIVERY_FAILED,
          outcomeFor(input, attempt, {
            ok: false,
            statusCode: null,
            error: 'connection refused',
            durationMs: 3,
          }),
        );
      },
    });
    const { result, runId } = await runWorkflow(activities, {
      mode: 'test',
      delivery: FAST_POLICY,
    });

    expect(calls.deliverWebhook).toHaveLength(2);
    for (const { input, attempt } of calls.deliverWebhook) {
      expect(attempt).toBe(1);
      expect(input.mode).toBe('test');
      expect(input.maxAttempts).toBe(1);
    }
    expect(calls.checkSpam).toEqual(['42']);
    expect(result.mode).toBe('test');
    expect(result.deliveries).toEqual([
      {
        pluginId: 'p1',
        pluginType: 'webhook',
        ok: false,
        statusCode: null,
        error: 'connection refused',
        durationMs: 3,
        attempts: 1,
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
  });

  it('replays deliveries without a spam check or an e-mail', async () => {
    const { activities, calls } = mockActivities({
      // Would stop a live run: a replay must not even ask.
      spam: { isSpam: true, reason: 'burst' },
      targets: [webhook('p1'), webhook('p2')],
    });
    const { result, runId } = await runWorkflow(activities, {
      mode: 'replay',
      delivery: FAST_POLICY,
    });

    expect(calls.checkSpam).toEqual([]);
    expect(calls.sendNotificationEmail).toEqual([]);
    expect(calls.planDeliveries).toEqual(['42']);
    expect(
      calls.deliverWebhook
        .map((call) => call.input)
        .sort((a, b) => (a.pluginId < b.pluginId ? -1 : 1)),
    ).toEqual(
      ['p1', 'p2'].map((pluginId) => ({
        submissionId: '42',
        pluginId,
        deliveryId: deliveryIdOf(runId, pluginId),
        mode: 'replay',
        maxAttempts: 4,
      })),
    );
    expect(result.mode).toBe('replay');
    expect(result.spam).toEqual({ isSpam: false, reason: null });
    expect(result.notification).toBeNull();
    expect(result.deliveries.map((d) => [d.pluginId, d.ok, d.statusCode])).toEqual([
      ['p1', true, 201],
      ['p2', true, 202],
    ]);
  });

  it('recovers one plugin under its old delivery id, numbering on, planning nothing', async () => {
    const { activities, calls } = mockActivities({
      spam: { isSpam: true, reason: 'burst' },
      targets: [webhook('p1'), webhook('p2')],
    });
    const { result } = await runWorkflow(activities, {
      mode: 'replay',
      delivery: FAST_POLICY,
      recover: {
        pluginId: 'p2',
        pluginType: 'webhook',
        deliveryId: 'dlv_old_p2',
        attemptOffset: 4,
      },
    });

    expect(calls.checkSpam).toEqual([]);
    expect(calls.planDeliveries).toEqual([]);
    expect(calls.sendNotificationEmail).toEqual([]);
    expect(calls.deliverWebhook.map((call) => call.input)).toEqual([
      {
        submissionId: '42',
        pluginId: 'p2',
        deliveryId: 'dlv_old_p2',
        mode: 'replay',
        maxAttempts: 4,
        attemptOffset: 4,
      },
    ]);
    expect(result.deliveries.map((d) => [d.pluginId, d.ok, d.deliveryId])).toEqual([
      ['p2', true, 'dlv_old_p2'],
    ]);
    expect(result.notification).toBeNull();
  });

  it('sends each plugin type to its own activity, with its own attempt limit, and reports an unknown type', async () => {
    const { activities, calls } = mockActivities({
      targets: [
        { pluginId: 'p1', pluginType: 'zapier' },
        webhook('p2'),
        { pluginId: 'p3', pluginType: 'slack' },
        { pluginId: 'p4', pluginType: 'discord' },
        { pluginId: 'p5', pluginType: 'email' },
      ],
    });
    const { result, runId } = await runWorkflow(activities);

    expect(calls.deliverWebhook.map((call) => call.input.pluginId)).toEqual(['p2']);
    const plugins = calls.deliverPlugin
      .map((call) => [call.activity, call.input.pluginId, call.input.maxAttempts])
      .sort();
    expect(plugins).toEqual([
      ['deliverDiscord', 'p4', 5],
      ['deliverEmailPlugin', 'p5', 6],
      ['deliverSlack', 'p3', 5],
    ]);
    for (const call of calls.deliverPlugin)
      expect(call.input.deliveryId).toBe(deliveryIdOf(runId, call.input.pluginId));
    expect(result.deliveries[0]).toEqual({
      pluginId: 'p1',
      pluginType: 'zapier',
      ok: false,
      statusCode: null,
      error: 'plugin type zapier is not delivered by this version',
      durationMs: null,
      attempts: 0,
      deliveryId: null,
    });
    expect(result.deliveries.slice(1).map((d) => [d.pluginType, d.ok, d.deliveryId])).toEqual([
      ['webhook', true, deliveryIdOf(runId, 'p2')],
      ['slack', true, deliveryIdOf(runId, 'p3')],
      ['discord', true, deliveryIdOf(runId, 'p4')],
      ['email', true, deliveryIdOf(runId, 'p5')],
    ]);
  });

  it('gives every plugin type one attempt in test mode', async () => {
    const { activities, calls } = mockActivities({
      targets: [
        { pluginId: 'p3', pluginType: 'slack' },
        { pluginId: 'p5', pluginType: 'email' },
      ],
      deliver: async (input, attempt) => {
        const outcome = outcomeFor(input, attempt, { ok: false, statusCode: 500, error: 'no' });
        throw ApplicationFailure.nonRetryable('no', DELIVERY_FAILED, outcome);
      },
    });
    const { result } = await runWorkflow(activities, { mode: 'test' });
    expect(calls.deliverPlugin.map((call) => call.input.maxAttempts)).toEqual([1, 1]);
    expect(result.deliveries.map((d) => [d.pluginType, d.ok, d.attempts])).toEqual([
      ['slack', false, 1],
      ['email', false, 1],
    ]);
  });

  it('does not schedule the e-mail when the form has no notification addresses', async () => {
    const { activities, calls } = mockActivities({ targets: [webhook('p1')], notify: false });
    const { result } = await runWorkflow(activities);
    expect(calls.sendNotificationEmail).toEqual([]);
    expect(result.notification).toEqual({
      sent: false,
      recipients: [],
      messageId: null,
      skipped: 'no_recipients',
    });
    expect(result.deliveries).toEqual([expect.objectContaining({ pluginId: 'p1', ok: true })]);
  });

  it('completes when the notification e-mail fails, reporting it as not sent', async () => {
    const { activities, calls } = mockActivities({
      targets: [webhook('p1')],
      email: async () => {
        // Non-retryable, as the real activity's SMTP 5xx refusal: its retry policy waits 30 s.
        throw ApplicationFailure.nonRetryable(
          'SMTP server refused the notification e-mail: 550 mailbox unavailable',
          SMTP_REJECTED_FAILURE,
          { responseCode: 550 },
        );
      },
    });
    const { result } = await runWorkflow(activities);

    expect(calls.sendNotificationEmail).toEqual(['42']);
    expect(result.notification).toEqual({
      sent: false,
      error: 'SMTP server refused the notification e-mail: 550 mailbox unavailable',
    });
    expect(result.deliveries).toHaveLength(1);
    expect(result.deliveries[0]).toMatchObject({ pluginId: 'p1', ok: true, statusCode: 201 });
  });
});
