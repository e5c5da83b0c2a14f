import { randomBytes } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Orm } from '../db/orm';
import { markTestRun, markWorkflowsStarted } from '../db/sql/submissions';
import type { LazyTemporalClient } from '../temporal/client';
import { withTraceparent } from '../tracing/trace-hooks';
import type { DeliveryPolicy } from '../../workflows/delivery-kinds';
import {
  REDELIVERY,
  type DeletedSubmission,
  type DeliveryMode,
  type SubmissionWorkflowInput,
  type SubmissionWorkflowResult,
} from '../../workflows/submission-contract';
import {
  deletionWorkflowId,
  replayWorkflowId,
  submissionWorkflowId,
  versionWorkflowId,
} from './workflow-ids';

/** A start that Temporal does not answer within this long has failed (and is tried again). */
const START_DEADLINE_MS = 5_000;

/**
 * Step 4: the start of a submission's workflow in Temporal. The workers' claim loop
 * (2-claim-starts.ts) starts every live submission with it; the HTTP process uses it only for
 * what a person waits for: a `?test=true` run and a re-delivery.
 */
export interface SubmissionWorkflowStarter {
  /**
   * Starts `submission-{id}` (live). Idempotent: a workflow already started under that id is
   * success. Throws when Temporal refuses or does not answer. `traceparent`: the ingest
   * request's trace, which the start continues (docs/tracing.md).
   */
  start(submissionId: string, traceparent?: string | null): Promise<void>;
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
   * Starts the delivery of a submitter's edit that made `version` current, with the event
   * `submission.updated` (docs/manage-links.md); idempotent per version; throws when Temporal
   * is down.
   */
  updated(submissionId: string, version: number): Promise<void>;
  /**
   * Starts the delivery of a submitter's delete, `submission.deleted` with the ids only
   * (docs/manage-links.md); idempotent; throws when Temporal is down.
   */
  deleted(submissionId: string, deleted: DeletedSubmission): Promise<void>;
}

export function createWorkflowStarter(deps: {
  temporal: LazyTemporalClient;
  orm: Orm;
  taskQueue: string;
  delivery: DeliveryPolicy;
}): SubmissionWorkflowStarter {
  const { temporal, orm, taskQueue } = deps;
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
      return client.connection.withDeadline(Date.now() + START_DEADLINE_MS, () =>
        client.workflow.start('submissionWorkflow', { ...options, requestEagerStart: true }),
      );
    return temporal.call(START_DEADLINE_MS, (c) => c.workflow.start('submissionWorkflow', options));
  };

  const startOnce = async (submissionId: string, mode: DeliveryMode) => {
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

  return {
    start: (submissionId, traceparent) =>
      withTraceparent(traceparent, () => startOnce(submissionId, 'live')),
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
    async updated(submissionId, version) {
      try {
        await startWorkflow(versionWorkflowId(submissionId, version), {
          submissionId,
          mode: REDELIVERY,
          delivery: deps.delivery,
          event: 'submission.updated',
          version,
        });
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    },
    async deleted(submissionId, deleted) {
      try {
        await startWorkflow(deletionWorkflowId(submissionId), {
          submissionId,
          mode: REDELIVERY,
          delivery: deps.delivery,
          event: 'submission.deleted',
          deleted,
        });
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    },
    async runAndWait(submissionId, timeoutMs) {
      await markTestRun(orm.em.fork(), submissionId); // no `skipped` records for a test run
      await startOnce(submissionId, 'test');
      await markWorkflowsStarted(orm.em.fork(), [submissionId]);
      return temporal.call(timeoutMs, (client) =>
        client.workflow.getHandle(submissionWorkflowId(submissionId)).result(),
      );
    },
  };
}
