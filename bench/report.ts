import fs from 'node:fs';
import path from 'node:path';
import type { E2eResult } from './e2e';
import { ceilingLines } from './ceiling-report';
import { e2eLines } from './e2e-report';
import { ingestLines } from './ingest-report';
import type { IngestResults } from './ingest-results';
import { serverComparisonLines } from './servers-report';
import type { TemporalServerKind } from './temporal-servers';
import type { Target } from './target';
import { round } from './util';

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

export function printReport(results: Results): void {
  const { settings, cases, paced } = results;
  const out: string[] = [];
  if (settings && cases && paced) out.push(...ingestLines({ settings, cases, paced }));
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
