import { Gauge } from 'prom-client';
import { metricsRegistry } from './registry';

/** As src/temporal/admission.ts reports it. */
type AdmissionStats = { inFlight: number; window: number };

/**
 * The live admission windows of this process (a `serve` process and a worker that starts
 * workflows each have one), read by the gauges when scraped.
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
