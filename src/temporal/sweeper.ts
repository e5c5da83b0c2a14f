import type { Logger } from 'pino';
import type { Orm } from '../db/orm';
import { tryAdvisoryTransactionLock } from '../db/sql/server';
import { markWorkflowsStarted, selectPendingStarts } from '../db/sql/submissions';
import type { SubmissionWorkflowStarter } from './workflow-starter';

/** How long a new submission is left to the ingest's own dispatcher before the sweeper acts. */
const DEFAULT_GRACE_MS = 10_000;
const BATCH = 200;
/** A round stops starting workflows after this long, so its transaction stays short. */
const ROUND_MS = 5_000;
// Any constant: the advisory lock that lets one sweeper at a time work across all processes.
const SWEEPER_LOCK_KEY = 0x666f726d; // "form"

/**
 * Starts the workflows of submissions whose start was missed (Temporal down, process killed
 * between commit and start, more waiting than another process's queue holds), within the
 * same admission window as the dispatcher (admission.ts). One serve process sweeps at a time (an advisory lock); it holds
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
      // Lock, select and mark in one transaction: the lock is held until the marks commit.
      const locked = await tryAdvisoryTransactionLock(tx, SWEEPER_LOCK_KEY);
      if (!locked) return []; // another process is sweeping
      const pending = await selectPendingStarts(tx, graceMs, BATCH);
      const ids: string[] = [];
      const done: string[] = []; // started, or deleted before it was: no longer pending
      const deadline = Date.now() + ROUND_MS;
      for (const { id, present } of pending) {
        if (!present) {
          done.push(id);
          continue;
        }
        if (stopped || Date.now() > deadline) break;
        if (workflows.isQueued(id)) continue; // this process's dispatcher starts it
        // Temporal still down, or the admission window full: the rest waits for a later round.
        if ((await workflows.startAdmitted(id)) !== 'started') break;
        ids.push(id);
        done.push(id);
      }
      if (done.length > 0) await markWorkflowsStarted(tx, done);
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
