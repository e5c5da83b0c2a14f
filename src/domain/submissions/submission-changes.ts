import type { EntityManager } from '@mikro-orm/postgresql';
import {
  countSenderSubmissions,
  deleteAccountSubmission,
  deleteSenderSubmissions,
  setSpamVerdict,
} from '../../db/sql/submission-changes';

/** The spam_reason of a submission a person marked as spam. */
export const MARKED_SPAM_REASON = 'marked_by_hand';

const isSubmissionId = (id: string) => /^\d{1,18}$/.test(id);

/**
 * Marks a submission of the account as spam or not. Nothing is delivered or withdrawn: a
 * submission marked not spam is delivered only when someone replays it (docs/dashboard.md).
 * False when the account has no such submission.
 */
export function markSubmissionSpam(
  em: EntityManager,
  accountId: string,
  submissionId: string,
  spam: boolean,
): Promise<boolean> {
  if (!isSubmissionId(submissionId)) return Promise.resolve(false);
  return setSpamVerdict(em, accountId, submissionId, spam ? MARKED_SPAM_REASON : null);
}

/** Deletes a submission of the account with its files and delivery log; false when none. */
export function deleteSubmission(
  em: EntityManager,
  accountId: string,
  submissionId: string,
): Promise<boolean> {
  if (!isSubmissionId(submissionId)) return Promise.resolve(false);
  return deleteAccountSubmission(em, accountId, submissionId);
}

/** An address as ingest stores it in special_normalized.email (trimmed, lower-cased). */
export const senderKey = (email: string): string => email.trim().toLowerCase();

/** How many of the account's submissions (every form, spam too) came from `email`. */
export function countSenderErasure(
  em: EntityManager,
  accountId: string,
  email: string,
): Promise<number> {
  return countSenderSubmissions(em, accountId, senderKey(email));
}

/**
 * Erasure (GDPR): deletes every submission of the account from `email`, with their files
 * (the stored objects are queued for the file store's sweep) and delivery logs. An
 * unsubscribe is kept: it is the address's own wish not to be mailed; so is the ledger of
 * autoresponses the caps count, which holds a keyed hash of the address, not the address
 * (docs/autoresponse.md, "What is kept"): erasing must not reset the caps.
 */
export async function eraseSender(
  em: EntityManager,
  accountId: string,
  email: string,
): Promise<number> {
  return deleteSenderSubmissions(em, accountId, senderKey(email));
}
