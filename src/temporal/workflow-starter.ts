import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Logger } from 'pino';
import type { Orm } from '../db/orm';
import type { SubmissionWorkflowResult } from '../../workflows/submission-workflow';
import type { LazyTemporalClient } from './client';
import { submissionWorkflowId } from './workflow-ids';

export interface SubmissionWorkflowStarter {
  /** Starts `submission-{id}` once; true when it is running or already ran. Never throws. */
  start(submissionId: string): Promise<boolean>;
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

  const startOnce = async (submissionId: string) => {
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
    await markStarted(submissionId);
  };

  return {
    async start(submissionId) {
      try {
        await startOnce(submissionId);
        return true;
      } catch (error) {
        logger.warn(
          { submissionId, err: (error as Error).message },
          'could not start the submission workflow; the sweeper will retry',
        );
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
