import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { LazyTemporalClient } from './client';

/** The default task queue's schedule is `formward-retention` (docs/retention.md). */
const DEFAULT_TASK_QUEUE = 'formward';

/**
 * The retention schedule's id: `formward-retention`, or `formward-retention-<queue>` for another
 * task queue, so deployments (and test stacks) sharing a namespace each purge their own database.
 */
export function retentionScheduleId(taskQueue: string): string {
  return taskQueue === DEFAULT_TASK_QUEUE
    ? 'formward-retention'
    : `formward-retention-${taskQueue}`;
}

/**
 * Creates the hourly retention schedule unless it exists: each worker asks at start, the first
 * creates it, the others find it (`exists`). An existing schedule is left as it is, so a change
 * made in the Temporal UI (paused, another interval) stays.
 */
export async function ensureRetentionSchedule(
  client: Client,
  taskQueue: string,
): Promise<'created' | 'exists'> {
  const scheduleId = retentionScheduleId(taskQueue);
  try {
    await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every: '1h' }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'retentionWorkflow',
        workflowId: scheduleId,
        taskQueue,
        args: [{}],
      },
      // One purge at a time; a purge missed while Temporal was down runs once when it is back.
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1h' },
      memo: { description: 'Formward retention purge (docs/retention.md)' },
    });
    return 'created';
  } catch (error) {
    if (error instanceof ScheduleAlreadyRunning) return 'exists';
    throw error;
  }
}

/** When the next purge runs: a time, or why it is not known. */
export type NextPurge =
  | { known: true; at: Date | null; paused: boolean }
  | { known: false; reason: 'missing' | 'unreachable' };

/** Reads the schedule's next action time, for the dashboard; never throws. */
export type RetentionScheduleReader = { nextPurge(): Promise<NextPurge> };

const DESCRIBE_TIMEOUT_MS = 2_000;

export function retentionScheduleReader(
  temporal: LazyTemporalClient,
  taskQueue: string,
): RetentionScheduleReader {
  const scheduleId = retentionScheduleId(taskQueue);
  return {
    async nextPurge() {
      let timer: NodeJS.Timeout | undefined;
      // The connection itself may hang on an unreachable server: the page waits no longer.
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer')), DESCRIBE_TIMEOUT_MS);
      });
      try {
        const description = await Promise.race([
          temporal.call(DESCRIBE_TIMEOUT_MS, (client) =>
            client.schedule.getHandle(scheduleId).describe(),
          ),
          late,
        ]);
        return {
          known: true,
          at: description.info.nextActionTimes[0] ?? null,
          paused: description.state.paused,
        };
      } catch (error) {
        const missing = (error as Error).name === 'ScheduleNotFoundError';
        return { known: false, reason: missing ? 'missing' : 'unreachable' };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
