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
  trackPool(() => poolOf(deps.orm));
  const stopChecks = startDependencyChecks(deps);
  return () => {
    stopChecks();
    trackWaitingStarts(null);
    trackPool(null);
  };
}

/** The knex (tarn) pool behind MikroORM's connection, if it has one. */
function poolOf(orm: Orm): PoolCounts | null {
  const knex = orm.em.getConnection().getKnex() as unknown as {
    client?: { pool?: PoolCounts };
  };
  return knex.client?.pool ?? null;
}
