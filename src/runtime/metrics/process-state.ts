import { Gauge } from 'prom-client';
import type { AdmissionStats } from '../../temporal/admission';
import { metricsRegistry } from './registry';

/**
 * What this process holds and the gauges read when scraped: the live admission windows
 * (a `serve` process and a worker that starts workflows each have one) and the database
 * pool. Nothing is computed per request.
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

/** The knex (tarn) pool's counts, as MikroORM's connection exposes them. */
export type PoolCounts = { numUsed(): number; numFree(): number; numPendingAcquires(): number };

let poolOf: (() => PoolCounts | null) | null = null;

/** Where the gauge finds the pool at scrape time (null: none, the gauge reads 0). */
export function trackPool(find: (() => PoolCounts | null) | null): void {
  poolOf = find;
}

new Gauge({
  name: 'formward_db_pool_connections',
  help: 'Database pool connections by state: used, free, pending (waiting for one)',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  collect() {
    const pool = poolOf?.() ?? null;
    this.set({ state: 'used' }, pool?.numUsed() ?? 0);
    this.set({ state: 'free' }, pool?.numFree() ?? 0);
    this.set({ state: 'pending' }, pool?.numPendingAcquires() ?? 0);
  },
});
