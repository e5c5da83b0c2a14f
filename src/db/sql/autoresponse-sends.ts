import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

/**
 * One form's autoresponse to one address, for one submission. The address and the
 * submitter's network (an IPv4 address or IPv6 /64, for the per-client cap, when known) are
 * given as their keys (src/domain/mail/address-keys.ts): autoresponse_sends is the ledger the
 * caps count, which no owner action lowers (erasure and deleting a form or account leave it),
 * so it keeps no address itself.
 */
export type AutoresponseSend = {
  formId: string;
  addressKey: string;
  submissionId: string;
  clientKey?: string | null;
};

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
    `insert into autoresponse_sends as s (form_id, address_key, submission_id, sent_at, client_key)
     values (?, ?, ?, now(), ?)
     on conflict (form_id, address_key) do update
       set submission_id = excluded.submission_id,
           client_key = excluded.client_key,
           sent_at = case when s.submission_id = excluded.submission_id then s.sent_at else now() end
     where s.submission_id = excluded.submission_id
        or s.sent_at <= now() - make_interval(secs => ?::double precision / 1000)`,
    [send.formId, send.addressKey, send.submissionId, send.clientKey ?? null, intervalMs],
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
    'delete from autoresponse_sends where form_id = ? and address_key = ? and submission_id = ?',
    [send.formId, send.addressKey, send.submissionId],
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

/** The caps beside the per-form interval (docs/autoresponse.md, "Limits against abuse"). */
export type AutoresponseCaps = {
  /** AUTORESPONSE_INTERVAL: one per form and address in this time. */
  intervalMs: number;
  /** AUTORESPONSE_PER_ADDRESS: autoresponses to one address within the interval, all forms. */
  perAddress: number;
  /** AUTORESPONSE_PER_CLIENT: autoresponses one client network may cause per hour, all forms. */
  perClientHour: number;
};

export type ClaimOutcome = 'claimed' | 'interval' | 'recipient_limit' | 'client_limit';

/**
 * The claim of claimAutoresponse, within the caps across every form of every account: at most
 * `perAddress` autoresponses reach one address per interval, and one client network causes at
 * most `perClientHour` an hour. Both are counted and the claim taken under transaction-scoped
 * advisory locks on the address and then the client, so concurrent sends (a burst over many
 * forms at one address) are decided one after the other and cannot all pass the count. A
 * retried attempt of the claiming submission keeps its claim. 0 turns a cap off.
 */
export async function claimAutoresponseWithinCaps(
  em: EntityManager,
  send: AutoresponseSend,
  caps: AutoresponseCaps,
): Promise<ClaimOutcome> {
  return em.transactional(async (tx) => {
    await selectRows(tx, 'select pg_advisory_xact_lock(?, hashtext(?))', [
      LOCK_ADDRESS,
      send.addressKey,
    ]);
    if (send.clientKey)
      await selectRows(tx, 'select pg_advisory_xact_lock(?, hashtext(?))', [
        LOCK_CLIENT,
        send.clientKey,
      ]);
    const [counts] = await selectRows<{
      mine: boolean;
      waiting: boolean;
      to_address: number;
      from_client: number;
    }>(
      tx,
      `select
         exists (select 1 from autoresponse_sends
                  where form_id = ? and address_key = ? and submission_id = ?) as mine,
         exists (select 1 from autoresponse_sends
                  where form_id = ? and address_key = ? and submission_id <> ?
                    and sent_at > now() - make_interval(secs => ?::double precision / 1000))
           as waiting,
         (select count(*)::int from autoresponse_sends
           where address_key = ? and form_id <> ?
             and sent_at > now() - make_interval(secs => ?::double precision / 1000)) as to_address,
         (select count(*)::int from autoresponse_sends
           where client_key = ? and not (form_id = ? and address_key = ?)
             and sent_at > now() - interval '1 hour') as from_client`,
      [
        send.formId,
        send.addressKey,
        send.submissionId,
        send.formId,
        send.addressKey,
        send.submissionId,
        caps.intervalMs,
        send.addressKey,
        send.formId,
        caps.intervalMs,
        send.clientKey ?? null,
        send.formId,
        send.addressKey,
      ],
    );
    // This form's own interval first: not due is not a refusal worth a record.
    if (counts!.waiting) return 'interval';
    if (!counts!.mine) {
      if (caps.perAddress > 0 && counts!.to_address >= caps.perAddress) return 'recipient_limit';
      if (caps.perClientHour > 0 && send.clientKey && counts!.from_client >= caps.perClientHour)
        return 'client_limit';
    }
    return (await claimAutoresponse(tx, send, caps.intervalMs)) ? 'claimed' : 'interval';
  });
}

// Advisory lock classes (the first key): one for addresses, one for client networks.
const LOCK_ADDRESS = 0x6172; // "ar"
const LOCK_CLIENT = 0x6163; // "ac"
