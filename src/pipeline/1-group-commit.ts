import type { Orm } from '../db/orm';
import { isConnectionError } from '../db/connection-errors';
import {
  encodeSubmissionRow,
  insertSubmissionGroup,
  reserveSubmissionIds,
  type EncodedSubmissionRow,
} from '../db/sql/submission-inserts';
import { ingestGroupRows } from '../domain/metrics/registry';
import type { SubmissionWriter } from '../domain/submissions/submission-writer';

/** Rows and JSON bytes one statement may carry; a larger queue goes in several groups. */
const MAX_GROUP_ROWS = 200;
const MAX_GROUP_BYTES = 4 * 1024 * 1024;
/** Ids reserved per round trip to the sequence; a new block is fetched when a quarter is left. */
const ID_BLOCK = 128;

type Waiting = {
  row: EncodedSubmissionRow;
  resolve: (inserted: boolean) => void;
  reject: (error: unknown) => void;
};

export type GroupCommit = SubmissionWriter & {
  /** Waits for the group being written; later inserts are refused. */
  close(): Promise<void>;
};

/**
 * Group commit for ingest (docs/performance.md): the submissions that arrive while a group is
 * being written wait, and go together in the next statement, one transaction and one NOTIFY;
 * each caller hears only after that commit. Nobody waits for company: when no group is being
 * written, a submission goes at the end of the current turn of the event loop, with whatever
 * else arrived in it. One group is written at a time per process, so under load the groups
 * grow instead of the round trips.
 *
 * A group that fails on a connection error fails each of its callers with that error (they
 * retry with the same ids, and rows that did commit are found). Any other failure (a payload
 * too large to index) is taken to be some row's: the group is bisected (each half written
 * again, recursively), so each caller gets its own answer, as without grouping, and one bad
 * row costs a few statements instead of one per row. Ids come from blocks reserved ahead, one
 * round trip per block instead of one per submission.
 */
export function createGroupCommit(orm: Orm): GroupCommit {
  const queue: Waiting[] = [];
  let writing: Promise<void> | null = null;
  let closed = false;
  const ids: string[] = [];
  let reserving: Promise<void> | null = null;

  const reserve = () => {
    reserving ??= reserveSubmissionIds(orm.em.fork(), ID_BLOCK)
      .then((block) => void ids.push(...block))
      .finally(() => {
        reserving = null;
      });
    return reserving;
  };

  const takeId = async (): Promise<string> => {
    while (ids.length === 0) await reserve();
    const id = ids.shift()!;
    if (ids.length < ID_BLOCK / 4) reserve().catch(() => undefined); // ahead of need
    return id;
  };

  const nextGroup = (): Waiting[] => {
    let bytes = 0;
    let count = 0;
    while (count < queue.length && count < MAX_GROUP_ROWS) {
      bytes += queue[count]!.row.json.length;
      if (count > 0 && bytes > MAX_GROUP_BYTES) break;
      count++;
    }
    return queue.splice(0, count);
  };

  /**
   * Writes rows in one statement. On a failure that is not the connection's, the rows are
   * split in halves and each half written again, so one refused row among n costs about
   * 2·log2(n) statements and fails only its own caller, with the error it would get alone.
   */
  const writeRows = async (group: Waiting[]): Promise<void> => {
    try {
      const inserted = await insertSubmissionGroup(
        orm.em.fork(),
        group.map((waiting) => waiting.row),
      );
      for (const waiting of group) waiting.resolve(inserted.has(waiting.row.id));
    } catch (error) {
      if (group.length === 1 || isConnectionError(error)) {
        for (const waiting of group) waiting.reject(error);
        return;
      }
      const half = Math.ceil(group.length / 2);
      await writeRows(group.slice(0, half));
      await writeRows(group.slice(half));
    }
  };

  const writeGroup = (group: Waiting[]) => {
    ingestGroupRows.observe(group.length);
    return writeRows(group);
  };

  const writeAll = async () => {
    // The end of this turn of the event loop: requests read in the same turn go together.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      while (queue.length > 0) await writeGroup(nextGroup());
    } finally {
      writing = null; // writeGroup settles every caller itself; this only keeps the loop alive
    }
  };

  return {
    takeId,
    insert(row) {
      if (closed) return Promise.reject(new Error('ingest is shutting down'));
      return new Promise<boolean>((resolve, reject) => {
        queue.push({ row: encodeSubmissionRow(row), resolve, reject });
        writing ??= writeAll();
      });
    },
    async close() {
      closed = true;
      await writing;
      await reserving?.catch(() => undefined);
    },
  };
}
