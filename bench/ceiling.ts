// The Temporal ceiling: bench/ceiling-workflow.ts (Formward's workflow shape, no-op
// activities) on the same server as Formward, on a task queue of its own with a worker in
// this process. How fast that completes workflows is the most Formward's deliveries can reach
// on that server; the report divides Formward's figures by it.
// Alone: `node .tmp/bench/dist/bench/ceiling.js` with CEILING_ADDRESS (host:port) to measure a
// server started by hand (e.g. to compare dev-server flags), and the BENCH_E2E_* settings.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Connection, WorkflowClient } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { ceilingActivities, type DeliveryClock } from './ceiling-activities';
import { deliveryStats, type DeliveryStats, type Submitted } from './deliveries';
import { E2E_SETTINGS } from './e2e-settings';
import { round, sleep } from './util';

export type CeilingPhase = {
  name: string;
  /** Workflow starts per second the client achieved. */
  startRate: number;
  /** Latency: the delivery activity ran minus the start call returned. */
  deliveries: DeliveryStats;
  complete: boolean;
  waitedS: number;
};

export type CeilingResult = { taskQueue: string; phases: CeilingPhase[] };

type Options = { address: string; namespace: string; say: (line: string) => void };

/** One probe workflow, then a warm-up, then paced and burst as Formward's e2e runs them. */
export async function runCeiling({ address, namespace, say }: Options): Promise<CeilingResult> {
  const s = E2E_SETTINGS;
  const taskQueue = `bench-ceiling-${randomBytes(4).toString('hex')}`;
  const delivered: DeliveryClock = new Map();
  quietSdkLogs();
  const workerConnection = await NativeConnection.connect({ address });
  const clientConnection = await Connection.connect({ address });
  try {
    say(`ceiling: bundling the probe workflow, worker on task queue ${taskQueue}`);
    const worker = await Worker.create({
      connection: workerConnection,
      namespace,
      taskQueue,
      workflowsPath: require.resolve('./ceiling-workflow'),
      activities: ceilingActivities(delivered),
    });
    const client = new WorkflowClient({ connection: clientConnection, namespace });
    const start = async (id: string): Promise<Submitted> => {
      await client.start('ceilingProbe', { taskQueue, workflowId: id });
      return { id, answeredAt: performance.now() };
    };
    const phase = async (name: string, run: () => Promise<Submitted[]>, measured = false) => {
      const t0 = performance.now();
      const submitted = await run();
      const startRate = round(submitted.length / ((performance.now() - t0) / 1000), 1);
      const wait = await waitFor(delivered, submitted, s.waitS * 1000);
      const deliveries = deliveryStats(submitted, receiptsOf(delivered, submitted));
      const result = { name, startRate, deliveries, ...wait };
      if (measured) say(`ceiling: ${name}: ${summary(result)}`);
      return result;
    };
    const phases: CeilingPhase[] = [];
    await worker.runUntil(async () => {
      const prefix = `${taskQueue}-`;
      await phase('probe', async () => [await start(`${prefix}probe`)]);
      say(`ceiling: warm-up ${s.warmupS} s at ${s.rate}/s`);
      await phase('warmup', () => paced(start, `${prefix}warmup`, s.rate, s.warmupS));
      say(`ceiling: ${s.durationS} s paced at ${s.rate} workflows/s`);
      const name = `paced ${s.rate}/s for ${s.durationS} s`;
      phases.push(
        await phase(name, () => paced(start, `${prefix}paced`, s.rate, s.durationS), true),
      );
      say(`ceiling: burst of ${s.burst}`);
      phases.push(
        await phase(
          `burst of ${s.burst}`,
          () => burst(start, `${prefix}burst`, s.burst, s.burstConcurrency),
          true,
        ),
      );
    });
    return { taskQueue, phases };
  } finally {
    await clientConnection.close();
    await workerConnection.close();
  }
}

type Start = (id: string) => Promise<Submitted>;

/** One start every 1/rate s, evenly spaced (open loop). */
async function paced(start: Start, prefix: string, rate: number, durationS: number) {
  const t0 = performance.now();
  const pending: Promise<Submitted>[] = [];
  for (let i = 0; i < Math.round(rate * durationS); i++) {
    const wait = t0 + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(start(`${prefix}-${i}`));
  }
  return Promise.all(pending);
}

/** `count` starts, `concurrency` at a time (closed loop), as the e2e burst posts them. */
async function burst(start: Start, prefix: string, count: number, concurrency: number) {
  const submitted: Submitted[] = [];
  let next = 0;
  const sender = async () => {
    while (next < count) submitted.push(await start(`${prefix}-${next++}`));
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, sender));
  return submitted;
}

async function waitFor(delivered: DeliveryClock, submitted: Submitted[], timeoutMs: number) {
  const t0 = performance.now();
  const done = () => submitted.every((x) => delivered.has(x.id));
  while (!done() && performance.now() - t0 < timeoutMs) await sleep(50);
  return { complete: done(), waitedS: round((performance.now() - t0) / 1000, 1) };
}

const receiptsOf = (delivered: DeliveryClock, submitted: Submitted[]) =>
  submitted.flatMap((x) => {
    const at = delivered.get(x.id);
    return at === undefined ? [] : [{ submissionId: x.id, webhookId: x.id, at, signatureOk: true }];
  });

const summary = (p: CeilingPhase) =>
  `${p.deliveries.received}/${p.deliveries.submitted} completed, ${p.deliveries.deliveriesPerS}/s, ` +
  `p50 ${p.deliveries.latencyMs.p50} ms, p99 ${p.deliveries.latencyMs.p99} ms (starts ${p.startRate}/s)`;

/** The SDK logs each worker state change at INFO to stdout, amid the report: warnings only. */
function quietSdkLogs(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    /* installed already (a second probe in this process) */
  }
}

if (require.main === module) {
  const address = process.env.CEILING_ADDRESS;
  if (!address) throw new Error('CEILING_ADDRESS (host:port of a Temporal frontend) is required');
  const say = (line: string) => console.error(line);
  runCeiling({ address, namespace: process.env.TEMPORAL_NAMESPACE || 'default', say }).catch(
    (error: Error) => {
      say(`failed: ${error.stack ?? error.message}`);
      process.exitCode = 1;
    },
  );
}
