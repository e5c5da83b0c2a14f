import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Logger } from 'pino';
import type { Orm } from '../db/orm';
import type { SubmissionWorkflowResult } from '../../workflows/submission-workflow';
import type { LazyTemporalClient } from './client';
import { submissionWorkflowId } from './workflow-ids';

export interface SubmissionWorkflowStarter {
  /** Starts `submission-{id}` once; true when it is running or already ran. Never throws. */
  start(submissionId: string): Promise<boolean>;
  /**
   * Starts `submission-{id}` in Temporal without marking the row; true when it runs or ran.
   * For the sweeper, which marks the rows it holds locked in its own transaction.
   */
  startUnmarked(submissionId: string): Promise<boolean>;
  /** Starts (or joins) the workflow and waits for its result, for `?test=true`. */
  runAndWait(submissionId: string, timeoutMs: number): Promise<SubmissionWorkflowResult>;
}

export function createWorkflowStarter(deps: {
  temporal: LazyTemporalClient;
  orm: Orm;
  taskQueue: string;
  logger: Logger;
}): SubmissionWorkflowStarter {
  const { temporal, orm, taskQueue, logger } = deps;

  const markStarted = (submissionId: string) =>
    orm.em
      .getConnection()
      .execute(
        'update submissions set workflow_started_at = now() where id = ? and workflow_started_at is null',
        [submissionId],
      );

  const startInTemporal = async (submissionId: string) => {
    try {
      await temporal.call(5000, (client) =>
        client.workflow.start('submissionWorkflow', {
          taskQueue,
          workflowId: submissionWorkflowId(submissionId),
          args: [{ submissionId }],
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
        }),
      );
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  };
  const startOnce = async (submissionId: string) => {
    await startInTemporal(submissionId);
    await markStarted(submissionId);
  };
  const warnNotStarted = (submissionId: string, error: unknown) =>
    logger.warn(
      { submissionId, err: (error as Error).message },
      'could not start the submission workflow; the sweeper will retry',
    );

  return {
    async start(submissionId) {
      try {
        await startOnce(submissionId);
        return true;
      } catch (error) {
        warnNotStarted(submissionId, error);
        return false;
      }
    },
    async startUnmarked(submissionId) {
      try {
        await startInTemporal(submissionId);
        return true;
      } catch (error) {
        warnNotStarted(submissionId, error);
        return false;
      }
    },
    async runAndWait(submissionId, timeoutMs) {
      await startOnce(submissionId);
      return temporal.call(timeoutMs, (client) =>
        client.workflow.getHandle(submissionWorkflowId(submissionId)).result(),
      );
    },
  };
}
