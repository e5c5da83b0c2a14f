import { WorkflowNotFoundError } from '@temporalio/client';
import type { RecoveryStarter } from '../domain/deliveries/recovery-starter';
import type { DeliveryPolicy } from '../../workflows/delivery-kinds';
import { recoveryWorkflowId, type RecoveryWorkflowInput } from '../../workflows/recovery-contract';
import type { LazyTemporalClient } from './client';

/** Starts `recovery-{id}` (docs/recovery.md) with the rate and retry policy of this process. */
export function createRecoveryStarter(deps: {
  temporal: LazyTemporalClient;
  taskQueue: string;
  delivery: DeliveryPolicy;
  ratePerSecond: number;
}): RecoveryStarter {
  return {
    async start(run) {
      const workflowId = recoveryWorkflowId(run.recoveryId);
      const input: RecoveryWorkflowInput = {
        ...run,
        ratePerSecond: deps.ratePerSecond,
        delivery: deps.delivery,
      };
      await deps.temporal.call(5000, (client) =>
        client.workflow.start('recoveryWorkflow', {
          taskQueue: deps.taskQueue,
          workflowId,
          args: [input],
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
        }),
      );
      return { workflowId };
    },
    async isRunning(workflowId) {
      try {
        const described = await deps.temporal.call(5000, (client) =>
          client.workflow.getHandle(workflowId).describe(),
        );
        return described.status.name === 'RUNNING';
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return false;
        return null; // Temporal unreachable: nobody can tell, so the run stays as it is.
      }
    },
    async terminate(workflowId, reason) {
      try {
        await deps.temporal.call(5000, (client) =>
          client.workflow.getHandle(workflowId).terminate(reason),
        );
      } catch (error) {
        // Already finished or never started: nothing runs any more.
        if (!(error instanceof WorkflowNotFoundError)) throw error;
      }
    },
  };
}
