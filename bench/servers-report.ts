import type { E2eResult } from './e2e';
import { table } from './table';

/**
 * One row per Temporal server and phase, side by side: the ceiling's workflows/s, Formward's
 * deliveries/s and latency, and their ratio (each run's own section has the details).
 */
export function serverComparisonLines(runs: E2eResult[]): string[] {
  const rows = runs.flatMap((run) =>
    run.phases.map((p) => {
      const bare = run.ceiling?.phases.find((c) => c.name === p.name)?.deliveries;
      const ratio = run.ratiosToCeiling?.[`${p.name}, ${p.workers} worker(s)`];
      return [
        run.server ?? '?',
        p.name,
        String(p.workers),
        bare ? bare.deliveriesPerS.toFixed(1) : '-',
        p.deliveries.deliveriesPerS.toFixed(1),
        ratio === undefined ? '-' : ratio.toFixed(2),
        p.deliveries.latencyMs.p50.toFixed(0),
        p.deliveries.latencyMs.p99.toFixed(0),
        `${p.deliveries.lost}`,
      ];
    }),
  );
  return [
    '\nTemporal servers compared (same settings, each on a fresh stack)',
    table(
      [
        [
          'temporal',
          'phase',
          'workers',
          'ceiling wf/s',
          'deliveries/s',
          'x ceiling',
          'p50 ms',
          'p99 ms',
          'lost',
        ],
        ...rows,
      ],
      2,
    ),
  ];
}
