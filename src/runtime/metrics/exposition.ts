import { AggregatorRegistry, type Registry } from 'prom-client';
import { metricsRegistry } from '../../domain/metrics/registry';
import { temporalSdkMetrics } from './temporal-sdk-metrics';

/**
 * One process's metrics as data: prom-client's families (every sample with its `process`
 * label) and the Temporal SDK's text, '' where no worker runs. The worker process of
 * `formward start` sends this to its parent, which serves both (docs/metrics.md).
 */
export type ProcessExposition = { families: MetricFamilies; sdk: string };

type MetricFamilies = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** This process's metrics. */
export async function collectExposition(): Promise<ProcessExposition> {
  const [families, sdk] = await Promise.all([
    metricsRegistry.getMetricsAsJSON(),
    temporalSdkMetrics(),
  ]);
  return { families, sdk };
}

/** This process's metrics in the Prometheus text format: ours, then the Temporal SDK's. */
export async function exposition(): Promise<string> {
  const [ours, sdk] = await Promise.all([metricsRegistry.metrics(), temporalSdkMetrics()]);
  return joinTexts(ours, sdk);
}

/**
 * Several processes' metrics as one valid text: prom-client's AggregatorRegistry puts the
 * samples of a family together under one HELP and TYPE. Each process labels its samples with
 * its own `process`, so no two share a series; the `first` aggregator keeps every sample as
 * it is (the families' own aggregators would sum some and omit process_start_time_seconds).
 * The SDK's `temporal_*` families are appended as they are: only one of the processes runs a
 * worker.
 */
export async function mergeExpositions(parts: ProcessExposition[]): Promise<string> {
  const families = parts.map((part) =>
    part.families.map((family) => ({ ...family, aggregator: 'first' as const })),
  );
  const merged = await AggregatorRegistry.aggregate(families).metrics();
  return parts.reduce((text, part) => joinTexts(text, part.sdk), merged);
}

/** Two texts in the Prometheus format as one: each ends its last line. */
function joinTexts(first: string, second: string): string {
  if (!second) return first;
  return `${first.endsWith('\n') ? first : `${first}\n`}${second}`;
}
