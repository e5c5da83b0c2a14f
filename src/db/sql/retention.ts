import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

// Retention (docs/retention.md): the statements of the hourly purge and of delete-after-delivery.
// Deleting a submission cascades to its files and delivery attempts; the submission_files
// triggers queue the files' objects for the store's sweep and release the upload quotas
// (Migration20261126000200FileStorage, Migration20261210000400UploadReservations).

/**
 * Every delivery of submission `s` succeeded: it has plugin delivery records; the last record
 * of each plugin says `succeeded` (none failed, pending a retry or skipped); and every plugin
 * of the form that existed when it came (deleted ones aside) has a record, so a delivery still
 * on its first attempt (recorded when that attempt ends) keeps it. The autoresponse's records
 * (no plugin) are the submitter's courtesy mail, not a delivery of the data: skipped or failed
 * they keep nothing, but one still retrying keeps the submission it reads.
 */
const EVERY_DELIVERY_SUCCEEDED = `
  exists (select 1 from delivery_attempts d where d.submission_id = s.id and d.plugin_id is not null)
  and not exists (
    select 1 from delivery_attempts d
     where d.submission_id = s.id and d.status <> 'succeeded'
       and (d.plugin_id is not null or d.status = 'pending_retry')
       and not exists (
         select 1 from delivery_attempts later
          where later.submission_id = s.id and later.plugin_id is not distinct from d.plugin_id
            and (later.started_at, later.id) > (d.started_at, d.id)))
  and not exists (
    select 1 from plugins p
     where p.form_id = s.form_id and p.deleted_at is null and p.created_at <= s.created_at
       and not exists (
         select 1 from delivery_attempts d where d.submission_id = s.id and d.plugin_id = p.id))`;

/** Delivery attempts older than this are in no stats window (30 UTC days): not kept. */
const ATTEMPT_STATS_DAYS = 31;

export type PurgedCounts = { deleted: number; spam: number };

/**
 * Deletes the submissions `picked` selects (a query of their `id`s), with their files and
 * delivery attempts, in one statement. Each leaves its counted facts in purged_submissions, and
 * its attempts of the stats window theirs in purged_delivery_attempts, so counts and stats
 * stay. The sub-statements all see the rows as they were, attempts included. The ids go to the
 * delete as an array, so it reads the primary key (a join with `picked` would scan the table).
 */
async function deleteKeepingCounts(
  em: EntityManager,
  picked: string,
  params: unknown[],
): Promise<PurgedCounts> {
  const [row] = await selectRows<{ deleted: string; spam: string }>(
    em,
    `with picked as (${picked}),
     gone as (
       delete from submissions s where s.id = any(array(select id from picked))
       returning s.id, s.form_id, s.account_id, s.is_spam, s.spam_reason, s.created_at),
     counted as (
       insert into purged_submissions (id, form_id, account_id, is_spam, spam_reason, created_at)
       select id, form_id, account_id, is_spam, spam_reason, created_at from gone
       on conflict (id) do nothing),
     attempts as (
       insert into purged_delivery_attempts (form_id, account_id, status, started_at, duration_ms)
       select g.form_id, g.account_id, d.status, d.started_at, d.duration_ms
         from delivery_attempts d join gone g on g.id = d.submission_id
        where not d.is_test and d.status <> 'skipped'
          and d.started_at >= now() - interval '${ATTEMPT_STATS_DAYS} days')
     select count(*) as deleted, count(*) filter (where is_spam) as spam from gone`,
    params,
  );
  return { deleted: Number(row?.deleted ?? 0), spam: Number(row?.spam ?? 0) };
}

/**
 * Deletes the submission if its form deletes after delivery, it is not spam and every delivery
 * of it succeeded (the submission workflow's last step); false when it was kept.
 */
export async function deleteDeliveredSubmission(
  em: EntityManager,
  submissionId: string,
): Promise<boolean> {
  const { deleted } = await deleteKeepingCounts(
    em,
    `select s.id from submissions s join forms f on f.id = s.form_id
      where s.id = ? and f.delete_after_delivery and not s.is_spam and ${EVERY_DELIVERY_SUCCEEDED}`,
    [submissionId],
  );
  return deleted > 0;
}

export type PurgeRules = {
  /** SPAM_RETENTION_DAYS: spam of every form older than this goes. */
  spamRetentionDays: number;
  /** A delivered submission younger than this is left to its workflow's own last step. */
  deliveredSettleMinutes: number;
  /** Submissions deleted at most by one call. */
  limit: number;
};

/**
 * One batch of the hourly purge: at most `limit` submissions that are past their form's
 * `retention_days`, spam past SPAM_RETENTION_DAYS, or (forms with `delete_after_delivery`)
 * delivered everywhere. A submission whose delivery failed, is pending or was skipped goes
 * only when its retention ends. Fewer than `limit` deleted: nothing is left to purge now.
 */
export function purgeExpiredSubmissions(
  em: EntityManager,
  rules: PurgeRules,
): Promise<PurgedCounts> {
  const { limit } = rules;
  return deleteKeepingCounts(
    em,
    // Each branch reads an index range, never every submission: per form (lateral) its list
    // index by (form_id, is_spam, created_at), spam by submissions_spam_created_idx.
    `(select s.id from forms f cross join (values (false), (true)) as v(spam)
        cross join lateral (
          select s.id from submissions s
           where s.form_id = f.id and s.is_spam = v.spam
             and s.created_at < now() - make_interval(days => f.retention_days) limit ?) s
        where f.retention_days is not null limit ?)
     union
     (select s.id from submissions s
        where s.is_spam and s.created_at < now() - make_interval(days => ?) limit ?)
     union
     (select s.id from forms f
        cross join lateral (
          select s.id from submissions s
           where s.form_id = f.id and not s.is_spam
             and s.created_at < now() - make_interval(mins => ?)
             and not exists (select 1 from pending_workflow_starts w where w.submission_id = s.id)
             and ${EVERY_DELIVERY_SUCCEEDED} limit ?) s
        where f.delete_after_delivery limit ?)
     limit ?`,
    [
      limit,
      limit,
      rules.spamRetentionDays,
      limit,
      rules.deliveredSettleMinutes,
      limit,
      limit,
      limit,
    ],
  );
}

export type HousekeepingCounts = {
  recipientRequests: number;
  mailHours: number;
  purgedAttempts: number;
  autoresponseSends: number;
  invitations: number;
  /** Invitation mails of days past: the per-address cap counts a day, the hourly one an hour. */
  invitationMails: number;
};

/**
 * Rows no rule reads any more: a recipient's confirmation request older than its day (the next
 * one is allowed anyway), an account's mail counts of hours before the last two, and kept
 * attempts of purged submissions older than every stats window, and autoresponse sends older
 * than `autoresponseKeepMs` (the longest window their rules count: the interval, or the hour
 * of the per-client cap), and invitations settled (accepted, revoked, declined or expired) a
 * month ago: their links have said so long enough; and invitation mails older than the day
 * the per-address cap counts. Opt-outs stay: they are the address's own wish.
 */
export async function deleteStaleRows(
  em: EntityManager,
  autoresponseKeepMs: number,
): Promise<HousekeepingCounts> {
  return {
    recipientRequests: await runStatement(
      em,
      `delete from recipient_requests where last_sent_at <= now() - interval '1 day'`,
    ),
    mailHours: await runStatement(
      em,
      `delete from account_mail_hours where hour < now() - interval '2 hours'`,
    ),
    purgedAttempts: await runStatement(
      em,
      `delete from purged_delivery_attempts
        where started_at < now() - interval '${ATTEMPT_STATS_DAYS} days'`,
    ),
    autoresponseSends: await runStatement(
      em,
      `delete from autoresponse_sends
        where sent_at < now() - make_interval(secs => ?::double precision / 1000)`,
      [autoresponseKeepMs],
    ),
    invitations: await runStatement(
      em,
      `delete from invitations
        where greatest(accepted_at, revoked_at, declined_at, expires_at) < now() - interval '30 days'
          and (accepted_at is not null or revoked_at is not null or declined_at is not null
            or expires_at < now())`,
    ),
    invitationMails: await runStatement(
      em,
      `delete from invitation_mails where sent_at <= now() - interval '1 day'`,
    ),
  };
}
