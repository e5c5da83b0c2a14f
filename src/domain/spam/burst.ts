import type { EntityManager } from '@mikro-orm/postgresql';

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
  const [row] = await em.getConnection().execute<{ identical: number }[]>(
    `select count(*)::int as identical
       from submissions this
       join submissions other
         on other.form_id = this.form_id
        -- both values, so the (form_id, is_spam, created_at) list index serves the range
        and other.is_spam in (false, true)
        and other.created_at > this.created_at - make_interval(mins => ?)
        and other.id <= this.id
        and other.source_ip = this.source_ip
        and other.payload_json = this.payload_json
      where this.id = ?`,
    [BURST_WINDOW_MINUTES, submissionId],
  );
  return (row?.identical ?? 0) >= BURST_COUNT;
}
