import type { Logger } from 'pino';
import type { Orm } from '../../db/orm';
import {
  lockQueuedObjectDeletions,
  removeQueuedObjectDeletions,
} from '../../db/sql/submission-files';
import type { FileStore } from './file-store';

const BATCH = 200;

/**
 * Deletes the objects of deleted file rows: deleting a row (or its submission, form or
 * account, by cascade) queues its key in `file_object_deletions` in the same transaction, and
 * a round takes a batch (locked, so processes share the work), deletes the objects and
 * forgets the keys. An unreachable store leaves the queue for the next round.
 */
export async function sweepDeletedObjects(orm: Orm, store: FileStore): Promise<number> {
  return orm.em.fork().transactional(async (tx) => {
    const keys = await lockQueuedObjectDeletions(tx, BATCH);
    if (keys.length === 0) return 0;
    await store.delete(keys);
    await removeQueuedObjectDeletions(tx, keys);
    return keys.length;
  });
}

/** Runs `sweepDeletedObjects` every `intervalMs` until stopped. */
export function startObjectSweep(deps: {
  orm: Orm;
  store: FileStore;
  logger: Logger;
  intervalMs: number;
}): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = sweepDeletedObjects(deps.orm, deps.store)
      .then((deleted) => {
        if (deleted > 0) deps.logger.info({ deleted }, 'deleted the objects of deleted files');
      })
      .catch((error: unknown) =>
        deps.logger.warn({ err: error }, 'deleting objects of deleted files failed; will retry'),
      )
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, deps.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
