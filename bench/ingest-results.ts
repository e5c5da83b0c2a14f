import type { LoadResult } from './load';
import type { PacedResult } from './paced';
import type { Accounting, Settle } from './settle';
import { round } from './util';

/** The delivery pipeline during a case: its worker process runs, or is paused; null: baseline. */
export type Pipeline = 'running' | 'idle' | null;

type PerRound = {
  round: number;
  cores: Record<string, number>;
  /** CPU ms per accepted answer, by process (`http`, `worker`, `postgres`, `temporal`, `bench`). */
  cpuMsPerAnswer: Record<string, number>;
  /** Formward's cases: the answers accepted against the submissions stored. */
  accounting: Accounting | null;
  /** The bounded pause after the run (null for the baseline). */
  settle: Settle | null;
};

export type ThroughputRound = LoadResult &
  PerRound & {
    /** The pause after the warm-up. */
    warmupSettle: Settle | null;
    /** With the pipeline idle: the worker process that was paused. */
    workerPid?: number;
  };

/** A throughput case over its rounds: the figures are the medians of the rounds'. */
export type ThroughputCase = {
  case: string;
  pipeline: Pipeline;
  rps: number;
  p50: number;
  p99: number;
  roundRps: number[];
  /** median(rps) / median(baseline rps); 0 without a baseline. */
  ratioToBaseline: number;
  cpuMsPerAnswer: Record<string, number>;
  rounds: ThroughputRound[];
};

export type PacedRound = PacedResult & PerRound;

/** The paced case at one rate over its rounds (medians of the rounds' figures). */
export type PacedCase = {
  case: string;
  targetRate: number;
  achievedRate: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  roundP99: number[];
  cpuMsPerAnswer: Record<string, number>;
  rounds: PacedRound[];
};

/** The ingest part (left out with BENCH_ONLY=e2e). */
export type IngestResults = {
  settings: {
    durationS: number;
    warmupS: number;
    connections: number;
    rounds: number;
    pacedRates: number[];
    /** BENCH_CASES: the cases run. */
    cases: string[];
  };
  cases: ThroughputCase[];
  paced: PacedCase[];
};

/** The median (the mean of the middle two for an even count); 0 for none. */
export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const medianOf = <T>(items: T[], value: (item: T) => number, digits = 2) =>
  round(median(items.map(value)), digits);

/** Per process, the median of the rounds' CPU ms per answer. */
function medianCpu(rounds: PerRound[]): Record<string, number> {
  const parts = Object.keys(rounds[0]?.cpuMsPerAnswer ?? {});
  return Object.fromEntries(
    parts.map((p) => [p, medianOf(rounds, (r) => r.cpuMsPerAnswer[p] ?? 0, 3)]),
  );
}

export function summariseThroughput(
  name: string,
  pipeline: Pipeline,
  rounds: ThroughputRound[],
): ThroughputCase {
  return {
    case: name,
    pipeline,
    rps: medianOf(rounds, (r) => r.rps, 1),
    p50: medianOf(rounds, (r) => r.latencyMs.p50),
    p99: medianOf(rounds, (r) => r.latencyMs.p99),
    roundRps: rounds.map((r) => r.rps),
    ratioToBaseline: 0, // filled in once the baseline's median is known
    cpuMsPerAnswer: medianCpu(rounds),
    rounds,
  };
}

export function summarisePaced(name: string, rate: number, rounds: PacedRound[]): PacedCase {
  return {
    case: name,
    targetRate: rate,
    achievedRate: medianOf(rounds, (r) => r.achievedRate, 1),
    latencyMs: {
      p50: medianOf(rounds, (r) => r.latencyMs.p50),
      p90: medianOf(rounds, (r) => r.latencyMs.p90),
      p99: medianOf(rounds, (r) => r.latencyMs.p99),
      max: medianOf(rounds, (r) => r.latencyMs.max),
    },
    roundP99: rounds.map((r) => r.latencyMs.p99),
    cpuMsPerAnswer: medianCpu(rounds),
    rounds,
  };
}
