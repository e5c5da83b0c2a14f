import type { Logger } from 'pino';
import type { Orm } from '../db/orm';
import { notifyPendingStarts } from '../db/sql/workflow-start-claims';

/**
 * The least time between two notifications from one process. A NOTIFY's commit takes a
 * database-wide lock until it is flushed, so one per submission would serialise the commits
 * of a burst; at most 100 a second cost little, and the first of a quiet spell goes at once.
 */
const MIN_INTERVAL_MS = 10;

export type StartNotices = {
  /** New pending starts are committed: the workers hear of it soon (coalesced). */
  poke(): void;
  /** Sends what is due now and stops. */
  close(): Promise<void>;
};

/**
 * Step 1, in the HTTP process, once a submission's answer is sent: tells the workers that
 * submissions wait for their workflow start (the statement that stored each one also wrote
 * its row of pending_workflow_starts, src/domain/submissions/store-submission.ts). A lost
 * notification costs latency, not the start: the workers also look once a second.
 */
export function createStartNotices(orm: Orm, logger: Logger): StartNotices {
  let lastSent = 0;
  let timer: NodeJS.Timeout | null = null;
  let sending: Promise<void> | null = null;
  let again = false;
  let closed = false;
  let failing = false; // one warning per outage

  const send = () => {
    timer = null;
    lastSent = Date.now();
    sending = notifyPendingStarts(orm.em.fork())
      .then(
        () => {
          failing = false;
        },
        (error: unknown) => {
          if (!failing)
            logger.warn({ err: (error as Error).message }, 'could not notify the workers');
          failing = true;
        },
      )
      .finally(() => {
        sending = null;
        if (again) {
          again = false;
          poke();
        }
      });
  };

  const poke = () => {
    if (closed || timer) return;
    if (sending) {
      again = true;
      return;
    }
    const wait = lastSent + MIN_INTERVAL_MS - Date.now();
    if (wait <= 0) send();
    else {
      timer = setTimeout(send, wait);
      timer.unref();
    }
  };

  return {
    poke,
    async close() {
      closed = true;
      if (timer) {
        clearTimeout(timer);
        send();
      }
      await sending;
    },
  };
}
