import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { freePort } from '../../src/embedded/free-port';
import { startTemporalDevServer, type TemporalDevServer } from '../../src/embedded/temporal-server';
import { runWorker, type RunningWorker } from '../../src/runtime/worker-runner';
import { startTestStack, type TestStack } from '../support/test-stack';
import {
  completedSubmissionWorkflow,
  waitForWorkflowMarks,
  workflowMarks,
} from './workflow-helpers';

// Decisions §5: a submission whose workflow could not start (Temporal down) is still
// accepted and stored; the sweeper starts `submission-{id}` once Temporal is back.

let dataDir: string;
let ports: { port: number; uiPort: number };
let temporal: TemporalDevServer | null = null;
let stack: TestStack | null = null;
let worker: RunningWorker | null = null;

/** Our own dev server: always the same ports and persistence file, so a restart is the same server. */
const startOwnTemporal = () =>
  startTemporalDevServer({
    cliPath: inject('stack').temporalCli,
    dataDir,
    namespace: 'default',
    ...ports,
  });

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-temporal-down-'));
  ports = { port: await freePort(), uiPort: await freePort() };
  temporal = await startOwnTemporal();
  stack = await startTestStack({ temporalAddress: temporal.address, worker: false });
});

/** Waits for a clean-up step at most `ms`, so one stuck step cannot leak the Temporal server. */
async function bounded(step: Promise<unknown> | undefined, ms: number, what: string) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.warn(`clean-up: ${what} did not finish within ${ms} ms`);
      resolve();
    }, ms);
  });
  await Promise.race([step, timeout]).finally(() => clearTimeout(timer));
}

afterAll(async () => {
  try {
    await bounded(worker?.stop(), 45_000, 'worker.stop()');
    await bounded(stack?.stop(), 20_000, 'stack.stop()');
  } finally {
    await temporal?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

describe('Temporal down during ingest', () => {
  it(
    'accepts and stores the submission; the sweeper starts its workflow once Temporal is back',
    { timeout: 180_000 },
    async () => {
      const s = stack!;
      const address = temporal!.address;
      const account = await s.createAccount();
      const created = await fetch(`${s.url}/api/forms`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${account.adminKey}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ name: 'While Temporal is down' }),
      });
      expect(created.status).toBe(201);
      const { form } = (await created.json()) as { form: { json_url: string } };

      await temporal!.stop();
      temporal = null;

      const res = await fetch(form.json_url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'down@example.com', message: 'still accepted' }),
      });
      expect(res.status).toBe(200);
      const { id } = (await res.json()) as { id: string };
      const [stored] = await s.sql<{ payload_json: unknown }>(
        'select payload_json from submissions where id = ?',
        [id],
      );
      expect(stored?.payload_json).toEqual({
        email: 'down@example.com',
        message: 'still accepted',
      });

      // Several sweeper rounds (500 ms apart) fail while Temporal is down: nothing is marked started.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(await workflowMarks(s, id)).toEqual({
        workflow_started_at: null,
        spam_checked_at: null,
      });

      const restartedAt = Date.now();
      temporal = await startOwnTemporal();
      expect(temporal.address).toBe(address);
      worker = await runWorker(s.ctx, { address });

      const result = await completedSubmissionWorkflow(s, id, 60_000);
      expect(result).toMatchObject({ submissionId: id, spam: { isSpam: false } });
      const marks = await waitForWorkflowMarks(s, id, 20_000);
      // Marked only after the restart: the sweeper started it, not the request.
      expect(marks.workflow_started_at!.getTime()).toBeGreaterThanOrEqual(restartedAt - 1000);
      expect(marks.spam_checked_at!.getTime()).toBeGreaterThanOrEqual(restartedAt - 1000);
    },
  );
});
