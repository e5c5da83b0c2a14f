import { Connection, Client, WorkflowNotFoundError } from '@temporalio/client';
import { eventually } from './eventually';

type SqlRunner = {
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
};

export type WorkflowState = { status: string; taskQueue: string; result: unknown };

/** The status (e.g. `COMPLETED`) of a workflow on a Temporal server, or null when it does not exist. */
export async function describeWorkflow(
  address: string,
  workflowId: string,
  namespace = 'default',
): Promise<WorkflowState | null> {
  const connection = await Connection.connect({ address, connectTimeout: '3s' });
  try {
    const handle = new Client({ connection, namespace }).workflow.getHandle(workflowId);
    const description = await handle.describe();
    const status = description.status.name;
    return {
      status,
      taskQueue: description.taskQueue,
      result: status === 'COMPLETED' ? await handle.result() : null,
    };
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return null;
    throw error;
  } finally {
    await connection.close();
  }
}

/**
 * Waits until workflow `submission-{id}` has completed on the stack's Temporal server and
 * task queue (so it is this stack's workflow) and returns its result.
 */
export async function completedSubmissionWorkflow(
  stack: { temporalAddress: string; taskQueue: string },
  submissionId: string,
  timeoutMs = 20_000,
): Promise<unknown> {
  const state = await eventually(
    async () => {
      const found = await describeWorkflow(stack.temporalAddress, `submission-${submissionId}`);
      if (found && found.taskQueue !== stack.taskQueue)
        throw new Error(`it runs on task queue ${found.taskQueue}, not ${stack.taskQueue}`);
      if (found?.status === 'COMPLETED') return found;
      throw new Error(`status ${found?.status ?? 'not started'}`);
    },
    { timeoutMs, what: `workflow submission-${submissionId} COMPLETED` },
  );
  return state.result;
}

/** Whether the submission's workflow start is recorded (no pending start left), and its spam check. */
export type WorkflowMarks = { workflow_started: boolean; spam_checked_at: Date | null };

export async function workflowMarks(
  stack: SqlRunner,
  submissionId: string,
): Promise<WorkflowMarks> {
  const [row] = await stack.sql<{
    workflow_started: boolean;
    spam_checked_at: string | Date | null;
  }>(
    `select not exists (select 1 from pending_workflow_starts p where p.submission_id = s.id)
              as workflow_started, s.spam_checked_at
       from submissions s where s.id = ?`,
    [submissionId],
  );
  if (!row) throw new Error(`submission ${submissionId} is not stored`);
  const asDate = (value: string | Date | null) => (value === null ? null : new Date(value));
  return {
    workflow_started: row.workflow_started,
    spam_checked_at: asDate(row.spam_checked_at),
  };
}

/** Waits until the DB shows that the submission's workflow was started and its spam check ran. */
export async function waitForWorkflowMarks(
  stack: SqlRunner,
  submissionId: string,
  timeoutMs = 20_000,
): Promise<WorkflowMarks> {
  return eventually(
    async () => {
      const marks = await workflowMarks(stack, submissionId);
      return marks.workflow_started && marks.spam_checked_at ? marks : null;
    },
    { timeoutMs, what: `workflow start and spam_checked_at of submission ${submissionId}` },
  );
}

/**
 * The commands of workflow `submission-{id}` as its history shows them: `local NAME` for a
 * local activity's marker, `activity NAME` with the regular activity's retry policy and input,
 * `timer` with its duration in ms.
 */
export type HistoryCommand =
  | { kind: 'local'; name: string }
  | { kind: 'timer'; ms: number }
  | {
      kind: 'activity';
      name: string;
      initialIntervalMs: number;
      maximumAttempts: number;
      input: unknown;
    };

export async function submissionCommands(
  stack: { temporalAddress: string },
  submissionId: string,
): Promise<HistoryCommand[]> {
  const connection = await Connection.connect({ address: stack.temporalAddress });
  try {
    const handle = new Client({ connection }).workflow.getHandle(`submission-${submissionId}`);
    const history = await handle.fetchHistory();
    const ms = (duration?: { seconds?: unknown; nanos?: number | null } | null) =>
      Number(duration?.seconds ?? 0) * 1000 + Math.round((duration?.nanos ?? 0) / 1e6);
    const json = (data?: Uint8Array | null): unknown =>
      JSON.parse(Buffer.from(data ?? []).toString('utf8'));
    return (history.events ?? []).flatMap((event): HistoryCommand[] => {
      const marker = event.markerRecordedEventAttributes;
      if (marker?.markerName === 'core_local_activity') {
        const data = json(marker.details?.data?.payloads?.[0]?.data) as { activity_type: string };
        return [{ kind: 'local', name: data.activity_type }];
      }
      const timer = event.timerStartedEventAttributes;
      if (timer) return [{ kind: 'timer', ms: ms(timer.startToFireTimeout) }];
      const activity = event.activityTaskScheduledEventAttributes;
      if (!activity) return [];
      return [
        {
          kind: 'activity',
          name: activity.activityType?.name ?? '',
          initialIntervalMs: ms(activity.retryPolicy?.initialInterval),
          maximumAttempts: activity.retryPolicy?.maximumAttempts ?? 0,
          input: json(activity.input?.payloads?.[0]?.data),
        },
      ];
    });
  } finally {
    await connection.close();
  }
}
