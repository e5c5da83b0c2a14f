import type { EntityManager } from '@mikro-orm/postgresql';
import { countIdenticalBefore } from '../../db/sql/submissions';

/** This many identical submissions (the current one included) within the window is a burst. */
export const BURST_COUNT = 3;
export const BURST_WINDOW_MINUTES = 10;

/**
 * Whether the submission completes a burst: with it, BURST_COUNT or more submissions with the
 * same payload_json (compared as jsonb, so key order does not matter) came from the same
 * source_ip to the same form within BURST_WINDOW_MINUTES. Only submissions stored before it
 * (lower id) count, so the answer never changes when more arrive later and re-running the
 * check gives the same verdict. Without a source address there is nothing to group by.
 */
export async function completesBurst(em: EntityManager, submissionId: string): Promise<boolean> {
  return (await countIdenticalBefore(em, submissionId, BURST_WINDOW_MINUTES)) >= BURST_COUNT;
}
