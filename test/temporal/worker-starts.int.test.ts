import { Client, Connection } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { expectAnswer } from '../support/api-client';
import { eventually } from '../support/eventually';
import { useTestStack } from '../support/fixture';
import { ingestResultOf, postJson } from '../support/ingest-requests';
import { describeWorkflow, completedSubmissionWorkflow } from '../support/workflow-probes';

// src/pipeline (docs/architecture.md): the HTTP process stores and answers; the workers claim
// the pending starts, told by PostgreSQL, and start them within their admission window.

const WINDOW = 3;
const BURST = 10;
const t = useTestStack({ env: { ADMISSION_WINDOW: String(WINDOW) } });

const eagerlyStarted = async (workflowId: string) => {
  const connection = await Connection.connect({ address: t.stack.temporalAddress });
  try {
    const history = await new Client({ connection }).workflow.getHandle(workflowId).fetchHistory();
    return history.events?.[0]?.workflowExecutionStartedEventAttributes?.eagerExecutionAccepted;
  } finally {
    await connection.close();
  }
};
const pending = async () =>
  (await t.stack.sql<{ id: string }>('select submission_id as id from pending_workflow_starts'))
    .map((row) => String(row.id))
    .sort();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const readyStarts = async () =>
  expectAnswer(await t.http.get('/readyz'), 'GET /readyz', 200).workflow_starts;

/** The workflow ids of every run on this stack's task queue. */
async function runsOnTaskQueue(atLeast: number): Promise<string[]> {
  const connection = await Connection.connect({ address: t.stack.temporalAddress });
  try {
    const client = new Client({ connection });
    return await eventually(async () => {
      const found: string[] = [];
      for await (const run of client.workflow.list({
        query: `TaskQueue = '${t.stack.taskQueue}'`,
      }))
        found.push(run.workflowId);
      return found.length >= atLeast && found;
    });
  } finally {
    await connection.close();
  }
}

describe('workflow starts by the workers', () => {
  it(
    'leaves a burst stored until a worker runs, which starts every workflow once, eagerly, within its window',
    { timeout: 120_000 },
    async () => {
      const form = await t.api.createForm({ name: 'Worker starts' });
      const ids: string[] = [];
      for (let i = 0; i < BURST; i++) {
        const res = await postJson(form.json_url, { email: `w${i}@example.com`, n: i });
        expect(res.status).toBe(200);
        ids.push(ingestResultOf(res).id);
      }
      // The HTTP process started nothing: no worker, no start; /readyz says they wait.
      await pause(1_000);
      expect(await pending()).toEqual([...ids].sort());
      expect(await describeWorkflow(t.stack.temporalAddress, `submission-${ids[0]}`)).toBeNull();
      expect(await readyStarts()).toEqual({ waiting: BURST, queued: 0, in_flight: 0, window: 0 });

      const worker = await t.stack.startWorker();
      try {
        for (const id of ids) await completedSubmissionWorkflow(t.stack, id);
        expect(await pending()).toEqual([]);
        // Started on the worker's own connection: the first task came back with the start.
        for (const id of ids) expect(await eagerlyStarted(`submission-${id}`)).toBe(true);
        const delivered = await t.stack.sql<{ n: string }>(
          `select count(*) as n from submissions where id = any(?::bigint[]) and spam_checked_at is not null`,
          [`{${ids.join(',')}}`],
        );
        expect(Number(delivered[0]!.n)).toBe(BURST);
        // The worker's window is this process's while it runs; nothing waits any more.
        expect(await readyStarts()).toMatchObject({ waiting: 0, queued: 0, window: WINDOW });
        // One run per submission on this task queue, none twice.
        const runs = await runsOnTaskQueue(BURST);
        expect(runs.sort()).toEqual(ids.map((id) => `submission-${id}`).sort());
      } finally {
        await worker.stop();
      }
    },
  );

  it(
    'never starts a start another worker has claimed until that claim lapses',
    { timeout: 120_000 },
    async () => {
      const form = await t.api.createForm({ name: 'Claimed' });
      const res = await postJson(form.json_url, { email: 'claimed@example.com' });
      const id = ingestResultOf(res).id;
      // A worker that claimed it and died.
      await t.stack.sql(
        `update pending_workflow_starts set claimed_until = now() + interval '1 hour'
          where submission_id = ?`,
        [id],
      );
      const worker = await t.stack.startWorker();
      try {
        await pause(2_500); // past two of the dispatcher's polls
        expect(await pending()).toEqual([id]);
        expect(await describeWorkflow(t.stack.temporalAddress, `submission-${id}`)).toBeNull();
        await t.stack.sql(
          `update pending_workflow_starts set claimed_until = now() where submission_id = ?`,
          [id],
        );
        await completedSubmissionWorkflow(t.stack, id);
        expect(await pending()).toEqual([]);
      } finally {
        await worker.stop();
      }
    },
  );
});
