import { Gauge } from 'prom-client';
import { metricsRegistry } from '../../domain/metrics/registry';

/** The database pool's connections by state, read at scrape time. */
export type PoolCounts = { used: number; free: number; pending: number };

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
    this.set({ state: 'used' }, pool?.used ?? 0);
    this.set({ state: 'free' }, pool?.free ?? 0);
    this.set({ state: 'pending' }, pool?.pending ?? 0);
  },
});
