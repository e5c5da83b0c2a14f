import { startBaseline } from './baseline';
import { createForm } from './formward-api';
import {
  casesToRun,
  CONNECTIONS,
  DURATION_S,
  PACED_RATES,
  pacedRound,
  requests,
  throughputCases,
  throughputRound,
  WARMUP_S,
  type IngestContext,
} from './ingest-cases';
import {
  summarisePaced,
  summariseThroughput,
  type IngestResults,
  type PacedRound,
  type ThroughputRound,
} from './ingest-results';
import { ratio } from './report';
import type { Session } from './session';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);

/**
 * Ingest against the baseline (Express + one insert, in a worker thread), in BENCH_ROUNDS
 * rounds: each round runs the baseline, then Formward's cases (throughput with the pipeline
 * running and idle, then paced latency), so a drift of the shared machine touches all cases
 * alike. Each case is reported as the median of its rounds. BENCH_CASES picks the cases.
 */
export async function runIngest(
  session: Session,
  say: (line: string) => void,
): Promise<IngestResults> {
  if (!(ROUNDS >= 1)) throw new Error(`BENCH_ROUNDS=${process.env.BENCH_ROUNDS}: expected >= 1`);
  const keys = casesToRun();
  const { formward } = session;
  const baseline = await startBaseline(formward.runtime.databaseUrl);
  try {
    const form = await createForm(formward.url, session.key);
    const shapes = requests(baseline.url, formward.url, form.token);
    const cases = throughputCases(shapes).filter((c) => keys.includes(c.key));
    const pacedCase = shapes.json('POST /json paced (pipeline running)');
    const rates = keys.includes('paced') ? PACED_RATES : [];
    const ctx: IngestContext = { session, formId: form.id, say };

    const throughput = new Map<string, ThroughputRound[]>(cases.map((c) => [c.name, []]));
    const paced = new Map<number, PacedRound[]>(rates.map((rate) => [rate, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      say(`ingest round ${round} of ${ROUNDS}`);
      for (const c of cases) throughput.get(c.name)!.push(await throughputRound(ctx, c, round));
      for (const rate of rates)
        paced.get(rate)!.push(await pacedRound(ctx, pacedCase, rate, round));
    }

    const summaries = cases.map((c) =>
      summariseThroughput(c.name, c.pipeline, throughput.get(c.name)!),
    );
    const baseRps = summaries.find((s) => s.pipeline === null)?.rps ?? 0;
    for (const s of summaries) s.ratioToBaseline = ratio(s.rps, baseRps);
    return {
      settings: {
        durationS: DURATION_S,
        warmupS: WARMUP_S,
        connections: CONNECTIONS,
        rounds: ROUNDS,
        pacedRates: rates,
        cases: keys,
      },
      cases: summaries,
      paced: rates.map((rate) => summarisePaced(pacedCase.name, rate, paced.get(rate)!)),
    };
  } finally {
    await baseline.close().catch((e: Error) => say(`baseline close: ${e.message}`));
  }
}
