import { Gauge } from 'prom-client';
import { metricsRegistry } from '../../domain/metrics/registry';

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
