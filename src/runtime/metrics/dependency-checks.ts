import { Gauge } from 'prom-client';
import type { Orm } from '../../db/orm';
import type { LazyTemporalClient } from '../../temporal/client';
import { metricsRegistry } from '../../domain/metrics/registry';

/** How often PostgreSQL and the Temporal frontend are checked. */
export const DEPENDENCY_CHECK_MS = 15_000;
/** A check that takes longer than this counts as down. */
const CHECK_TIMEOUT_MS = 3_000;

const databaseUp = new Gauge({
  name: 'formward_database_up',
  help: 'Whether the last check (every 15 s) reached PostgreSQL',
  registers: [metricsRegistry],
});

const temporalUp = new Gauge({
  name: 'formward_temporal_up',
  help: 'Whether the last check (every 15 s) reached the Temporal frontend',
  registers: [metricsRegistry],
});

async function reachable(check: () => Promise<unknown>): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), late]);
    return 1;
  } catch {
    return 0;
  } finally {
    clearTimeout(timer);
  }
}

/** Checks both now and every DEPENDENCY_CHECK_MS until the returned stop is called. */
export function startDependencyChecks(deps: {
  orm: Orm;
  temporal: LazyTemporalClient;
}): () => void {
  let running = false;
  const checkAll = async () => {
    if (running) return;
    running = true;
    try {
      const [database, temporal] = await Promise.all([
        reachable(() => deps.orm.em.fork().getConnection().execute('select 1')),
        reachable(() =>
          deps.temporal.call(CHECK_TIMEOUT_MS, (client) =>
            client.workflowService.getSystemInfo({}),
          ),
        ),
      ]);
      databaseUp.set(database);
      temporalUp.set(temporal);
    } finally {
      running = false;
    }
  };
  void checkAll();
  const timer = setInterval(() => void checkAll(), DEPENDENCY_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
