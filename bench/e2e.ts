import type { Pool } from 'pg';
import { runBurst, type BurstResult } from './burst';
import type { CeilingResult } from './ceiling';
import type { TestCertificates as Certificates } from '../test/support/test-ca';
import { coresBetween, sampleCpu } from './cpu';
import { startHttpsReceiver, type HttpsReceiver } from '../test/support/https-receiver';
import {
  deliveryStats,
  distinctBody,
  receiptOf,
  submissionLog,
  waitForDeliveries,
  type DeliveryStats,
  type Submitted,
} from './deliveries';
import {
  attemptSummary,
  lostReasons,
  stageLatencies,
  type AttemptSummary,
  type StageLatencies,
} from './delivery-log';
import {
  enableStatementStats,
  readDatabaseBudget,
  startStatementCount,
  statementStatsEnvironment,
  type DatabaseBudget,
} from './db-statements';
import { startExtraWorker, type ExtraWorker } from './extra-worker';
import { addWebhook, createForm } from './formward-api';
import type { Case } from './load';
import { runPaced, type PacedResult } from './paced';
import type { Formward, Shutdown } from './stack';
import type { TemporalServerKind } from './temporal-servers';
import { sleep } from './util';
import { E2E_SETTINGS, type E2eSettings } from './e2e-settings';

/** The formward environment the receiver needs: trust its CA, allow 127.0.0.1 as a target. */
export const e2eEnvironment = (certificates: Certificates) => ({
  NODE_EXTRA_CA_CERTS: certificates.caCertFile,
  WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
  // pg_stat_statements for the database budget (bench/db-statements.ts).
  EMBEDDED_POSTGRES_SETTINGS: statementStatsEnvironment(),
});

export type E2ePhase = {
  name: string;
  workers: number;
  /** Submissions per second ingest took (the generator's achieved rate). */
  ingestRate: number;
  ingest: PacedResult | BurstResult;
  /** Answers without a submission id (not 200, or not the expected JSON). */
  rejected: number;
  deliveries: DeliveryStats;
  /** For lost submissions: their state in the database, counted. */
  lostReasons: Record<string, number>;
  /** Time from the insert to each stage, from the database's timestamps. */
  stages: StageLatencies;
  /** Whether every delivery had arrived when the wait ended, and how long it took. */
  complete: boolean;
  waitedS: number;
  cores: Record<string, number>;
  /** Statements and database time per delivered submission (null: no pg_stat_statements). */
  database: DatabaseBudget | null;
};

export type E2eResult = {
  /** The Temporal server it ran on (bench/temporal-servers.ts; filled in after the run). */
  server?: TemporalServerKind;
  settings: E2eSettings;
  phases: E2ePhase[];
  receiver: { requests: number; tlsConnections: number; strays: number };
  attempts: AttemptSummary;
  extraWorker: (Shutdown & { startS: number; leftovers: string[] }) | null;
  /** The Temporal ceiling measured on the same server just before (bench/ceiling.ts). */
  ceiling?: CeilingResult;
  /** Each phase's deliveries/s over the ceiling's (bench/ceiling-report.ts). */
  ratiosToCeiling?: Record<string, number>;
  /** How the e2e stack's `formward start` stopped (filled in after the run). */
  shutdown?: Shutdown | null;
};

type Context = {
  formward: Formward;
  db: Pool;
  key: string;
  certificates: Certificates;
  /** Where the second worker's log goes. */
  workerLogFile: string;
  say: (line: string) => void;
  /** Whether pg_stat_statements counts (set once the stack runs). */
  statementStats?: boolean;
};

type Measured = Omit<E2ePhase, 'deliveries' | 'lostReasons' | 'stages'> & {
  submitted: Submitted[];
};

/**
 * End to end: a form with one webhook plugin pointing at an HTTPS receiver in this process;
 * submissions at a fixed rate (latency from the ingest answer to the receipt), then bursts
 * with one worker and with two (deliveries per second at the receiver).
 */
export async function runE2e(ctx: Context): Promise<E2eResult> {
  const { formward, say } = ctx;
  const s = E2E_SETTINGS;
  ctx.statementStats = await enableStatementStats(ctx.db);
  if (!ctx.statementStats) say('e2e: no pg_stat_statements here: no database budget');
  const receiver = await startHttpsReceiver(ctx.certificates);
  let extra: ExtraWorker | null = null;
  try {
    const form = await createForm(formward.url, ctx.key, 'E2E');
    const plugin = await addWebhook(formward.url, ctx.key, form.id, `${receiver.url}/hook`);
    const c: Case = {
      name: 'POST /json/{token} (e2e)',
      url: `${formward.url}/json/${form.token}`,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '',
      expectStatus: 200,
      verifyBody: (body) => body.includes('"ok":true'),
    };
    const all: Submitted[] = [];

    say(`e2e: probe (one submission through to ${receiver.url})`);
    const probe = await burst(ctx, receiver, c, 'probe', 1, 60);
    if (!probe.complete)
      throw new Error(`e2e: the probe was not delivered: ${await why(ctx, probe)}`);
    say(`e2e: warm-up ${s.warmupS} s at ${s.rate}/s`);
    const warm = await paced(ctx, receiver, c, 'warmup', s.warmupS);
    all.push(...probe.submitted, ...warm.submitted);

    say(`e2e: ${s.durationS} s paced at ${s.rate} submissions/s`);
    const measured: Measured[] = [await paced(ctx, receiver, c, 'paced', s.durationS)];
    say(`e2e: burst of ${s.burst}, 1 worker`);
    measured.push(await burst(ctx, receiver, c, 'burst-1', s.burst, burstWaitS()));

    say('e2e: starting a second worker (formward worker)');
    extra = await startExtraWorker(formward, ctx.workerLogFile);
    say(`e2e: second worker ready in ${extra.startS} s (pid ${extra.pid})`);
    await sleep(3000); // its pollers reach Temporal
    say(`e2e: burst of ${s.burst}, 2 workers`);
    measured.push(await burst(ctx, receiver, c, 'burst-2', s.burst, burstWaitS(), extra));
    say('e2e: stopping the second worker (SIGTERM)');
    const stopped = await extra.stop();
    const extraStopped = { ...stopped, startS: extra.startS };
    extra = null;

    await sleep(s.graceS * 1000);
    const receipts = receiver.received.map((r) => receiptOf(r, plugin.signingSecret));
    const phases: E2ePhase[] = [];
    for (const m of measured) {
      all.push(...m.submitted);
      const { submitted, ...rest } = m;
      const deliveries = deliveryStats(submitted, receipts);
      const reasons = await lostReasons(ctx.db, deliveries.lostIds);
      phases.push({
        ...rest,
        deliveries: { ...deliveries, lostIds: deliveries.lostIds.slice(0, 20) },
        lostReasons: reasons,
        stages: await stageLatencies(
          ctx.db,
          submitted.map((x) => x.id),
        ),
      });
    }
    const known = new Set(all.map((x) => x.id));
    return {
      settings: s,
      phases,
      receiver: {
        requests: receipts.length,
        tlsConnections: receiver.connections(),
        strays: receipts.filter((r) => !r.submissionId || !known.has(r.submissionId)).length,
      },
      attempts: await attemptSummary(ctx.db, plugin.id),
      extraWorker: extraStopped,
    };
  } finally {
    if (extra) await extra.stop().catch((e: Error) => say(`second worker stop: ${e.message}`));
    await receiver.close();
  }
}

/** The measured phases count their statements; the probe and the warm-up do not. */
const counted = (ctx: Context, phase: string) =>
  ctx.statementStats === true && phase !== 'probe' && phase !== 'warmup';

const burstWaitS = () => Math.max(E2E_SETTINGS.waitS, E2E_SETTINGS.burst / 5);

async function why(ctx: Context, m: Measured): Promise<string> {
  const reasons = await lostReasons(
    ctx.db,
    m.submitted.map((x) => x.id),
  );
  return `${JSON.stringify(reasons)} (answers without id: ${m.rejected})`;
}

/** The trees to sample beside formward's: the second worker, Temporal and its PostgreSQL. */
function pidsOf(formward: Formward, extra?: ExtraWorker): Record<string, number> {
  return { ...formward.neighbours, ...(extra ? { 'worker 2': extra.pid } : {}) };
}

async function paced(
  ctx: Context,
  receiver: HttpsReceiver,
  c: Case,
  phase: string,
  durationS: number,
): Promise<Measured> {
  const s = E2E_SETTINGS;
  const log = submissionLog();
  const counting = counted(ctx, phase) ? await startStatementCount(ctx.db) : null;
  const before = sampleCpu(ctx.formward.pid, pidsOf(ctx.formward));
  const ingest = await runPaced(c, s.rate, durationS, {
    bodyOf: distinctBody(phase),
    onAnswer: log.onAnswer,
  });
  const ids = log.submitted.map((x) => x.id);
  const wait = await waitForDeliveries(receiver, ids, s.waitS * 1000, (missing) =>
    ctx.say(`e2e: ${phase}: ${missing} of ${ids.length} not delivered yet`),
  );
  return {
    name: `paced ${s.rate}/s for ${durationS} s`,
    workers: 1,
    ingestRate: ingest.achievedRate,
    ingest,
    rejected: log.rejected,
    submitted: log.submitted,
    complete: wait.complete,
    waitedS: wait.waitedS,
    cores: coresBetween(before, sampleCpu(ctx.formward.pid, pidsOf(ctx.formward))),
    database: counting && (await readDatabaseBudget(ctx.db, wait.delivered, counting)),
  };
}

async function burst(
  ctx: Context,
  receiver: HttpsReceiver,
  c: Case,
  phase: string,
  count: number,
  waitS: number,
  extra?: ExtraWorker,
): Promise<Measured> {
  const log = submissionLog();
  const counting = counted(ctx, phase) ? await startStatementCount(ctx.db) : null;
  const before = sampleCpu(ctx.formward.pid, pidsOf(ctx.formward, extra));
  const ingest = await runBurst(c, count, E2E_SETTINGS.burstConcurrency, {
    bodyOf: distinctBody(phase),
    onAnswer: log.onAnswer,
  });
  const ids = log.submitted.map((x) => x.id);
  const wait = await waitForDeliveries(receiver, ids, waitS * 1000, (missing) =>
    ctx.say(`e2e: ${phase}: ${missing} of ${ids.length} not delivered yet`),
  );
  return {
    name: `burst of ${count}`,
    workers: extra ? 2 : 1,
    ingestRate: ingest.rate,
    ingest,
    rejected: log.rejected,
    submitted: log.submitted,
    complete: wait.complete,
    waitedS: wait.waitedS,
    cores: coresBetween(before, sampleCpu(ctx.formward.pid, pidsOf(ctx.formward, extra))),
    database: counting && (await readDatabaseBudget(ctx.db, wait.delivered, counting)),
  };
}
