import type { Logger } from 'pino';
import type { Orm } from '../db/orm';
import { listenTo } from '../db/notifications';
import { markWorkflowsStarted } from '../db/sql/submissions';
import { claimPendingStarts, PENDING_STARTS_CHANNEL } from '../db/sql/workflow-start-claims';
import { trackAdmission } from '../domain/metrics/admission-gauges';
import type { Admission, AdmissionStats } from './3-admission';
import type { SubmissionWorkflowStarter } from './4-start-workflow';

/** Starts under way at once from one worker: enough to keep up, bounded under load. */
const START_CONCURRENCY = 8;
/**
 * A claim holds this long: longer than its start may take (4-start-workflow.ts's deadline),
 * short enough that the claims of a worker that died, or of a start Temporal refused, are soon
 * claimed again.
 */
const LEASE_MS = 10_000;
/** A backstop for lost notifications, lapsed claims and Temporal outages: one cheap statement. */
const POLL_MS = 1_000;

export type ClaimStats = AdmissionStats & {
  /** Claimed by this worker, start under way. */
  starting: number;
};

export type StartClaims = { stats(): ClaimStats; stop(): Promise<void> };

/**
 * Step 2, in every worker: the claim loop. Told of new rows of pending_workflow_starts by the
 * statement that stored them (1-group-commit.ts), and once a second besides, it claims as many as it can
 * start at once (its free start slots, within the admission window of 3-admission.ts), starts
 * each (4-start-workflow.ts) and deletes the rows started, in batches. Nothing waits in memory:
 * what it cannot start now stays in PostgreSQL. A start that fails keeps its claim until the
 * claim lapses, then a worker tries again; a start made twice (a lapsed claim) is one workflow.
 */
export function claimWorkflowStarts(deps: {
  orm: Orm;
  workflows: SubmissionWorkflowStarter;
  admission: Admission;
  logger: Logger;
}): StartClaims {
  const { orm, workflows, admission, logger } = deps;
  let wanted = false;
  let round: Promise<void> | null = null;
  let stopped = false;
  let failingClaims = false; // one warning per outage, not one per poll
  let failingStarts = false;
  let resumeAt = 0; // after a failed start, wait for the poll instead of claiming at once
  const starting = new Set<Promise<void>>();
  let started: string[] = [];
  let marking: Promise<void> | null = null;

  const room = () => {
    const { inFlight, window } = admission.stats();
    return Math.min(START_CONCURRENCY - starting.size, window - inFlight);
  };

  // One delete for the rows started meanwhile, then the next batch.
  const markStarted = (): Promise<void> => {
    if (marking || started.length === 0) return marking ?? Promise.resolve();
    const batch = started;
    started = [];
    marking = markWorkflowsStarted(orm.em.fork(), batch)
      .catch((error: unknown) =>
        logger.warn({ err: (error as Error).message }, 'could not mark started workflows'),
      )
      .finally(() => {
        marking = null;
        if (started.length > 0) void markStarted();
      });
    return marking;
  };

  const startClaimed = (submissionId: string, traceparent: string | null) => {
    if (!admission.tryAcquire()) return; // the claim lapses and is taken again
    const attempt = workflows.start(submissionId, traceparent).then(
      () => {
        failingStarts = false;
        admission.started(submissionId);
        started.push(submissionId);
        void markStarted();
      },
      (error: unknown) => {
        admission.release();
        resumeAt = Date.now() + POLL_MS;
        if (!failingStarts)
          logger.warn(
            { submissionId, err: (error as Error).message },
            'could not start the submission workflow; it is tried again when its claim lapses',
          );
        failingStarts = true;
      },
    );
    const tracked = attempt.finally(() => {
      starting.delete(tracked);
      request();
    });
    starting.add(tracked);
  };

  const claimWhileRoom = async () => {
    while (wanted && !stopped && Date.now() >= resumeAt) {
      wanted = false;
      const limit = room();
      if (limit <= 0) return; // a start that ends, or admission's onRoom, asks again
      const claims = await claimPendingStarts(orm.em.fork(), limit, LEASE_MS);
      for (const { id, traceparent, present } of claims) {
        if (present) startClaimed(id, traceparent);
        else started.push(id); // deleted before its start: forget the row
      }
      void markStarted();
      if (claims.length === limit) wanted = true; // more may wait
    }
  };

  function request() {
    wanted = true;
    if (round || stopped) return;
    round = claimWhileRoom()
      .then(
        () => {
          failingClaims = false;
        },
        (error: unknown) => {
          if (!failingClaims)
            logger.warn({ err: (error as Error).message }, 'could not claim workflow starts');
          failingClaims = true;
        },
      )
      .finally(() => {
        round = null;
        if (wanted && !stopped && !failingClaims && Date.now() >= resumeAt) request();
      });
  }

  admission.onRoom(request);
  const listening = listenTo(orm, PENDING_STARTS_CHANNEL, request, logger);
  const timer = setInterval(request, POLL_MS);
  timer.unref();
  request();
  const stats = (): ClaimStats => ({ ...admission.stats(), starting: starting.size });
  // /readyz and the admission gauges of /metrics read it while it runs.
  const untrack = trackAdmission(stats);

  return {
    stats,
    async stop() {
      stopped = true;
      untrack();
      clearInterval(timer);
      await listening.stop();
      await round;
      // The starts under way finish, and their rows are deleted; claims not started lapse.
      await Promise.all(starting);
      await markStarted();
      await marking;
    },
  };
}
