/** This many identical submissions (the current one included) within the window is a burst. */
export const BURST_COUNT = 3;
export const BURST_WINDOW_MINUTES = 10;

/**
 * Whether a submission completes a burst: with it, BURST_COUNT or more submissions with the
 * same payload_json (compared as jsonb, so key order does not matter) came from the same
 * source_ip to the same form within BURST_WINDOW_MINUTES. `identical` counts them, as the
 * spam check reads it (src/db/sql/workflow-step-reads.ts): only submissions stored before it
 * (lower id) count, so the answer never changes when more arrive later and re-running the
 * check gives the same verdict. Without a source address there is nothing to group by.
 */
export function completesBurst(identical: number): boolean {
  return identical >= BURST_COUNT;
}
