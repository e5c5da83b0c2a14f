import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  bundleWorkflowCode,
  DefaultLogger,
  Runtime,
  Worker,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import { afterAll, beforeAll, inject } from 'vitest';
import type { AutoresponseActivities } from '../../workflows/activity-contracts';
import type { DeliveryPlanActivities } from '../../workflows/activity-contracts';
import type { NotificationActivities } from '../../workflows/activity-contracts';
import type { PluginDeliveryActivities } from '../../workflows/activity-contracts';
import { DELIVERY_ACTIVITY } from '../../workflows/delivery-kinds';
import type { RetentionActivities } from '../../workflows/activity-contracts';
import type { SpamActivities } from '../../workflows/activity-contracts';
import type { DeliveryPolicy } from '../../workflows/delivery-kinds';
import {
  type AutoresponseInput,
  type AutoresponseResult,
  type DeliveryOutcome,
  type DeliveryTarget,
  type NotificationResult,
  type SpamVerdict,
  type SubmissionWorkflowInput,
  type SubmissionWorkflowResult,
  type DeliveryInput,
} from '../../workflows/submission-contract';
import { submissionWorkflow } from '../../workflows/submission-workflow';

// The submission workflow's logic against a throw-away local Temporal dev server (the
// installed CLI, never a download) with every activity mocked: no database, HTTP or SMTP.
// Shared by the workflow test files in workflows/.

/** Retries in milliseconds, so a test that exhausts them takes well under a second. */
export const FAST_POLICY: DeliveryPolicy = {
  initialIntervalMs: 10,
  backoffCoefficient: 2,
  maxAttempts: 4,
  attemptTimeoutMs: 5000,
};

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

let env: TestWorkflowEnvironment;
let workflowBundle: WorkflowBundleWithSourceMap;

/** Starts the suite's dev server and bundles the workflow once; tears both down after. */
export function useWorkflowTestEnv(): void {
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
        workflowsPath: path.resolve(__dirname, '../../workflows/submission-workflow.ts'),
        logger: quietLogger(),
      }),
    ]);
    env = created;
    workflowBundle = bundle;
  });

  afterAll(async () => {
    await env?.teardown();
  });
}

export type DeliverBehaviour = (input: DeliveryInput, attempt: number) => Promise<DeliveryOutcome>;

export type Attempt = { input: DeliveryInput; attempt: number; local: boolean };

/**
 * The attempt as the activities number it (`x-formward-attempt`): Temporal counts this
 * activity's attempts, which number on after `attemptOffset` (a local first attempt, a recovery).
 */
function attemptOf(input: DeliveryInput): Attempt {
  const { attempt, isLocal } = Context.current().info;
  return { input, attempt: (input.attemptOffset ?? 0) + attempt, local: isLocal };
}

export type MockOptions = {
  spam?: SpamVerdict;
  targets?: DeliveryTarget[];
  /** Whether the form has notification addresses (default true). */
  notify?: boolean;
  deliver?: DeliverBehaviour;
  email?: (submissionId: string) => Promise<NotificationResult>;
  /** Whether the plan says to send the autoresponse (default false), and how it answers. */
  autorespond?: boolean;
  autoresponse?: (input: AutoresponseInput, attempt: number) => Promise<AutoresponseResult>;
  /** Whether the form deletes delivered submissions (default false, docs/retention.md). */
  deleteAfterDelivery?: boolean;
};

export type Calls = {
  checkSpam: string[];
  planDeliveries: string[];
  /** Every attempt: its number as the receiver sees it, and whether it ran as a local activity. */
  deliverWebhook: Attempt[];
  /** The e-mail, Slack and Discord activities' attempts, with the activity's name. */
  deliverPlugin: Array<Attempt & { activity: string }>;
  sendNotificationEmail: string[];
  sendAutoresponse: Array<{ input: AutoresponseInput; attempt: number }>;
  /** The last step of delete_after_delivery (docs/retention.md). */
  deleteDeliveredSubmission: string[];
};

export const SENT: NotificationResult = {
  sent: true,
  recipients: ['owner@example.test'],
  messageId: '<m1@example.test>',
};

export const webhook = (pluginId: string): DeliveryTarget => ({ pluginId, pluginType: 'webhook' });

/**
 * An outcome as the real activity reports it, for a given input and attempt: its `attempt` is
 * Temporal's count of this activity's attempts (src/plugins/delivery/plugin-attempt.ts).
 */
export const outcomeFor = (
  input: DeliveryInput,
  attempt: number,
  fields: Partial<DeliveryOutcome> = {},
): DeliveryOutcome => ({
  pluginId: input.pluginId,
  deliveryId: input.deliveryId,
  ok: true,
  statusCode: 200,
  error: null,
  durationMs: 5,
  attempt: attempt - (input.attemptOffset ?? 0),
  ...fields,
});

export const succeeds: DeliverBehaviour = async (input, attempt) =>
  outcomeFor(input, attempt, { statusCode: 200 + Number(input.pluginId.replace(/\D/g, '')) });

export function mockActivities(options: MockOptions = {}) {
  const calls: Calls = {
    checkSpam: [],
    planDeliveries: [],
    deliverWebhook: [],
    deliverPlugin: [],
    sendNotificationEmail: [],
    sendAutoresponse: [],
    deleteDeliveredSubmission: [],
  };
  const pluginActivity =
    (activity: string) =>
    async (input: DeliveryInput): Promise<DeliveryOutcome> => {
      const call = attemptOf(input);
      calls.deliverPlugin.push({ activity, ...call });
      return (options.deliver ?? succeeds)(input, call.attempt);
    };
  const activities: SpamActivities &
    DeliveryPlanActivities &
    PluginDeliveryActivities &
    NotificationActivities &
    AutoresponseActivities &
    Pick<RetentionActivities, 'deleteDeliveredSubmission'> = {
    // Every type but the webhook, from the table the workflow reads (workflows/delivery-kinds.ts).
    ...(Object.fromEntries(
      Object.values(DELIVERY_ACTIVITY)
        .filter((name) => name !== 'deliverWebhook')
        .map((name) => [name, pluginActivity(name)]),
    ) as Omit<PluginDeliveryActivities, 'deliverWebhook'>),
    async checkSpam(submissionId) {
      calls.checkSpam.push(submissionId);
      return options.spam ?? { isSpam: false, reason: null };
    },
    async planDeliveries(submissionId) {
      calls.planDeliveries.push(submissionId);
      return {
        targets: options.targets ?? [],
        notify: options.notify ?? true,
        autorespond: options.autorespond ?? false,
        ...(options.deleteAfterDelivery && { deleteAfterDelivery: true }),
      };
    },
    async planDeletionDeliveries() {
      return options.targets ?? [];
    },
    async deliverWebhook(input) {
      const call = attemptOf(input);
      calls.deliverWebhook.push(call);
      return (options.deliver ?? succeeds)(input, call.attempt);
    },
    async sendNotificationEmail(submissionId) {
      calls.sendNotificationEmail.push(submissionId);
      return options.email ? options.email(submissionId) : SENT;
    },
    async sendAutoresponse(input) {
      const { attempt } = Context.current().info;
      calls.sendAutoresponse.push({ input, attempt });
      return options.autoresponse
        ? options.autoresponse(input, attempt)
        : { sent: true, deliveryId: input.deliveryId };
    },
    async deleteDeliveredSubmission(submissionId) {
      calls.deleteDeliveredSubmission.push(submissionId);
      return true;
    },
  };
  return { activities, calls };
}

/** Runs one workflow on its own task queue with the mocks; returns its result and run id. */
export async function runWorkflow(
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

export const deliveryIdOf = (runId: string, pluginId: string) =>
  `dlv_${runId.replace(/-/g, '')}_${pluginId}`;

export const byPlugin = (calls: Calls, pluginId: string) =>
  calls.deliverWebhook.filter((call) => call.input.pluginId === pluginId);
