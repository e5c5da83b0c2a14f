import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RetentionActivities } from './activity-contracts';
import { RETENTION_BATCH_SIZE, type PurgeBatchInput } from './retention-contract';
import { RETENTION_BATCHES_PER_RUN, retentionWorkflow } from './retention-workflow';

// The hourly purge's loop (docs/retention.md) on a throw-away dev server, its activities
// answering as the database would for a given backlog: batches until one comes back short,
// continue-as-new every RETENTION_BATCHES_PER_RUN batches, then the stale rows once.

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: inject('stack').temporalCli } },
  });
});
afterAll(() => env?.teardown());

/** Activities over a backlog of `backlog` due submissions, every tenth of them spam. */
function backlogOf(backlog: number) {
  let left = backlog;
  const batches: PurgeBatchInput[] = [];
  let staleCalls = 0;
  const activities: RetentionActivities = {
    async purgeSubmissionBatch(input) {
      batches.push(input);
      const deleted = Math.min(left, input.limit);
      left -= deleted;
      return { deleted, spam: Math.floor(deleted / 10) };
    },
    async purgeStaleRows() {
      staleCalls += 1;
      return { recipientRequests: 2, mailHours: 3, purgedAttempts: 4, autoresponseSends: 5 };
    },
    async deleteDeliveredSubmission() {
      throw new Error('not part of the purge');
    },
  };
  return { activities, batches, staleCalls: () => staleCalls, left: () => left };
}

async function purge(activities: RetentionActivities) {
  const taskQueue = `retention-test-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: path.resolve(__dirname, 'retention-workflow.ts'),
    activities,
  });
  return worker.runUntil(async () => {
    const handle = await env.client.workflow.start(retentionWorkflow, {
      taskQueue,
      workflowId: `retention-test-${randomUUID()}`,
      args: [{}],
      workflowExecutionTimeout: '2m',
    });
    const result = await handle.result();
    const runs = [];
    for await (const run of env.client.workflow.list({
      query: `WorkflowId = '${handle.workflowId}'`,
    }))
      runs.push(run);
    return { result, runs: runs.length };
  });
}

describe('retentionWorkflow', () => {
  it('purges batch after batch until one is short, then the stale rows', async () => {
    const backlog = backlogOf(2 * RETENTION_BATCH_SIZE + 17);
    const { result, runs } = await purge(backlog.activities);
    expect(result).toEqual({
      batches: 3,
      deleted: 2 * RETENTION_BATCH_SIZE + 17,
      spam: 2 * (RETENTION_BATCH_SIZE / 10) + 1,
      stale: { recipientRequests: 2, mailHours: 3, purgedAttempts: 4, autoresponseSends: 5 },
    });
    expect(backlog.batches).toEqual(Array(3).fill({ limit: RETENTION_BATCH_SIZE }));
    expect(backlog.staleCalls()).toBe(1);
    expect(runs).toBe(1);
  });

  it('continues as new past RETENTION_BATCHES_PER_RUN batches, carrying the counts', async () => {
    const batches = RETENTION_BATCHES_PER_RUN + 5;
    const backlog = backlogOf(batches * RETENTION_BATCH_SIZE);
    const { result, runs } = await purge(backlog.activities);
    // The last batch finds nothing left: one more than the backlog's.
    expect(result).toMatchObject({ batches: batches + 1, deleted: batches * RETENTION_BATCH_SIZE });
    expect(backlog.left()).toBe(0);
    expect(backlog.staleCalls()).toBe(1);
    expect(runs).toBe(2);
  }, 120_000);
});
