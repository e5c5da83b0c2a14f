import type { EntityManager } from '@mikro-orm/postgresql';
import { Form, SubmissionFile } from '../../db/entities';
import { findAccountSubmissionRow } from '../../db/sql/submissions';
import { checkFormRules, type SubmissionProblem } from './form-rules';
import {
  countSenderSubmissions,
  deleteAccountSubmission,
  deleteSenderSubmissions,
  setSpamVerdict,
} from '../../db/sql/submission-changes';

/** The spam_reason of a submission a person marked as spam. */
export const MARKED_SPAM_REASON = 'marked_by_hand';

const isSubmissionId = (id: string) => /^\d{1,18}$/.test(id);

/** What became of a spam verdict by hand. */
export type SpamMarking =
  | { outcome: 'changed' }
  | { outcome: 'not_found' }
  /** Marked not spam, but its values break the form's current rules: left as spam. */
  | { outcome: 'breaks_rules'; problem: SubmissionProblem };

/**
 * Marks a submission of the account as spam or not. Nothing is delivered or withdrawn: a
 * submission marked not spam is delivered only when someone replays it (docs/dashboard.md).
 * A spam submission is marked not spam only when its stored values keep the form's current
 * rules (the field list and the e-mail check, as at ingest), since a filled honeypot is
 * stored whatever it holds; otherwise it stays spam and the problems come back.
 */
export async function markSubmissionSpam(
  em: EntityManager,
  accountId: string,
  submissionId: string,
  spam: boolean,
): Promise<SpamMarking> {
  if (!isSubmissionId(submissionId)) return { outcome: 'not_found' };
  if (!spam) {
    const row = await findAccountSubmissionRow(em, accountId, submissionId);
    if (!row) return { outcome: 'not_found' };
    if (row.is_spam) {
      const problem = await breaksFormRules(em, row.form_id, submissionId, row.payload_json);
      if (problem) return { outcome: 'breaks_rules', problem };
    }
  }
  const changed = await setSpamVerdict(
    em,
    accountId,
    submissionId,
    spam ? MARKED_SPAM_REASON : null,
  );
  return { outcome: changed ? 'changed' : 'not_found' };
}

/** The problems of a stored payload (and its files) under its form's current rules, or null. */
async function breaksFormRules(
  em: EntityManager,
  formId: string,
  submissionId: string,
  payload: Record<string, unknown>,
): Promise<SubmissionProblem | null> {
  const form = await em.findOne(Form, { id: formId }, { fields: ['fields', 'unknownFields'] });
  const rules = form?.fields ? { fields: form.fields, unknownFields: form.unknownFields } : null;
  const files = rules
    ? await em.find(
        SubmissionFile,
        { submissionId },
        { fields: ['fieldName', 'filename', 'contentType'] },
      )
    : [];
  const checked = checkFormRules(rules, payload, files);
  return checked.ok ? null : checked.problem;
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
