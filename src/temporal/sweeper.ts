import type { Logger } from 'pino';
import type { Orm } from '../db/orm';
import type { SubmissionWorkflowStarter } from './workflow-starter';

/**
 * Starts the workflows of submissions whose start was missed (Temporal down, process killed
 * between commit and start). Several serve processes may sweep at once: workflow ids make
 * the starts idempotent and SKIP LOCKED keeps them off each other's rows.
 */
export function startSweeper(deps: {
  orm: Orm;
  workflows: SubmissionWorkflowStarter;
  logger: Logger;
  intervalMs: number;
  graceMs?: number;
}): { stop(): Promise<void>; sweepNow(): Promise<number> } {
  const { orm, workflows, logger, intervalMs } = deps;
  const graceMs = deps.graceMs ?? 2000;
  let running: Promise<number> | null = null;
  let stopped = false;

  const sweep = async (): Promise<number> => {
    let started = 0;
    const em = orm.em.fork();
    await em.transactional(async (tx) => {
      const rows = await tx.getConnection().execute<{ id: string }[]>(
        `select id from submissions
          where workflow_started_at is null and created_at < now() - (? * interval '1 millisecond')
          order by id limit 200 for update skip locked`,
        [graceMs],
        'all',
        tx.getTransactionContext(),
      );
      const connection = tx.getConnection();
      for (const row of rows) {
        if (stopped) break;
        // Temporal still down: leave the rest for the next round.
        if (!(await workflows.startUnmarked(String(row.id)))) break;
        // Marked through this transaction: another connection would wait on our own row lock.
        await connection.execute(
          'update submissions set workflow_started_at = now() where id = ?',
          [row.id],
          'run',
          tx.getTransactionContext(),
        );
        started++;
      }
    });
    if (started > 0) logger.info({ started }, 'sweeper started missed submission workflows');
    return started;
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
