import { Gauge } from 'prom-client';
import { metricsRegistry } from './registry';

/** As the claim loop of src/pipeline/2-claim-starts.ts reports it. */
type AdmissionStats = { inFlight: number; window: number; starting: number };

/**
 * The live admission windows of this process (each worker that starts workflows has one),
 * read by the gauges when scraped.
 */
const admissions = new Set<() => AdmissionStats>();

/** Counts an admission window in the gauges until the returned function is called. */
export function trackAdmission(stats: () => AdmissionStats): () => void {
  admissions.add(stats);
  return () => void admissions.delete(stats);
}

const sumOf = (pick: (stats: AdmissionStats) => number) => {
  let total = 0;
  for (const stats of admissions) total += pick(stats());
  return total;
};

/** This process's admission windows together (all 0 in a process that starts no workflows). */
export const admissionTotals = (): AdmissionStats => ({
  inFlight: sumOf((stats) => stats.inFlight),
  window: sumOf((stats) => stats.window),
  starting: sumOf((stats) => stats.starting),
});

new Gauge({
  name: 'formward_admission_window_in_use',
  help: 'Workflows this process admitted whose first task no worker has run yet',
  registers: [metricsRegistry],
  collect() {
    this.set(sumOf((stats) => stats.inFlight));
  },
});

new Gauge({
  name: 'formward_admission_window_size',
  help: 'ADMISSION_WINDOW of this process (0 when it starts no workflows)',
  registers: [metricsRegistry],
  collect() {
    this.set(sumOf((stats) => stats.window));
  },
});
