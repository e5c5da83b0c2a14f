import { Client } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import type { AppContext } from './app-context';
import { createMailer } from '../domain/mail/mailer';
import type { Dial } from '../outbound/guarded-connector';
import { createOutboundSender } from '../outbound/sender';
import type { LazyTemporalClient } from '../temporal/client';
import { deliveryPolicy } from '../temporal/delivery-policy';
import { ensureRetentionSchedule } from '../temporal/retention-schedule';
import { installTemporalRuntimeLogger } from '../temporal/runtime-logger';
import { freePort } from '../embedded/free-port';
import { metricsServed, processLabel } from '../domain/metrics/registry';
import { setTemporalSdkMetricsAddress } from './metrics/temporal-sdk-metrics';
import { claimWorkflowStarts } from '../pipeline/2-claim-starts';
import { createAdmission } from '../pipeline/3-admission';
import { createWorkflowStarter } from '../pipeline/4-start-workflow';
import { createWorker } from '../temporal/worker';
import { tracingClientInterceptors } from '../tracing/trace-hooks';

export type RunningWorker = {
  stop(): Promise<void>;
  done: Promise<void>;
  /** The SDK worker's state: RUNNING while it polls. */
  state(): string;
  /** The worker's connection: a client on it can start workflows eagerly on this worker. */
  connection: NativeConnection;
};

/** What the worker takes from the application context: the same DNS and allow list as the API. */
export type WorkerContext = Pick<
  AppContext,
  | 'config'
  | 'orm'
  | 'logger'
  | 'urls'
  | 'lookupHost'
  | 'webhookAllowList'
  | 'signingSecrets'
  | 'pluginSecrets'
  | 'ownListeners'
  | 'unsubscribeTokens'
  | 'addressKeys'
  | 'receipts'
> & { temporal: LazyTemporalClient };

/**
 * Runs the Temporal worker until `stop()`: it stops polling, lets in-flight activities finish
 * within the grace time (or hands them back to Temporal), then closes its connections. Links
 * in notification e-mails use `ctx.urls.base` as it is when the worker starts.
 */
export async function runWorker(
  ctx: WorkerContext,
  options: {
    /** The Temporal frontend actually in use (embedded or TEMPORAL_ADDRESS). */
    address: string;
    /** Replaces the TLS dialer of webhook deliveries (tests of the connect timeout). */
    dial?: Dial;
  },
): Promise<RunningWorker> {
  const { config, logger } = ctx;
  await installRuntime(ctx);
  const sender = createOutboundSender({
    connectTimeoutMs: config.webhook.connectTimeoutMs,
    readTimeoutMs: config.webhook.readTimeoutMs,
    allowList: ctx.webhookAllowList,
    lookupHost: ctx.lookupHost,
    ownListeners: ctx.ownListeners,
    dial: options.dial,
  });
  const mailer = createMailer(config, logger);
  const { worker, connection } = await createWorker({
    address: options.address,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    orm: ctx.orm,
    logger,
    sender,
    mailer,
    signingSecrets: ctx.signingSecrets,
    pluginSecrets: ctx.pluginSecrets,
    baseUrl: ctx.urls.base,
    ingestUrl: ctx.urls.ingest,
    pluginHealth: config.pluginHealth,
    unsubscribeTokens: ctx.unsubscribeTokens,
    addressKeys: ctx.addressKeys,
    receipts: ctx.receipts,
    mailPerHour: config.accountMailPerHour,
    autoresponseIntervalMs: config.autoresponseIntervalMs,
    autoresponseCaps: config.autoresponseCaps,
    spamRetentionDays: config.spamRetentionDays,
    auditRetentionDays: config.auditRetentionDays,
    providerUrls: config.providerUrls,
  });
  // One client on the worker's own connection: eager starts, and the retention schedule.
  const client = eagerStartClient({ connection }, config.temporal.namespace);
  const starts = startWorkflowsHere(ctx, client);
  const done = worker
    .run()
    .catch((error: unknown) => {
      logger.error({ err: error }, 'temporal worker stopped with an error');
      throw error;
    })
    .finally(async () => {
      await starts.stop();
      await connection.close();
      await sender.close();
      mailer.close();
    });
  logger.info({ taskQueue: config.temporal.taskQueue }, 'temporal worker running');
  // The hourly purge (docs/retention.md): created by the first worker, found by the others.
  // Not fatal, and not waited for long: the next worker start tries again.
  await withinMs(
    SCHEDULE_CHECK_MS,
    ensureRetentionSchedule(client, config.temporal.taskQueue),
  ).then(
    (outcome) => logger.info({ outcome }, 'retention schedule checked'),
    (error: unknown) => logger.warn({ err: error }, 'the retention schedule could not be created'),
  );
  return {
    done,
    state: () => worker.getState(),
    connection,
    async stop() {
      await starts.stop();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done.catch(() => undefined);
    },
  };
}

/**
 * The SDK's runtime, once per process; when this process's metrics are served (METRICS_PORT,
 * or the parent `formward start` reads them) it serves its worker metrics on a free loopback
 * port, which our /metrics appends (docs/metrics.md).
 */
async function installRuntime({ logger }: WorkerContext): Promise<void> {
  if (!metricsServed()) return void installTemporalRuntimeLogger(logger);
  const metricsAddress = `127.0.0.1:${await freePort('127.0.0.1')}`;
  const globalTags = { process: processLabel() };
  if (installTemporalRuntimeLogger(logger, { metricsAddress, globalTags }))
    setTemporalSdkMetricsAddress(metricsAddress);
}

/** How long a worker's start waits for the retention schedule's check. */
const SCHEDULE_CHECK_MS = 10_000;

/** `step`, or a rejection once `ms` passed (the step itself goes on). */
function withinMs<T>(ms: number, step: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([step, late]).finally(() => clearTimeout(timer));
}

/**
 * This worker claims and starts submission workflows (src/pipeline/2-claim-starts.ts), with
 * an admission window of its own; with TEMPORAL_EAGER_START each start hands the workflow's
 * first task straight back to this worker.
 */
function startWorkflowsHere(ctx: WorkerContext, client: Client): { stop(): Promise<void> } {
  const { config, orm, logger } = ctx;
  const workflows = createWorkflowStarter({
    temporal: ctx.temporal,
    orm,
    taskQueue: config.temporal.taskQueue,
    delivery: deliveryPolicy(config),
  });
  if (config.temporal.eagerStart) workflows.useEagerStart(client);
  const admission = createAdmission({ orm, window: config.admissionWindow, logger });
  const claims = claimWorkflowStarts({ orm, workflows, admission, logger });
  return {
    async stop() {
      await claims.stop();
      admission.stop();
    },
  };
}

/**
 * A client on the worker's own connection: workflows it starts with `requestEagerStart` get
 * their first task answered straight to this worker instead of through the task queue.
 */
export function eagerStartClient(
  worker: Pick<RunningWorker, 'connection'>,
  namespace: string,
): Client {
  return new Client({
    connection: worker.connection,
    namespace,
    interceptors: { workflow: tracingClientInterceptors() },
  });
}
