import { describe, expect, it } from 'vitest';
import { useTestStack } from '../support/fixture';
import { ingestResultOf, postJson } from '../support/ingest-requests';
import { useOwnTemporal } from '../support/own-temporal';
import {
  completedSubmissionWorkflow,
  waitForWorkflowMarks,
  workflowMarks,
} from '../support/workflow-probes';

// docs/api-conventions.md (Temporal): a submission whose workflow could not start (Temporal
// down) is still accepted and stored; a worker starts `submission-{id}` once Temporal is back.

const temporal = useOwnTemporal();
// The stack's stop (worker included) is waited for at most 65 s, so that one stuck step
// cannot keep the Temporal server from being stopped.
const t = useTestStack(() => ({ temporalAddress: temporal.address, stopWithinMs: 65_000 }));

describe('Temporal down during ingest', () => {
  it(
    'accepts and stores the submission; a worker starts its workflow once Temporal is back',
    { timeout: 180_000 },
    async () => {
      const address = temporal.address;
      const form = await t.api.createForm({ name: 'While Temporal is down' });

      await temporal.stop();

      const res = await postJson(form.json_url, {
        email: 'down@example.com',
        message: 'still accepted',
      });
      expect(res.status).toBe(200);
      const id = ingestResultOf(res).id;
      const [stored] = await t.stack.sql<{ payload_json: unknown }>(
        'select payload_json from submissions where id = ?',
        [id],
      );
      expect(stored?.payload_json).toEqual({
        email: 'down@example.com',
        message: 'still accepted',
      });

      // While Temporal is down nothing is started: the start stays pending.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(await workflowMarks(t.stack, id)).toEqual({
        workflow_started: false,
        spam_checked_at: null,
      });

      const restartedAt = Date.now();
      await temporal.start();
      expect(temporal.address).toBe(address);
      await t.stack.startWorker();

      const result = await completedSubmissionWorkflow(t.stack, id, 60_000);
      expect(result).toMatchObject({ submissionId: id, spam: { isSpam: false } });
      const marks = await waitForWorkflowMarks(t.stack, id, 20_000);
      // Checked only after the restart: the worker's claim loop started it, not the request.
      expect(marks.workflow_started).toBe(true);
      expect(marks.spam_checked_at!.getTime()).toBeGreaterThanOrEqual(restartedAt - 1000);
    },
  );
});
