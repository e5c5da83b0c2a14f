import type { EntityManager } from '@mikro-orm/postgresql';
import {
  insertSubmissionOnce,
  nextSubmissionId,
  type NewSubmissionRow,
} from '../../db/sql/submission-inserts';

/**
 * How a submission without files reaches the database: its id first (so a retried insert
 * finds its row), then the row, committed when `insert` resolves (true when this call
 * inserted it, false when an earlier attempt had).
 */
export type SubmissionWriter = {
  takeId(): Promise<string>;
  insert(row: NewSubmissionRow): Promise<boolean>;
};

/** One statement per step on `em` (inside its transaction, if it has one). */
export const directWriter = (em: () => EntityManager): SubmissionWriter => ({
  takeId: () => nextSubmissionId(em()),
  insert: (row) => insertSubmissionOnce(em(), row),
});
