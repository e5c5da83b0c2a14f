import { shutdownTracing, startTracing } from '../tracing/start-tracing';
import type { Config } from '../config/config';
import { migrate } from '../db/orm';
import { sealPlainSigningSecrets } from '../plugins/manage/plugins';
import { removeRuntimeFile, writeRuntimeFile } from '../embedded/runtime-file';
import { createAppContext } from '../runtime/app-context';
import { openDatabase, type Database } from '../runtime/database';
import { startHttpServer, type RunningHttpServer } from '../http/http-server';
import { startMetricsListener } from '../runtime/metrics/metrics-listener';
import { startProcessMetrics } from '../runtime/metrics/process-metrics';
import { answerMetricsRequests } from '../runtime/metrics/worker-metrics-channel';
import { openTemporal, type TemporalService } from '../runtime/temporal-service';
import { startWorkerHealthServer } from '../http/worker-health-server';
import { runWorker, type RunningWorker } from '../runtime/worker-runner';
import { say } from './output';
import { onShutdownSignal } from './signals';
import {
  reportReady,
  startSupervisedWorker,
  supervisorNote,
  workerEnvironment,
  type SupervisedWorker,
} from './worker-supervisor';

type Parts = { http: boolean; worker: boolean };

/**
 * `start` (everything), `serve` (HTTP only) and `worker` (Temporal worker only). Embedded
 * PostgreSQL and Temporal are started when no external ones are configured; a signal stops
 * all of it, in reverse order. `start` runs its worker as a supervised child process
 * (`formward worker`, src/cli/worker-supervisor.ts): the HTTP server and the worker are always
 * two processes, as `serve` and `worker` are in production.
 */
export async function runStack(config: Config, parts: Parts): Promise<void> {
  const stops: Array<() => Promise<void>> = [];
  const startedAt = new Date().toISOString();
  const shutdown = async () => {
    for (const stop of stops.reverse())
      await stop().catch((error: Error) => say(`shutdown: ${error.message}`));
  };
  const verbose = (line: string) => {
    if (process.env.FORMWARD_DEBUG_EMBEDDED) say(line);
  };
  // This process is the worker of a `formward start`: its parent prints and decides.
  const supervisor = parts.http ? null : supervisorNote();
  try {
    // First, so the HTTP and undici instrumentations see every server and request; flushed last.
    if (await startTracing()) stops.push(shutdownTracing);
    const database: Database = await openDatabase(config, verbose);
    stops.push(() => database.stop());
    const temporal: TemporalService = await openTemporal(config, verbose, say);
    stops.push(() => temporal.stop());

    const ctx = await createAppContext(config, {
      databaseUrl: database.url,
      temporalAddress: temporal.address,
      temporalUiUrl: temporal.uiUrl,
    });
    stops.push(() => ctx.close());
    // The worker process of `formward start` (docs/metrics.md), once it runs.
    let workerProcess: SupervisedWorker | null = null;
    const separateWorker = parts.worker && parts.http;
    // Before the worker: its Temporal SDK metrics take this process's label.
    if (config.metrics) {
      const listener = await startMetricsListener({
        ...config.metrics,
        process: parts.http ? 'serve' : 'worker',
        orm: ctx.orm,
        temporal: ctx.temporal,
        logger: ctx.logger,
        ...(separateWorker && {
          workerMetrics: () => workerProcess?.metrics() ?? Promise.resolve(null),
        }),
      });
      stops.push(() => listener.close());
    } else if (supervisor?.metrics) {
      // No listener here: the parent's /metrics asks for these over IPC.
      const stopMetrics = startProcessMetrics({
        process: 'worker',
        orm: ctx.orm,
        temporal: ctx.temporal,
        logger: ctx.logger,
      });
      const stopAnswering = answerMetricsRequests();
      stops.push(async () => {
        stopAnswering();
        stopMetrics();
      });
    }
    const applied = await migrate(ctx.orm);
    if (applied.length > 0) ctx.logger.info({ applied }, 'migrations applied');
    const sealed = await sealPlainSigningSecrets(ctx.orm.em.fork(), ctx.signingSecrets);
    if (sealed > 0) ctx.logger.info({ sealed }, 'plain-text webhook signing secrets sealed');

    // Before the HTTP server listens: a CLI command run the moment it answers finds the
    // embedded services here instead of trying to start a second PostgreSQL on DATA_DIR.
    const publishesRuntime = database.embedded || temporal.embedded;
    const runtimeInfo = () => ({
      pid: process.pid,
      databaseUrl: database.url,
      temporalAddress: temporal.address,
      temporalUiUrl: temporal.uiUrl,
      baseUrl: ctx.urls.base,
      ingestUrl: ctx.urls.ingest,
      startedAt,
    });
    if (publishesRuntime) {
      writeRuntimeFile(config.dataDir, runtimeInfo());
      stops.push(async () => removeRuntimeFile(config.dataDir));
    }

    let http: RunningHttpServer | null = null;
    if (parts.http) {
      http = await startHttpServer(ctx);
      const running = http;
      stops.push(() => running.close());
    }
    // After the HTTP server, whose bound port decides the links in notification e-mails.
    let worker: RunningWorker | null = null;
    if (separateWorker && http) {
      // Stopped first on shutdown: in-flight deliveries finish while the rest still runs.
      const supervised = await startSupervisedWorker({
        env: workerEnvironment({
          databaseUrl: database.url,
          temporalAddress: temporal.address,
          temporalUiUrl: temporal.uiUrl,
          dataDir: config.dataDir,
          urls: ctx.urls,
          listener: { address: http.address, port: http.port },
          metrics: config.metrics !== null,
        }),
        nice: config.worker.nice,
        say,
      });
      workerProcess = supervised;
      stops.push(() => supervised.stop());
    } else if (parts.worker) {
      // The parent's HTTP server is one of our own listeners: never deliver there.
      if (supervisor)
        ctx.ownListeners.addBound(supervisor.listener.address, supervisor.listener.port);
      worker = await runWorker(ctx, { address: temporal.address });
      const running = worker;
      stops.push(() => running.stop());
      const health = await startWorkerHealthServer(ctx, running);
      stops.push(() => health.close());
    }
    // The bound port may have changed the URLs: the file says the final ones.
    if (publishesRuntime) writeRuntimeFile(config.dataDir, runtimeInfo());

    if (supervisor) reportReady();
    else printRunning(config, { ctx, http, worker, workerProcess, database, temporal });

    await new Promise<void>((resolve) => {
      onShutdownSignal(resolve, { repeatExits: !supervisor });
      worker?.done.catch(() => resolve());
    });
    if (!supervisor) say('Stopping…');
  } finally {
    await shutdown();
  }
}

function printRunning(
  config: Config,
  stack: {
    ctx: { urls: { base: string; ingest: string } };
    http: RunningHttpServer | null;
    worker: RunningWorker | null;
    workerProcess: SupervisedWorker | null;
    database: Database;
    temporal: TemporalService;
  },
): void {
  const { ctx, http, worker, workerProcess, database, temporal } = stack;
  say('Formward is running');
  if (http) {
    say(`  API:          ${ctx.urls.base}/api   (reference: ${ctx.urls.base}/docs)`);
    say(
      `  Ingest:       ${ctx.urls.ingest}/f/{endpoint_token}  and  ${ctx.urls.ingest}/json/{endpoint_token}`,
    );
    say(`  Sign in:      ${ctx.urls.base}/login`);
  }
  const queue = `task queue "${config.temporal.taskQueue}"`;
  const child = workerProcess?.current();
  if (child) {
    const nice = config.worker.nice === 0 ? '' : `, nice ${config.worker.nice}`;
    say(`  Worker:       ${queue}, process ${child.pid}${nice} (health ${child.healthUrl})`);
  } else if (worker) {
    say(`  Worker:       ${queue}${http ? ', in this process' : ''}`);
  }
  if (worker && !http)
    say(`  Health:       http://${config.host}:${config.port}/healthz and /readyz`);
  say(
    `  PostgreSQL:   ${database.embedded ? `embedded, data in ${config.dataDir}/postgres` : 'DATABASE_URL'}`,
  );
  const temporalNice = temporal.embedded && config.worker.nice !== 0;
  say(
    `  Temporal:     ${temporal.address}${temporal.embedded ? ` (embedded dev server${temporalNice ? `, nice ${config.worker.nice}` : ''})` : ''}`,
  );
  if (temporal.uiUrl) say(`  Temporal UI:  ${temporal.uiUrl}`);
  say('Press Ctrl-C to stop.');
}
