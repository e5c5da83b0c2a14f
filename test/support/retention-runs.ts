import { Client, Connection } from '@temporalio/client';
import { retentionScheduleId } from '../../src/temporal/retention-schedule';
import type { RetentionWorkflowResult } from '../../workflows/retention-contract';
import { eventually } from './eventually';

/** A client of the stack's Temporal server, for its retention schedule (close it after). */
export async function temporalClientOf(stack: { temporalAddress: string }) {
  const connection = await Connection.connect({
    address: stack.temporalAddress,
    connectTimeout: '3s',
  });
  return { client: new Client({ connection }), close: () => connection.close() };
}

/** The stack's retention schedule (`formward-retention-<task queue>`). */
export function retentionScheduleOf(client: Client, stack: { taskQueue: string }) {
  return client.schedule.getHandle(retentionScheduleId(stack.taskQueue));
}

/**
 * Triggers the stack's retention schedule, as "Trigger" in the Temporal UI does, and waits for
 * the purge it starts to finish (following continue-as-new); returns its result.
 */
export async function triggerPurge(
  client: Client,
  stack: { taskQueue: string },
): Promise<RetentionWorkflowResult> {
  const schedule = retentionScheduleOf(client, stack);
  const latest = async () => (await schedule.describe()).info.recentActions.at(-1);
  const before = await latest();
  await schedule.trigger();
  const action = await eventually(
    async () => {
      const last = await latest();
      return last && last.takenAt.getTime() !== before?.takenAt.getTime() ? last : null;
    },
    { what: 'the triggered purge started' },
  );
  const { workflowId, firstExecutionRunId } = action.action.workflow;
  return client.workflow
    .getHandle(workflowId, firstExecutionRunId, { followRuns: true })
    .result() as Promise<RetentionWorkflowResult>;
}
