import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { Orm } from '../../db/orm';
import type { LazyTemporalClient } from '../../temporal/client';
import { labelProcess } from '../../domain/metrics/registry';
import { startDependencyChecks } from './dependency-checks';
import { trackPool, type PoolCounts } from './pool-gauge';
import { trackWaitingStarts } from './waiting-starts';

/**
 * Turns on what this process's series need besides the instruments (docs/metrics.md): the
 * `process` label, the backlog and pool gauges read at scrape time, the up checks. Whoever
 * serves them calls it: the metrics listener, or the worker process of `formward start`
 * whose parent reads them over IPC. Returns the stop.
 */
export function startProcessMetrics(deps: {
  process: 'serve' | 'worker';
  orm: Orm;
  temporal: LazyTemporalClient;
  logger: Logger;
}): () => void {
  labelProcess(deps.process);
  trackWaitingStarts(deps.orm);
  let pool: Pool | null = null;
  // The `pg` pool under MikroORM (known once connected; the gauge reads 0 until then).
  deps.orm.em
    .getConnection()
    .getNativeClient()
    .then((found) => (pool = found))
    .catch(() => undefined);
  trackPool(() => (pool ? poolCounts(pool) : null));
  const stopChecks = startDependencyChecks(deps);
  return () => {
    stopChecks();
    trackWaitingStarts(null);
    trackPool(null);
  };
}

/** A `pg` pool's connections: checked out, idle, and requests waiting for one. */
function poolCounts(pool: Pool): PoolCounts {
  return {
    used: pool.totalCount - pool.idleCount,
    free: pool.idleCount,
    pending: pool.waitingCount,
  };
}
