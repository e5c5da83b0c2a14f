import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Logger } from 'pino';
import type { Orm } from '../db/orm';
import { markTestRun, markWorkflowsStarted } from '../db/sql/submissions';
import { randomBytes } from 'node:crypto';
import type { DeliveryPolicy } from '../../workflows/delivery-policy';
import type {
  SubmissionWorkflowInput,
  SubmissionWorkflowResult,
} from '../../workflows/submission-contract';
import type { LazyTemporalClient } from './client';
import { replayWorkflowId, submissionWorkflowId } from './workflow-ids';

/** Workflow starts in flight at once from one process: enough to keep up, bounded under load. */
const START_CONCURRENCY = 8;
/** Ids waiting beyond this are left to the sweeper, so a Temporal outage cannot grow memory. */
const MAX_QUEUED = 10_000;

export interface SubmissionWorkflowStarter {
  /**
   * Queues `submission-{id}` to be started soon, off the request path, with bounded
   * concurrency; started rows are marked in batches. What fails is left to the sweeper.
   */
  enqueue(submissionId: string): void;
  /** Starts `submission-{id}` in Temporal without marking the row; true when it runs or ran. */
  startUnmarked(submissionId: string): Promise<boolean>;
  /** Starts (or joins) the workflow in test mode and waits for its result, for `?test=true`. */
  runAndWait(submissionId: string, timeoutMs: number): Promise<SubmissionWorkflowResult>;
  /** Starts a new workflow that delivers the submission again; throws when Temporal is down. */
  replay(submissionId: string): Promise<{ workflowId: string; runId: string }>;
  /** Waits for the queued starts to finish (or fail). */
  drain(): Promise<void>;
}

export function createWorkflowStarter(deps: {
  temporal: LazyTemporalClient;
  orm: Orm;
  taskQueue: string;
  logger: Logger;
  delivery: DeliveryPolicy;
}): SubmissionWorkflowStarter {
  const { temporal, orm, taskQueue, logger } = deps;

  const startWorkflow = (workflowId: string, input: SubmissionWorkflowInput) =>
    temporal.call(5000, (client) =>
      client.workflow.start('submissionWorkflow', {
        taskQueue,
        workflowId,
        args: [input],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      }),
    );

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

  const startUnmarked = async (submissionId: string) => {
    try {
      await startInTemporal(submissionId);
      return true;
    } catch (error) {
      logger.warn(
        { submissionId, err: (error as Error).message },
        'could not start the submission workflow; the sweeper will retry',
      );
      return false;
    }
  };

  // The dispatcher: a queue, a few starters, and one batched update for what they started.
  const queue: string[] = [];
  let active = 0;
  let started: string[] = [];
  let marking: Promise<void> | null = null;
  let idle: Array<() => void> = [];

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
      const submissionId = queue.shift()!;
      active++;
      void startUnmarked(submissionId)
        .then((ok) => {
          if (ok) started.push(submissionId);
          else queue.length = 0; // Temporal unreachable: the sweeper takes over these
        })
        .finally(() => {
          active--;
          void markPending();
          pump();
          settleIfIdle();
        });
    }
  };

  return {
    enqueue(submissionId) {
      if (queue.length >= MAX_QUEUED) return;
      queue.push(submissionId);
      pump();
    },
    startUnmarked,
    async replay(submissionId) {
      const workflowId = replayWorkflowId(submissionId, randomBytes(6).toString('hex'));
      const handle = await startWorkflow(workflowId, {
        submissionId,
        mode: 'replay',
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
      return new Promise<void>((resolve) => {
        idle.push(resolve);
        settleIfIdle();
      });
    },
  };
}
