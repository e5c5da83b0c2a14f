import { Client, Connection } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { eagerStartClient } from '../../src/runtime/worker-runner';
import { useTestStack } from '../support/fixture';
import { ingestResultOf, postJson } from '../support/ingest-requests';
import { completedSubmissionWorkflow } from '../support/workflow-probes';

// docs/running.md (Admission of workflow starts): with the worker in the same process
// (`formward start`), starts go through the worker's connection with eager start.

// Serve-process starts (WORKFLOW_STARTS=serve); worker-starts.test.ts covers the workers' own.
const t = useTestStack({ env: { WORKFLOW_STARTS: 'serve' } });

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
    'hands the first task to the in-process worker, and normal starts resume when it is off',
    { timeout: 120_000 },
    async () => {
      const worker = await t.stack.startWorker();
      const form = await t.api.createForm({ name: 'Eager' });
      const submit = async () => {
        const res = await postJson(form.json_url, { email: 'eager@example.com' });
        expect(res.status).toBe(200);
        const id = ingestResultOf(res).id;
        await completedSubmissionWorkflow(t.stack, id);
        return (await firstEvent(`submission-${id}`))?.eagerExecutionAccepted ?? false;
      };

      expect(await submit()).toBe(false);
      t.stack.ctx.workflows.useEagerStart(
        eagerStartClient(worker, t.stack.config.temporal.namespace),
      );
      expect(await submit()).toBe(true);
      t.stack.ctx.workflows.useEagerStart(null);
      expect(await submit()).toBe(false);
    },
  );
});
