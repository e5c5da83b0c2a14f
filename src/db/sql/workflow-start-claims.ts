import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from './execute';

/** The channel that tells the workers new rows of pending_workflow_starts are there. */
export const PENDING_STARTS_CHANNEL = 'formward_pending_starts';

/**
 * Claims up to `limit` claimable pending starts, oldest first, for `leaseMs`: no other
 * worker takes them meanwhile (rows another transaction is claiming are skipped, not waited
 * for), and a claim whose worker died lapses. The rows stay until their start is marked.
 * Each comes with the ingest request's trace context, if one was stored, and `present`: false
 * when its submission was deleted meanwhile (nothing to start, the row is to be forgotten).
 */
export async function claimPendingStarts(
  em: EntityManager,
  limit: number,
  leaseMs: number,
): Promise<ClaimedStart[]> {
  return selectRows<ClaimedStart>(
    em,
    `update pending_workflow_starts p set claimed_until = now() + (? * interval '1 millisecond')
      where p.submission_id in (
        select submission_id from pending_workflow_starts
         where claimed_until <= now()
         order by submission_id limit ?
         for update skip locked)
      returning p.submission_id::text as id, p.traceparent,
                exists (select 1 from submissions s where s.id = p.submission_id) as present`,
    [leaseMs, limit],
  );
}

export type ClaimedStart = { id: string; traceparent: string | null; present: boolean };
