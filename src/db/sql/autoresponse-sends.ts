import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

/** One form's autoresponse to one address (lower case), for one submission. */
export type AutoresponseSend = { formId: string; address: string; submissionId: string };

/**
 * Claims the autoresponse of this submission to the address, in one statement (atomic across
 * workers): true when none went out to it from this form within `intervalMs`, or when the
 * claim is already this submission's (a retried attempt). Two submissions at once: one wins.
 */
export async function claimAutoresponse(
  em: EntityManager,
  send: AutoresponseSend,
  intervalMs: number,
): Promise<boolean> {
  const changed = await runStatement(
    em,
    `insert into autoresponse_sends as s (form_id, address, submission_id, sent_at)
     values (?, ?, ?, now())
     on conflict (form_id, address) do update
       set submission_id = excluded.submission_id,
           sent_at = case when s.submission_id = excluded.submission_id then s.sent_at else now() end
     where s.submission_id = excluded.submission_id
        or s.sent_at <= now() - make_interval(secs => ?::double precision / 1000)`,
    [send.formId, send.address, send.submissionId, intervalMs],
  );
  return changed > 0;
}

/**
 * Gives the claim back when nothing was sent (no mail budget, or every attempt failed): the
 * address may get the autoresponse of its next submission. A claim older than the interval
 * counts as none, so deleting it is the same as restoring the one before.
 */
export async function releaseAutoresponse(
  em: EntityManager,
  send: AutoresponseSend,
): Promise<void> {
  await runStatement(
    em,
    'delete from autoresponse_sends where form_id = ? and address = ? and submission_id = ?',
    [send.formId, send.address, send.submissionId],
  );
}

/** Whether the address unsubscribed from the account's mail (one-click, RFC 8058). */
export async function isUnsubscribed(
  em: EntityManager,
  accountId: string,
  address: string,
): Promise<boolean> {
  const rows = await selectRows<{ one: number }>(
    em,
    `select 1 as one from recipient_confirmations
      where account_id = ? and address = ? and unsubscribed_at is not null`,
    [accountId, address],
  );
  return rows.length > 0;
}

/** Forgets when the account's forms answered the address (erasure of a sender). */
export async function forgetAutoresponseSends(
  em: EntityManager,
  accountId: string,
  address: string,
): Promise<void> {
  await runStatement(
    em,
    `delete from autoresponse_sends
      where address = ? and form_id in (select id from forms where account_id = ?)`,
    [address, accountId],
  );
}
