import type { Drain } from './drain';
import type { IngestResults, PacedCase, ThroughputCase } from './ingest-results';
import type { Target } from './target';
import type { Accounting, Settle } from './settle';
import { cores, statuses, table } from './table';

export const THROUGHPUT_RATIO_MIN = 0.45;
export const P99_AT_RATE_MAX_MS = 50;
const P99_TARGET_RATE = 200;
const CPU_PARTS = ['http', 'worker', 'postgres', 'temporal', 'bench'];

/**
 * The ingest targets: with the pipeline running, each route's median req/s >= 0.45 x the
 * baseline's, and `/json` paced at 200/s with a median p99 < 50 ms. A case not run
 * (BENCH_CASES) has no target.
 */
export function evaluateTargets(results: IngestResults): Target[] {
  const targets: Target[] = [];
  const hasBaseline = results.cases.some((c) => c.pipeline === null);
  for (const c of results.cases.filter((x) => x.pipeline === 'running' && hasBaseline))
    targets.push({
      name: `${c.case} throughput / baseline (medians)`,
      measured: c.ratioToBaseline,
      limit: `>= ${THROUGHPUT_RATIO_MIN}`,
      holds: c.ratioToBaseline >= THROUGHPUT_RATIO_MIN,
    });
  const paced = results.paced.find((p) => p.targetRate === P99_TARGET_RATE);
  if (paced)
    targets.push({
      name: `${paced.case} p99 at ${paced.targetRate} req/s ms (median)`,
      measured: paced.latencyMs.p99,
      limit: `< ${P99_AT_RATE_MAX_MS}`,
      holds: paced.latencyMs.p99 < P99_AT_RATE_MAX_MS,
    });
  return targets;
}

const errorsOf = (r: {
  errors: number;
  unexpectedStatus: number;
  timeouts?: number;
  mismatches?: number;
}) =>
  [
    `err ${r.errors}`,
    r.timeouts ? `timeout ${r.timeouts}` : '',
    r.mismatches ? `mismatch ${r.mismatches}` : '',
    `unexpected ${r.unexpectedStatus}`,
  ]
    .filter(Boolean)
    .join(', ');

const drained = (d: Drain) =>
  d.drained
    ? `waited ${d.seconds} s for ${d.backlog} started`
    : `NOT quiet after ${d.seconds} s (${d.left.unstarted} unstarted, ${d.left.unchecked} unchecked)`;

const settled = (s: Settle | null) =>
  s
    ? `discarded ${s.discarded} in ${s.discardS} s, ${s.drain ? drained(s.drain) : 'no wait (worker paused)'}`
    : '-';

const accounted = (a: Accounting | null) =>
  a ? `accepted ${a.answered}, stored ${a.stored} (+${a.unanswered} in flight at the stop)` : '';

/** What should not happen: accepted answers not stored, too many stored unanswered, no quiet. */
function problemsOf(
  name: string,
  r: ThroughputCase['rounds'][number] | PacedCase['rounds'][number],
  connections: number,
) {
  const out: string[] = [];
  const at = `${name}, round ${r.round}`;
  const a = r.accounting;
  if (a && a.missing > 0)
    out.push(`${at}: ${a.missing} accepted answers have no stored submission`);
  if (a && a.unanswered > connections)
    out.push(
      `${at}: ${a.unanswered} stored but not answered (more than the ${connections} connections)`,
    );
  for (const s of [r.settle, 'warmupSettle' in r ? r.warmupSettle : null])
    if (s?.drain && !s.drain.drained)
      out.push(`${at}: the system was not quiet: ${drained(s.drain)}`);
  return out;
}

const cpuRow = (name: string, ms: Record<string, number>) => [
  name,
  ...CPU_PARTS.map((p) => (p in ms ? ms[p].toFixed(3) : '-')),
  Object.values(ms)
    .reduce((a, b) => a + b, 0)
    .toFixed(3),
];

export function ingestLines(results: IngestResults): string[] {
  const { settings: s } = results;
  const out: string[] = [];
  const problems: string[] = [];
  out.push(
    `\nThroughput: ${s.connections} connections, ${s.durationS} s after ${s.warmupS} s warm-up, ` +
      `median of ${s.rounds} round(s)`,
  );
  out.push(
    table([
      [
        'case',
        'req/s',
        'p50 ms',
        'p99 ms',
        'x baseline',
        'req/s by round',
        'statuses (all rounds)',
        'errors',
      ],
      ...results.cases.map((c) => [
        c.case,
        c.rps.toFixed(1),
        c.p50.toFixed(2),
        c.p99.toFixed(2),
        c.ratioToBaseline ? c.ratioToBaseline.toFixed(2) : '-',
        c.roundRps.map((x) => x.toFixed(0)).join(' '),
        statuses(sumCodes(c.rounds.map((r) => r.statusCodes))),
        c.rounds.map(errorsOf).join('; '),
      ]),
    ]),
  );
  for (const c of results.cases)
    for (const r of c.rounds) {
      out.push(`  ${c.case}, round ${r.round}: CPU cores ${cores(r.cores)}`);
      if (c.pipeline === null) continue;
      const paused = r.workerPid ? `worker ${r.workerPid} paused; ` : '';
      out.push(`    ${paused}${accounted(r.accounting)}`);
      out.push(`    after warm-up: ${settled(r.warmupSettle)}; after: ${settled(r.settle)}`);
      problems.push(...problemsOf(c.case, r, s.connections));
    }

  if (results.paced.length > 0) {
    out.push(
      `\nPaced, evenly spaced (open loop), ${s.durationS} s, median of ${s.rounds} round(s)`,
    );
    out.push(
      table([
        ['case', 'rate', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'p99 by round', 'errors'],
        ...results.paced.map((p) => [
          p.case,
          `${p.targetRate}/s`,
          p.achievedRate.toFixed(1),
          p.latencyMs.p50.toFixed(2),
          p.latencyMs.p90.toFixed(2),
          p.latencyMs.p99.toFixed(2),
          p.latencyMs.max.toFixed(2),
          p.roundP99.map((x) => x.toFixed(1)).join(' '),
          p.rounds.map(errorsOf).join('; '),
        ]),
      ]),
    );
    for (const p of results.paced)
      for (const r of p.rounds) {
        out.push(
          `  ${p.targetRate}/s, round ${r.round}: CPU cores ${cores(r.cores)}; generator max lag ${r.maxSendLagMs} ms`,
        );
        out.push(`    ${accounted(r.accounting)}; after: ${settled(r.settle)}`);
        problems.push(...problemsOf(`paced ${p.targetRate}/s`, r, 0));
      }
  }

  out.push(
    '\nCPU ms per accepted answer, by process (median of the rounds; baseline: its server runs in bench)',
  );
  out.push(
    table([
      ['case', ...CPU_PARTS, 'total'],
      ...results.cases.map((c) => cpuRow(c.case, c.cpuMsPerAnswer)),
      ...results.paced.map((p) => cpuRow(`${p.case} ${p.targetRate}/s`, p.cpuMsPerAnswer)),
    ]),
  );
  out.push(...(problems.length ? ['\nProblems', ...problems.map((p) => `  ${p}`)] : []));
  out.push(...stuckSessions(results));
  return out;
}

const sumCodes = (all: Record<string, number>[]) => {
  const sum: Record<string, number> = {};
  for (const codes of all)
    for (const [code, n] of Object.entries(codes)) sum[code] = (sum[code] ?? 0) + n;
  return sum;
};

/** The busy sessions seen the first time a pause did not reach a quiet system. */
function stuckSessions(results: IngestResults): string[] {
  const rounds = [
    ...results.cases.flatMap((c) => c.rounds),
    ...results.paced.flatMap((p) => p.rounds),
  ];
  const drains = rounds.flatMap((r) => [
    'warmupSettle' in r ? r.warmupSettle?.drain : null,
    r.settle?.drain,
  ]);
  const first = drains.find((d) => d && !d.drained);
  if (!first?.stuck?.length) return [];
  return [
    '\nDatabase sessions busy when the system first did not become quiet',
    ...first.stuck.map(
      (x) =>
        `  pid ${x.pid} ${x.state} wait=${x.wait_event_type ?? '-'}/${x.wait_event ?? '-'} ` +
        `blocked_by=${JSON.stringify(x.blocked_by)} xact ${x.xact_age_s ?? '-'} s: ${x.query}`,
    ),
  ];
}
