import { Client, Connection } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { useTestStack } from '../support/fixture';
import { ingestResultOf, postJson } from '../support/ingest-requests';
import { completedSubmissionWorkflow } from '../support/workflow-probes';

// docs/running.md (Admission of workflow starts): TEMPORAL_EAGER_START=false turns eager start
// off; the workers' starts then go through the task queue (worker-starts.test.ts has them on).

const t = useTestStack({ env: { TEMPORAL_EAGER_START: 'false' } });

const firstEvent = async (workflowId: string) => {
  const connection = await Connection.connect({ address: t.stack.temporalAddress });
  try {
    const history = await new Client({ connection }).workflow.getHandle(workflowId).fetchHistory();
    return history.events?.[0]?.workflowExecutionStartedEventAttributes;
  } finally {
    await connection.close();
  }
};

describe('eager workflow start', () => {
  it(
    'is off with TEMPORAL_EAGER_START=false: the workflow still runs',
    { timeout: 120_000 },
    async () => {
      const worker = await t.stack.startWorker();
      try {
        const form = await t.api.createForm({ name: 'Not eager' });
        const res = await postJson(form.json_url, { email: 'eager@example.com' });
        expect(res.status).toBe(200);
        const id = ingestResultOf(res).id;
        await completedSubmissionWorkflow(t.stack, id);
        expect((await firstEvent(`submission-${id}`))?.eagerExecutionAccepted ?? false).toBe(false);
      } finally {
        await worker.stop();
      }
    },
  );
});
