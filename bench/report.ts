import fs from 'node:fs';
import path from 'node:path';
import type { Drain } from './drain';
import type { E2eResult } from './e2e';
import { ceilingLines } from './ceiling-report';
import { e2eLines } from './e2e-report';
import type { LoadResult } from './load';
import type { PacedResult } from './paced';
import { serverComparisonLines } from './servers-report';
import type { TemporalServerKind } from './temporal-servers';
import { cores, statuses, table } from './table';
import { round } from './util';

export type CaseResult = LoadResult & {
  ratioToBaseline: number;
  cores: Record<string, number>;
  drainAfter: Drain | null;
};

export type Target = { name: string; measured: number; limit: string; holds: boolean };

/** The ingest cases against the baseline (left out with BENCH_ONLY=e2e). */
export type IngestResults = {
  settings: { durationS: number; warmupS: number; connections: number; fixedRate: number };
  cases: CaseResult[];
  fixedRate: LoadResult & { cores: Record<string, number>; drainAfter: Drain | null };
  paced: PacedResult & { cores: Record<string, number>; drainAfter: Drain | null };
};

export type Results = Partial<IngestResults> & {
  startedAt: string;
  environment: Record<string, unknown>;
  /** BENCH_ONLY, when only some cases ran. */
  only: string | null;
  /**
   * Delivery end to end (left out with BENCH_ONLY=ingest): each Temporal server's run under
   * its name (`e2e.dev`, `e2e.postgres`), and the first one's also at the top level, where
   * readers of a one-server run find it.
   */
  e2e?: E2eResult & Partial<Record<TemporalServerKind, E2eResult>>;
  targets: Target[];
  /** How `formward start` stopped (filled in after the run). */
  shutdown?: { graceful: boolean; seconds: number };
};

export const THROUGHPUT_RATIO_MIN = 0.35;
export const P99_AT_RATE_MAX_MS = 50;

/**
 * Issue 12's ingest targets, with the delivery pipeline running: req/s >= 0.35 x baseline, and
 * p99 < 50 ms at the fixed rate from the evenly paced generator (autocannon's figure is shown).
 */
export function evaluateTargets(results: IngestResults): Target[] {
  const ingest = results.cases.filter((c) => c.case !== 'baseline');
  return [
    ...ingest.map((c) => ({
      name: `${c.case} throughput / baseline`,
      measured: c.ratioToBaseline,
      limit: `>= ${THROUGHPUT_RATIO_MIN}`,
      holds: c.ratioToBaseline >= THROUGHPUT_RATIO_MIN,
    })),
    {
      name: `${results.paced.case} p99 at ${results.settings.fixedRate} req/s (paced) ms`,
      measured: results.paced.latencyMs.p99,
      limit: `< ${P99_AT_RATE_MAX_MS}`,
      holds: results.paced.latencyMs.p99 < P99_AT_RATE_MAX_MS,
    },
  ];
}

const problems = (r: {
  errors: number;
  unexpectedStatus: number;
  timeouts?: number;
  mismatches?: number;
}) => {
  const parts = [
    `err ${r.errors}`,
    r.timeouts ? `timeout ${r.timeouts}` : '',
    r.mismatches ? `mismatch ${r.mismatches}` : '',
    `unexpected status ${r.unexpectedStatus}`,
  ];
  return parts.filter(Boolean).join(', ');
};

const drain = (d: Drain | null) => {
  if (!d || d.backlog === 0) return 'no workflow backlog';
  if (d.drained) return `workflow backlog ${d.backlog} drained in ${d.seconds} s`;
  return (
    `workflow backlog ${d.backlog} NOT drained after ${d.seconds} s (left: ${d.left.unstarted} ` +
    `unstarted, ${d.left.unchecked} unchecked; ${d.stuck?.length ?? 0} busy DB sessions)`
  );
};

/** The busy sessions seen the first time the workflow backlog did not drain. */
function stuckSessions(results: IngestResults): string[] {
  const drains = [...results.cases.map((c) => c.drainAfter), results.fixedRate.drainAfter];
  const first = [...drains, results.paced.drainAfter].find((d) => d && !d.drained);
  if (!first?.stuck?.length) return [];
  return [
    '\nDatabase sessions busy when the workflow backlog first stopped draining',
    ...first.stuck.map(
      (s) =>
        `  pid ${s.pid} ${s.state} wait=${s.wait_event_type ?? '-'}/${s.wait_event ?? '-'} ` +
        `blocked_by=${JSON.stringify(s.blocked_by)} xact ${s.xact_age_s ?? '-'} s: ${s.query}`,
    ),
  ];
}

function ingestLines(results: IngestResults): string[] {
  const { settings } = results;
  const out: string[] = [];
  out.push(
    `\nThroughput: ${settings.connections} connections, ${settings.durationS} s each after ${settings.warmupS} s warm-up`,
  );
  out.push(
    table([
      ['case', 'req/s', 'p50 ms', 'p99 ms', 'x baseline', 'statuses', 'errors / non-2xx'],
      ...results.cases.map((c) => [
        c.case,
        c.rps.toFixed(1),
        c.latencyMs.p50.toFixed(2),
        c.latencyMs.p99.toFixed(2),
        c.ratioToBaseline.toFixed(2),
        statuses(c.statusCodes),
        `${problems(c)} (autocannon non2xx ${c.non2xx})`,
      ]),
    ]),
  );
  for (const c of results.cases)
    out.push(`  ${c.case}: CPU cores ${cores(c.cores)}; ${drain(c.drainAfter)}`);

  const f = results.fixedRate;
  const p = results.paced;
  out.push(`\nFixed rate ${settings.fixedRate} req/s, ${settings.durationS} s, ${f.case}`);
  out.push(
    table([
      ['generator', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'errors / non-2xx'],
      [
        `autocannon overallRate (${f.connections} conn)`,
        f.rps.toFixed(1),
        f.latencyMs.p50.toFixed(2),
        f.latencyMs.p90.toFixed(2),
        f.latencyMs.p99.toFixed(2),
        f.latencyMs.max.toFixed(2),
        `${problems(f)} (autocannon non2xx ${f.non2xx})`,
      ],
      [
        'paced, evenly spaced (open loop)',
        p.achievedRate.toFixed(1),
        p.latencyMs.p50.toFixed(2),
        p.latencyMs.p90.toFixed(2),
        p.latencyMs.p99.toFixed(2),
        p.latencyMs.max.toFixed(2),
        problems(p),
      ],
    ]),
  );
  out.push(
    `  autocannon's own histogram: p50 ${f.autocannon.p50} ms, p99 ${f.autocannon.p99} ms (whole ms, with its coordinated-omission fill-in)`,
  );
  out.push(`  autocannon run: CPU cores ${cores(f.cores)}; ${drain(f.drainAfter)}`);
  out.push(
    `  paced run: CPU cores ${cores(p.cores)}; ${drain(p.drainAfter)}; generator max lag ${p.maxSendLagMs} ms`,
  );

  out.push(...stuckSessions(results));
  return out;
}

export function printReport(results: Results): void {
  const { settings, cases, fixedRate, paced } = results;
  const out: string[] = [];
  if (settings && cases && fixedRate && paced)
    out.push(...ingestLines({ settings, cases, fixedRate, paced }));
  const e2e = results.e2e;
  const runs = e2e ? [e2e.dev, e2e.postgres].filter((r): r is E2eResult => !!r) : [];
  for (const run of runs.length ? runs : e2e ? [e2e] : [])
    out.push(...e2eLines(run), ...ceilingLines(run));
  if (runs.length > 1) out.push(...serverComparisonLines(runs));
  out.push('\nTargets');
  for (const t of results.targets)
    out.push(`  ${t.holds ? 'OK  ' : 'MISS'} ${t.name}: ${t.measured} (target ${t.limit})`);
  console.log(out.join('\n'));
}

export function writeResults(file: string, results: Results): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

export const ratio = (rps: number, baselineRps: number) =>
  baselineRps > 0 ? round(rps / baselineRps, 3) : 0;
