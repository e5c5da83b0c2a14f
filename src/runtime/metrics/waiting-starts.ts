import { Gauge } from 'prom-client';
import type { Orm } from '../../db/orm';
import { metricsRegistry } from '../../domain/metrics/registry';

/** Scrapes within this long share one read, so many scrapers cost one query. */
const CACHE_MS = 5_000;

type Backlog = { waiting: number; oldestAgeSeconds: number };

let orm: Orm | null = null;
let cached: { at: number; read: Promise<Backlog> } | null = null;

/** The database the backlog gauges read at scrape time (null: they read 0). */
export function trackWaitingStarts(source: Orm | null): void {
  orm = source;
  cached = null;
}

/**
 * One statement: the rows of pending_workflow_starts and the age of the oldest. The table
 * holds only starts not yet made, so it stays small unless Temporal or the workers lag.
 */
async function readBacklog(source: Orm): Promise<Backlog> {
  const rows = await source.em
    .fork()
    .getConnection()
    .execute<Array<{ waiting: string | number; age: string | number | null }>>(
      `select count(*) as waiting,
              extract(epoch from now() - min(created_at)) as age
         from pending_workflow_starts`,
    );
  const row = rows[0];
  return {
    waiting: Number(row?.waiting ?? 0),
    oldestAgeSeconds: Math.max(0, Number(row?.age ?? 0)),
  };
}

function backlog(): Promise<Backlog> {
  const source = orm;
  if (!source) return Promise.resolve({ waiting: 0, oldestAgeSeconds: 0 });
  const now = Date.now();
  if (!cached || now - cached.at >= CACHE_MS) {
    const read = readBacklog(source);
    cached = { at: now, read };
    // A failed read is not kept: the next scrape tries again.
    read.catch(() => {
      if (cached?.read === read) cached = null;
    });
  }
  return cached.read;
}

new Gauge({
  name: 'formward_workflow_starts_waiting',
  help: 'Submissions whose workflow is not started yet (rows of pending_workflow_starts)',
  registers: [metricsRegistry],
  async collect() {
    this.set((await backlog().catch(() => null))?.waiting ?? 0);
  },
});

new Gauge({
  name: 'formward_workflow_start_lag_seconds',
  help: 'Age of the oldest waiting workflow start (0 when none waits)',
  registers: [metricsRegistry],
  async collect() {
    this.set((await backlog().catch(() => null))?.oldestAgeSeconds ?? 0);
  },
});
