import type { Logger } from 'pino';
import type { Orm } from '../db/orm';
import { selectIdsAwaitingSpamCheck } from '../db/sql/submissions';

/** How often the in-flight starts are checked against the database while any are open. */
const POLL_MS = 100;
/**
 * A start not picked up after this long (the workflow was terminated, or its worker is gone)
 * frees its slot anyway, so one lost workflow cannot shrink the window for good.
 */
const MAX_IN_FLIGHT_MS = 60_000;

export type AdmissionStats = {
  /** Workflows this process started whose first task no worker has run yet. */
  inFlight: number;
  /** The most it starts ahead of the workers (ADMISSION_WINDOW). */
  window: number;
};

export interface Admission {
  /** Takes a slot if one is free; the caller then starts the workflow and reports back. */
  tryAcquire(): boolean;
  /** The workflow of `submissionId` runs: its slot frees when a worker has picked it up. */
  started(submissionId: string): void;
  /** The start failed or was not needed: the slot frees at once. */
  release(): void;
  /** Called whenever slots free up. */
  onRoom(listener: () => void): void;
  stats(): AdmissionStats;
  stop(): void;
}

/**
 * Step 3: admission control of workflow starts. At most `window` started workflows wait for
 * their first workflow task at once, so a burst waits in PostgreSQL (rows not yet started)
 * instead of in Temporal's task queue, where every task costs more than a task handed straight
 * to a waiting poller. A start leaves the window when its spam check is stored (the first
 * thing the workflow does), read from the database every 100 ms while starts are open: the
 * start rate so follows the rate at which the workers take up workflows.
 */
export function createAdmission(deps: { orm: Orm; window: number; logger: Logger }): Admission {
  const { orm, window, logger } = deps;
  const inFlight = new Map<string, number>(); // submission id -> when started
  let reserved = 0; // slots taken for starts still under way
  let timer: NodeJS.Timeout | null = null;
  let polling = false;
  let failing = false; // one warning per outage, not one per poll
  const listeners: Array<() => void> = [];

  const notify = () => {
    for (const listener of listeners) listener();
  };

  const poll = async () => {
    if (polling || inFlight.size === 0) return;
    polling = true;
    try {
      const ids = [...inFlight.keys()];
      const waiting = new Set(await selectIdsAwaitingSpamCheck(orm.em.fork(), ids));
      const expired = Date.now() - MAX_IN_FLIGHT_MS;
      let freed = 0;
      for (const id of ids) {
        if (waiting.has(id) && inFlight.get(id)! > expired) continue;
        inFlight.delete(id);
        freed++;
      }
      failing = false;
      if (freed > 0) notify();
    } catch (error) {
      if (!failing)
        logger.warn(
          { err: (error as Error).message },
          'admission: could not read started workflows',
        );
      failing = true;
    } finally {
      polling = false;
      schedule();
    }
  };

  const schedule = () => {
    if (timer || inFlight.size === 0) return;
    timer = setTimeout(() => {
      timer = null;
      void poll();
    }, POLL_MS);
    timer.unref();
  };

  const stats = (): AdmissionStats => ({ inFlight: inFlight.size + reserved, window });

  return {
    tryAcquire() {
      if (inFlight.size + reserved >= window) return false;
      reserved++;
      return true;
    },
    started(submissionId) {
      reserved--;
      inFlight.set(submissionId, Date.now());
      schedule();
    },
    release() {
      reserved--;
      notify();
    },
    onRoom(listener) {
      listeners.push(listener);
    },
    stats,
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      inFlight.clear();
    },
  };
}
