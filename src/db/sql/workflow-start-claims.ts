import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

/** The channel that tells the workers new rows of pending_workflow_starts are there. */
export const PENDING_STARTS_CHANNEL = 'formward_pending_starts';

/** Tells the listening workers that pending starts were stored (its own short transaction). */
export async function notifyPendingStarts(em: EntityManager): Promise<void> {
  await runStatement(em, `select pg_notify('${PENDING_STARTS_CHANNEL}', '')`);
}

/**
 * Claims up to `limit` claimable pending starts, oldest first, for `leaseMs`: no other
 * worker takes them meanwhile (rows another transaction is claiming are skipped, not waited
 * for), and a claim whose worker died lapses. The rows stay until their start is marked.
 * Each comes with the ingest request's trace context, if one was stored.
 */
export async function claimPendingStarts(
  em: EntityManager,
  limit: number,
  leaseMs: number,
): Promise<Array<{ id: string; traceparent: string | null }>> {
  return selectRows<{ id: string; traceparent: string | null }>(
    em,
    `update pending_workflow_starts set claimed_until = now() + (? * interval '1 millisecond')
      where submission_id in (
        select submission_id from pending_workflow_starts
         where claimed_until <= now()
         order by submission_id limit ?
         for update skip locked)
      returning submission_id::text as id, traceparent`,
    [leaseMs, limit],
  );
}
