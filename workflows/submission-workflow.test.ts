import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  bundleWorkflowCode,
  DefaultLogger,
  Runtime,
  Worker,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { DeliveryPlanActivities } from '../activities/delivery-plan';
import type { NotificationActivities } from '../activities/notification-email';
import type { SpamActivities } from '../activities/spam';
import type { WebhookActivities } from '../activities/webhook-delivery';
import type { DeliveryPolicy } from './delivery-policy';
import {
  DELIVERY_FAILED,
  PLUGIN_UNAVAILABLE,
  SMTP_REJECTED_FAILURE,
  type DeliveryOutcome,
  type DeliveryTarget,
  type NotificationResult,
  type SpamVerdict,
  type SubmissionWorkflowInput,
  type SubmissionWorkflowResult,
  type WebhookDeliveryInput,
} from './submission-contract';
import { submissionWorkflow } from './submission-workflow';

// The workflow's logic against a throw-away local Temporal dev server (the installed CLI,
// never a download) with every activity mocked: no database, no HTTP, no SMTP.

/** Retries in milliseconds, so a test that exhausts them takes well under a second. */
const FAST_POLICY: DeliveryPolicy = {
  initialIntervalMs: 10,
  backoffCoefficient: 2,
  maxAttempts: 4,
  attemptTimeoutMs: 5000,
};

let env: TestWorkflowEnvironment;
let workflowBundle: WorkflowBundleWithSourceMap;

function temporalCli(): string {
  let provided: string | undefined;
  try {
    provided = inject('stack')?.temporalCli;
  } catch {
    provided = undefined;
  }
  const cli = provided ?? process.env.TEMPORAL_CLI;
  if (!cli)
    throw new Error('no Temporal CLI: run under the vitest global setup or set TEMPORAL_CLI');
  return cli;
}

/** The worker's warnings, without the "Activity failed" ones these tests cause on purpose. */
const quietLogger = () =>
  new DefaultLogger('WARN', ({ level, message, meta }) => {
    if (message !== 'Activity failed') console.warn(`[${level}] ${message}`, meta ?? '');
  });

beforeAll(async () => {
  try {
    Runtime.install({ logger: quietLogger() });
  } catch {
    // Already installed in this process: keep it.
  }
  const [created, bundle] = await Promise.all([
    TestWorkflowEnvironment.createLocal({
      server: { executable: { type: 'existing-path', path: temporalCli() } },
    }),
    // One bundle for the file instead of one per Worker.create: bundling is the slow part.
    bundleWorkflowCode({
      workflowsPath: path.resolve(__dirname, 'submission-workflow.ts'),
      logger: quietLogger(),
    }),
  ]);
  env = created;
  workflowBundle = bundle;
});

afterAll(async () => {
  await env?.teardown();
});

type DeliverBehaviour = (input: WebhookDeliveryInput, attempt: number) => Promise<DeliveryOutcome>;

type MockOptions = {
  spam?: SpamVerdict;
  targets?: DeliveryTarget[];
  /** Whether the form has notification addresses (default true). */
  notify?: boolean;
  deliver?: DeliverBehaviour;
  email?: (submissionId: string) => Promise<NotificationResult>;
};

type Calls = {
  checkSpam: string[];
  planDeliveries: string[];
  /** Every attempt, with the attempt number Temporal reported to the activity. */
  deliverWebhook: Array<{ input: WebhookDeliveryInput; attempt: number }>;
  sendNotificationEmail: string[];
};

const SENT: NotificationResult = {
  sent: true,
  recipients: ['owner@example.test'],
  messageId: '<m1@example.test>',
};

const webhook = (pluginId: string): DeliveryTarget => ({ pluginId, pluginType: 'webhook' });

/** An outcome as the real activity reports it, for a given input and attempt. */
const outcomeFor = (
  input: WebhookDeliveryInput,
  attempt: number,
  fields: Partial<DeliveryOutcome> = {},
): DeliveryOutcome => ({
  pluginId: input.pluginId,
  deliveryId: input.deliveryId,
  ok: true,
  statusCode: 200,
  error: null,
  durationMs: 5,
  attempt,
  ...fields,
});

const succeeds: DeliverBehaviour = async (input, attempt) =>
  outcomeFor(input, attempt, { statusCode: 200 + Number(input.pluginId.replace(/\D/g, '')) });

function mockActivities(options: MockOptions = {}) {
  const calls: Calls = {
    checkSpam: [],
    planDeliveries: [],
    deliverWebhook: [],
    sendNotificationEmail: [],
  };
  const activities: SpamActivities &
    DeliveryPlanActivities &
    WebhookActivities &
    NotificationActivities = {
    async checkSpam(submissionId) {
      calls.checkSpam.push(submissionId);
      return options.spam ?? { isSpam: false, reason: null };
    },
    async planDeliveries(submissionId) {
      calls.planDeliveries.push(submissionId);
      return { targets: options.targets ?? [], notify: options.notify ?? true };
    },
    async deliverWebhook(input) {
      const attempt = Context.current().info.attempt;
      calls.deliverWebhook.push({ input, attempt });
      return (options.deliver ?? succeeds)(input, attempt);
    },
    async sendNotificationEmail(submissionId) {
      calls.sendNotificationEmail.push(submissionId);
      return options.email ? options.email(submissionId) : SENT;
    },
  };
  return { activities, calls };
}

/** Runs one workflow on its own task queue with the mocks; returns its result and run id. */
async function runWorkflow(
  activities: object,
  input: Partial<SubmissionWorkflowInput> = {},
): Promise<{ result: SubmissionWorkflowResult; runId: string }> {
  const taskQueue = `submission-workflow-test-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle,
    activities,
  });
  return worker.runUntil(async () => {
    const handle = await env.client.workflow.start(submissionWorkflow, {
      taskQueue,
      workflowId: `submission-test-${randomUUID()}`,
      args: [{ submissionId: '42', delivery: FAST_POLICY, ...input }],
      // A broken workflow fails the test quickly instead of retrying its task forever.
      workflowExecutionTimeout: '30s',
    });
    return { result: await handle.result(), runId: handle.firstExecutionRunId };
  });
}

const deliveryIdOf = (runId: string, pluginId: string) =>
  `dlv_${runId.replace(/-/g, '')}_${pluginId}`;

const byPlugin = (calls: Calls, pluginId: string) =>
  calls.deliverWebhook.filter((call) => call.input.pluginId === pluginId);

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

    expect(calls.deliverWebhook.map((call) => call.attempt)).toEqual([1, 2, 3]);
    // Every retry is the same delivery: same id, same input.
    const deliveryId = deliveryIdOf(runId, 'p1');
    for (const { input } of calls.deliverWebhook) {
      expect(input).toEqual({
        submissionId: '42',
        pluginId: 'p1',
        deliveryId,
        mode: 'live',
        maxAttempts: 4,
      });
    }
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

  it('reports a plugin type it does not deliver without calling deliverWebhook for it', async () => {
    const { activities, calls } = mockActivities({
      targets: [{ pluginId: 'p1', pluginType: 'slack' }, webhook('p2')],
    });
    const { result, runId } = await runWorkflow(activities);

    expect(calls.deliverWebhook.map((call) => call.input.pluginId)).toEqual(['p2']);
    expect(result.deliveries).toEqual([
      {
        pluginId: 'p1',
        pluginType: 'slack',
        ok: false,
        statusCode: null,
        error: 'plugin type slack is not delivered by this version',
        durationMs: null,
        attempts: 0,
        deliveryId: null,
      },
      {
        pluginId: 'p2',
        pluginType: 'webhook',
        ok: true,
        statusCode: 202,
        error: null,
        durationMs: 5,
        attempts: 1,
        deliveryId: deliveryIdOf(runId, 'p2'),
      },
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
