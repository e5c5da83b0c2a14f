import { Client, Connection } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { expectAnswer } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { ingestResultOf, postJson } from '../support/ingest-requests';
import { eventually } from '../support/eventually';
import { completedSubmissionWorkflow } from '../support/workflow-probes';

// src/temporal/admission.ts: a serve process starts at most ADMISSION_WINDOW workflows ahead
// of the workers; the rest of a burst waits in PostgreSQL and /readyz says how many.

const WINDOW = 3;
const BURST = 10;
// The serve process's own starter (WORKFLOW_STARTS=serve); worker-starts.test.ts has the workers'.
const t = useTestStack({ env: { ADMISSION_WINDOW: String(WINDOW), WORKFLOW_STARTS: 'serve' } });

const readyStarts = async () =>
  expectAnswer(await t.http.get('/readyz'), 'GET /readyz', 200).workflow_starts;

describe('admission control of workflow starts', () => {
  it(
    'starts a burst no faster than a worker takes it up, reports the wait, delivers each once',
    { timeout: 120_000 },
    async () => {
      const form = await t.api.createForm({ name: 'Burst' });
      const ids: string[] = [];
      for (let i = 0; i < BURST; i++) {
        const res = await postJson(form.json_url, { email: `b${i}@example.com`, n: i });
        expect(res.status).toBe(200);
        ids.push(ingestResultOf(res).id);
      }

      // No worker yet: the window fills and the rest of the burst waits, stored.
      const expected = { waiting: BURST - WINDOW, queued: BURST - WINDOW, in_flight: WINDOW };
      await eventually(
        async () => {
          const starts = await readyStarts();
          return starts.waiting === expected.waiting && starts;
        },
        { what: `${expected.waiting} submissions waiting` },
      );
      // Several polls and sweeper rounds later nothing more has started.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await readyStarts()).toEqual({ ...expected, window: WINDOW });
      const started = await t.stack.sql<{ n: string }>(
        `select count(*) as n from submissions s
          where not exists (select 1 from pending_workflow_starts p where p.submission_id = s.id)`,
      );
      expect(Number(started[0]!.n)).toBe(WINDOW);

      // A worker takes them up: the rest are started as room frees, every one completes.
      await t.stack.startWorker();
      for (const id of ids) await completedSubmissionWorkflow(t.stack, id, 60_000);
      expect(await readyStarts()).toMatchObject({ waiting: 0, queued: 0 });

      // One run per submission on this task queue, none twice.
      const connection = await Connection.connect({ address: t.stack.temporalAddress });
      try {
        const client = new Client({ connection });
        const runs = await eventually(async () => {
          const found: string[] = [];
          for await (const run of client.workflow.list({
            query: `TaskQueue = '${t.stack.taskQueue}'`,
          }))
            found.push(run.workflowId);
          return found.length >= BURST && found;
        });
        expect(runs.sort()).toEqual(ids.map((id) => `submission-${id}`).sort());
      } finally {
        await connection.close();
      }
    },
  );
});
