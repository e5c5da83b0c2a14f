import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

// Changes a person makes to stored submissions from the dashboard. Deleting a submission
// cascades to its files and delivery attempts; the submission_files trigger queues the
// files' objects for the store's sweep (Migration20261126000200FileStorage).

/**
 * Sets the spam verdict by hand; also stamps spam_checked_at, so a spam check still running
 * for the submission does not overwrite it (recordSpamVerdict writes only unchecked rows).
 * Marked spam, it lets go of its unique value on a gated form; marked not spam, it takes
 * `uniqueKey` back, when given (docs/form-limits.md): the unique index refuses it when another
 * submission holds that value now. False when the account has no such submission.
 */
export async function setSpamVerdict(
  em: EntityManager,
  accountId: string,
  submissionId: string,
  reason: string | null,
  uniqueKey: string | null = null,
): Promise<boolean> {
  const changed = await runStatement(
    em,
    `update submissions set is_spam = ?, spam_reason = ?,
        unique_key = case when ? then null else coalesce(?, unique_key) end,
        spam_checked_at = coalesce(spam_checked_at, now()), updated_at = now()
      where id = ? and account_id = ?`,
    [reason !== null, reason, reason !== null, uniqueKey, submissionId, accountId],
  );
  return changed > 0;
}

/** Deletes one submission of the account; false when there was none. */
export async function deleteAccountSubmission(
  em: EntityManager,
  accountId: string,
  submissionId: string,
): Promise<boolean> {
  const deleted = await runStatement(
    em,
    'delete from submissions where id = ? and account_id = ?',
    [submissionId, accountId],
  );
  return deleted > 0;
}

// A sender is the normalized `email` special field (trimmed, lower-cased at ingest), served
// by submissions_sender_email_idx.
const SENDER = `account_id = ? and special_normalized ->> 'email' = ?`;

/** How many submissions of the account (spam or not, every form) came from `email`. */
export async function countSenderSubmissions(
  em: EntityManager,
  accountId: string,
  email: string,
): Promise<number> {
  const [row] = await selectRows<{ total: string }>(
    em,
    `select count(*) as total from submissions where ${SENDER}`,
    [accountId, email],
  );
  return Number(row?.total ?? 0);
}

/** Deletes every submission of the account that came from `email`; returns how many. */
export function deleteSenderSubmissions(
  em: EntityManager,
  accountId: string,
  email: string,
): Promise<number> {
  return runStatement(em, `delete from submissions where ${SENDER}`, [accountId, email]);
}
