import type { CeilingResult } from './ceiling';
import type { E2eResult } from './e2e';
import { e2eTargetPrefix, onServer } from './e2e-report';
import type { Target } from './target';
import { table } from './table';
import { round } from './util';

/** Burst deliveries/s Formward must reach, as a fraction of the ceiling's in the same run. */
export const BURST_CEILING_RATIO_MIN = 0.85;

/** Formward's deliveries/s in a phase over the ceiling's in the phase of the same name. */
export function ratiosToCeiling(e2e: E2eResult, ceiling: CeilingResult): Record<string, number> {
  const ratios: Record<string, number> = {};
  for (const phase of e2e.phases) {
    const bare = ceiling.phases.find((c) => c.name === phase.name)?.deliveries.deliveriesPerS;
    if (bare)
      ratios[`${phase.name}, ${phase.workers} worker(s)`] = round(
        phase.deliveries.deliveriesPerS / bare,
        3,
      );
  }
  return ratios;
}

/** The burst target: Formward's burst with its one worker against the ceiling's burst. */
export function evaluateCeilingTargets(e2e: E2eResult): Target[] {
  const burst = e2e.phases.find((p) => p.name.startsWith('burst') && p.workers === 1);
  const ratio = burst && e2e.ratiosToCeiling?.[`${burst.name}, 1 worker(s)`];
  if (!burst || ratio === undefined) return [];
  return [
    {
      name: `${e2eTargetPrefix(e2e)} ${burst.name} deliveries/s / Temporal ceiling`,
      measured: ratio,
      limit: `>= ${BURST_CEILING_RATIO_MIN}`,
      holds: ratio >= BURST_CEILING_RATIO_MIN,
    },
  ];
}

export function ceilingLines(e2e: E2eResult): string[] {
  const ceiling = e2e.ceiling;
  if (!ceiling) return [];
  return [
    `\nTemporal ceiling${onServer(e2e)}: the same workflow shape with no-op activities, same server, task queue ${ceiling.taskQueue}, worker in the bench process (latency = delivery activity ran - start returned)`,
    table([
      ['phase', 'completed', 'starts/s', 'p50 ms', 'p99 ms', 'workflows/s'],
      ...ceiling.phases.map((p) => [
        p.name,
        `${p.deliveries.received}/${p.deliveries.submitted}`,
        p.startRate.toFixed(1),
        p.deliveries.latencyMs.p50.toFixed(0),
        p.deliveries.latencyMs.p99.toFixed(0),
        p.deliveries.deliveriesPerS.toFixed(1),
      ]),
    ]),
    ...Object.entries(e2e.ratiosToCeiling ?? {}).map(
      ([phase, ratio]) => `  Formward ${phase}: ${ratio} of the ceiling's deliveries/s`,
    ),
  ];
}
