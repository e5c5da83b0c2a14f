import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { Orm } from '../db/orm';
import { markTestRun, markWorkflowsStarted } from '../db/sql/submissions';
import { randomBytes } from 'node:crypto';
import type { DeliveryPolicy } from '../../workflows/delivery-policy';
import {
  REDELIVERY,
  type SubmissionWorkflowInput,
  type SubmissionWorkflowResult,
} from '../../workflows/submission-contract';
import { createAdmission, type Admission, type AdmissionStats } from './admission';
import type { LazyTemporalClient } from './client';
import { replayWorkflowId, submissionWorkflowId } from './workflow-ids';
import { withTraceparent } from '../tracing/trace-hooks';

/** Workflow starts in flight at once from one process: enough to keep up, bounded under load. */
const START_CONCURRENCY = 8;
/** Ids waiting beyond this are left to the sweeper, so a Temporal outage cannot grow memory. */
const MAX_QUEUED = 10_000;

export interface SubmissionWorkflowStarter {
  /**
   * Queues `submission-{id}` to be started soon, off the request path, with bounded
   * concurrency; started rows are marked in batches. What fails is left to the sweeper.
   * `traceparent`: the ingest request's trace, which the start continues (docs/tracing.md).
   */
  enqueue(submissionId: string, traceparent?: string | null): void;
  /**
   * Starts `submission-{id}` without marking the row, if the admission window has room:
   * `started` when it runs or ran, `full` when it must wait, `failed` when Temporal refused.
   */
  startAdmitted(submissionId: string): Promise<'started' | 'full' | 'failed'>;
  /** True while `submission-{id}` waits in this process's queue (the sweeper leaves it). */
  isQueued(submissionId: string): boolean;
  /** Submissions waiting in this process's queue, and the admission window. */
  stats(): AdmissionStats & { queued: number };
  /**
   * Where the client shares its connection with a worker in this process, starts hand the
   * first workflow task straight to that worker (`requestEagerStart`); null turns it off.
   */
  useEagerStart(client: Client | null): void;
  /** Starts (or joins) the workflow in test mode and waits for its result, for `?test=true`. */
  runAndWait(submissionId: string, timeoutMs: number): Promise<SubmissionWorkflowResult>;
  /** Starts a new workflow that delivers the submission again; throws when Temporal is down. */
  replay(submissionId: string): Promise<{ workflowId: string; runId: string }>;
  /**
   * Starts what is queued while the admission window has room, leaves the rest to the
   * sweeper, and waits for the starts under way (for shutdown).
   */
  drain(): Promise<void>;
}

export function createWorkflowStarter(deps: {
  temporal: LazyTemporalClient;
  orm: Orm;
  taskQueue: string;
  logger: Logger;
  delivery: DeliveryPolicy;
  admission: Admission;
}): SubmissionWorkflowStarter {
  const { temporal, orm, taskQueue, logger, admission } = deps;
  let eager: Client | null = null;

  const startWorkflow = (workflowId: string, input: SubmissionWorkflowInput) => {
    const options = {
      taskQueue,
      workflowId,
      args: [input] as [SubmissionWorkflowInput],
      workflowIdReusePolicy: 'REJECT_DUPLICATE' as const,
    };
    const client = eager;
    if (client)
      return client.connection.withDeadline(Date.now() + 5000, () =>
        client.workflow.start('submissionWorkflow', { ...options, requestEagerStart: true }),
      );
    return temporal.call(5000, (c) => c.workflow.start('submissionWorkflow', options));
  };

  const startInTemporal = async (submissionId: string, mode: 'live' | 'test' = 'live') => {
    try {
      await startWorkflow(submissionWorkflowId(submissionId), {
        submissionId,
        mode,
        delivery: deps.delivery,
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  };

  const markStarted = (ids: string[]) => markWorkflowsStarted(orm.em.fork(), ids);

  const startUnmarked = async (submissionId: string, traceparent?: string | null) => {
    try {
      await withTraceparent(traceparent, () => startInTemporal(submissionId));
      return true;
    } catch (error) {
      logger.warn(
        { submissionId, err: (error as Error).message },
        'could not start the submission workflow; the sweeper will retry',
      );
      return false;
    }
  };

  const startAdmitted = async (submissionId: string) => {
    if (!admission.tryAcquire()) return 'full' as const;
    const ok = await startUnmarked(submissionId);
    if (ok) admission.started(submissionId);
    else admission.release();
    return ok ? ('started' as const) : ('failed' as const);
  };

  // The dispatcher: a queue, a few starters within the admission window, and one batched
  // update for what they started.
  const queue: string[] = [];
  const queued = new Set<string>();
  const traceparents = new Map<string, string>();
  let active = 0;
  let started: string[] = [];
  let marking: Promise<void> | null = null;
  let idle: Array<() => void> = [];
  let draining = false;
  const dropQueue = () => {
    queue.length = 0;
    queued.clear();
    traceparents.clear();
  };

  const markPending = (): Promise<void> => {
    if (marking || started.length === 0) return marking ?? Promise.resolve();
    const batch = started;
    started = [];
    marking = markStarted(batch)
      .then(
        () => undefined,
        (error: unknown) =>
          logger.warn({ err: (error as Error).message }, 'could not mark started workflows'),
      )
      .finally(() => {
        marking = null;
        if (started.length > 0) void markPending();
        else settleIfIdle();
      });
    return marking;
  };
  const settleIfIdle = () => {
    if (queue.length > 0 || active > 0 || marking || started.length > 0) return;
    for (const resolve of idle) resolve();
    idle = [];
  };
  const pump = () => {
    while (active < START_CONCURRENCY && queue.length > 0) {
      if (!admission.tryAcquire()) {
        // Shutting down: what still waits stays in PostgreSQL for the sweeper.
        if (draining) dropQueue();
        return; // onRoom pumps again
      }
      const submissionId = queue.shift()!;
      queued.delete(submissionId);
      const traceparent = traceparents.get(submissionId);
      traceparents.delete(submissionId);
      active++;
      void startUnmarked(submissionId, traceparent)
        .then((ok) => {
          if (ok) {
            admission.started(submissionId);
            started.push(submissionId);
          } else {
            dropQueue(); // Temporal unreachable: the sweeper takes over these
            admission.release();
          }
        })
        .finally(() => {
          active--;
          void markPending();
          pump();
          settleIfIdle();
        });
    }
  };

  admission.onRoom(pump);

  return {
    enqueue(submissionId, traceparent) {
      if (queue.length >= MAX_QUEUED) return;
      queue.push(submissionId);
      queued.add(submissionId);
      if (traceparent) traceparents.set(submissionId, traceparent);
      pump();
    },
    startAdmitted,
    isQueued: (submissionId) => queued.has(submissionId),
    stats: () => ({ ...admission.stats(), queued: queued.size }),
    useEagerStart(client) {
      eager = client;
    },
    async replay(submissionId) {
      const workflowId = replayWorkflowId(submissionId, randomBytes(6).toString('hex'));
      const handle = await startWorkflow(workflowId, {
        submissionId,
        mode: REDELIVERY,
        delivery: deps.delivery,
      });
      return { workflowId, runId: handle.firstExecutionRunId };
    },
    async runAndWait(submissionId, timeoutMs) {
      await markTestRun(orm.em.fork(), submissionId); // no `skipped` records for a test run
      await startInTemporal(submissionId, 'test');
      await markStarted([submissionId]);
      return temporal.call(timeoutMs, (client) =>
        client.workflow.getHandle(submissionWorkflowId(submissionId)).result(),
      );
    },
    drain() {
      draining = true;
      pump();
      return new Promise<void>((resolve) => {
        idle.push(resolve);
        settleIfIdle();
      });
    },
  };
}

/**
 * A starter with an admission window of its own (ADMISSION_WINDOW), as each serve process and
 * each starting worker has; `admission.stop()` ends its polling.
 */
export function createAdmittedWorkflowStarter(deps: {
  temporal: LazyTemporalClient;
  orm: Orm;
  taskQueue: string;
  logger: Logger;
  delivery: DeliveryPolicy;
  window: number;
}): { workflows: SubmissionWorkflowStarter; admission: Admission } {
  const { window, ...rest } = deps;
  const admission = createAdmission({ orm: deps.orm, window, logger: deps.logger });
  return { workflows: createWorkflowStarter({ ...rest, admission }), admission };
}
