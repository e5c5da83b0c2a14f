import type { Logger } from 'pino';
import type { Orm } from '../db/orm';
import { listenTo } from '../db/notifications';
import { claimPendingStarts, PENDING_STARTS_CHANNEL } from '../db/sql/workflow-start-claims';
import type { Admission } from './admission';
import type { SubmissionWorkflowStarter } from './workflow-starter';

/** Starts claimed in one statement at most. */
const BATCH = 64;
/**
 * A claim holds this long: far longer than a queued start waits (a round claims only what the
 * admission window has room for), and short enough that a dead worker's claims soon lapse.
 */
const LEASE_MS = 30_000;
/** A backstop for lost notifications and lapsed claims: one cheap statement a second. */
const POLL_MS = 1_000;

export type StartDispatcher = { stop(): Promise<void> };

/**
 * The workers start the submission workflows (WORKFLOW_STARTS=worker, docs/running.md): each
 * insert into pending_workflow_starts notifies them, a worker claims what its admission window
 * has room for and hands it to its starter, which starts each workflow (eagerly, on the
 * worker's own connection, where allowed) and deletes the rows once started. The HTTP process
 * so answers after one insert and never talks to Temporal for it, and under load the starts
 * run at the worker's lower priority, after the answers.
 */
export function startStartDispatcher(deps: {
  orm: Orm;
  workflows: SubmissionWorkflowStarter;
  admission: Admission;
  logger: Logger;
}): StartDispatcher {
  const { orm, workflows, admission, logger } = deps;
  let wanted = false;
  let round: Promise<void> | null = null;
  let stopped = false;
  let failing = false;

  const room = () => {
    const { inFlight, window, queued } = workflows.stats();
    return Math.min(BATCH, window - inFlight - queued);
  };

  const claimWhileRoom = async () => {
    while (wanted && !stopped) {
      wanted = false;
      const limit = room();
      if (limit <= 0) return; // admission's onRoom asks again
      const claims = await claimPendingStarts(orm.em.fork(), limit, LEASE_MS);
      claims.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      for (const { id, traceparent } of claims)
        if (!workflows.isQueued(id)) workflows.enqueue(id, traceparent);
      if (claims.length === limit) wanted = true; // more may wait
    }
  };

  const request = () => {
    wanted = true;
    if (round || stopped) return;
    round = claimWhileRoom()
      .then(
        () => {
          failing = false;
        },
        (error: unknown) => {
          if (!failing)
            logger.warn({ err: (error as Error).message }, 'could not claim workflow starts');
          failing = true;
        },
      )
      .finally(() => {
        round = null;
        if (wanted && !stopped && !failing) request();
      });
  };

  admission.onRoom(request);
  const listening = listenTo(orm, PENDING_STARTS_CHANNEL, request, logger);
  const timer = setInterval(request, POLL_MS);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await listening.stop();
      await round;
      // What is queued starts within the window; the rest is left to lapse for another worker.
      await workflows.drain();
    },
  };
}
