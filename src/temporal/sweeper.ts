import type { Logger } from 'pino';
import type { Orm } from '../db/orm';
import { markWorkflowsStarted, type SubmissionWorkflowStarter } from './workflow-starter';

/** How long a new submission is left to the ingest's own dispatcher before the sweeper acts. */
const DEFAULT_GRACE_MS = 10_000;
const BATCH = 200;
/** A round stops starting workflows after this long, so its transaction stays short. */
const ROUND_MS = 5_000;
// Any constant: the advisory lock that lets one sweeper at a time work across all processes.
const SWEEPER_LOCK_KEY = 0x666f726d; // "form"

/**
 * Starts the workflows of submissions whose start was missed (Temporal down, process killed
 * between commit and start). One serve process sweeps at a time (an advisory lock); it holds
 * no row locks while it talks to Temporal, so ingest never waits for it. Workflow ids make
 * a start that raced another idempotent.
 */
export function startSweeper(deps: {
  orm: Orm;
  workflows: SubmissionWorkflowStarter;
  logger: Logger;
  intervalMs: number;
  graceMs?: number;
}): { stop(): Promise<void>; sweepNow(): Promise<number> } {
  const { orm, workflows, logger, intervalMs } = deps;
  const graceMs = deps.graceMs ?? DEFAULT_GRACE_MS;
  let running: Promise<number> | null = null;
  let stopped = false;

  const sweep = async (): Promise<number> => {
    const em = orm.em.fork();
    const started = await em.transactional(async (tx) => {
      const connection = tx.getConnection();
      const context = tx.getTransactionContext();
      const [lock] = await connection.execute<{ locked: boolean }[]>(
        'select pg_try_advisory_xact_lock(?) as locked',
        [SWEEPER_LOCK_KEY],
        'all',
        context,
      );
      if (!lock?.locked) return []; // another process is sweeping
      const rows = await connection.execute<{ id: string }[]>(
        `select id from submissions
          where workflow_started_at is null and created_at < now() - (? * interval '1 millisecond')
          order by id limit ?`,
        [graceMs, BATCH],
        'all',
        context,
      );
      const ids: string[] = [];
      const deadline = Date.now() + ROUND_MS;
      for (const row of rows) {
        if (stopped || Date.now() > deadline) break;
        // Temporal still down: leave the rest for the next round.
        if (!(await workflows.startUnmarked(String(row.id)))) break;
        ids.push(String(row.id));
      }
      if (ids.length > 0) {
        await markWorkflowsStarted(connection, ids, context);
      }
      return ids;
    });
    if (started.length > 0)
      logger.info({ started: started.length }, 'sweeper started missed submission workflows');
    return started.length;
  };

  const tick = () => {
    if (running || stopped) return;
    running = sweep()
      .catch((error: unknown) => {
        logger.error({ err: error }, 'sweeper round failed');
        return 0;
      })
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
    async sweepNow() {
      await running;
      return sweep();
    },
  };
}
