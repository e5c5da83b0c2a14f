import type { EntityManager } from '@mikro-orm/postgresql';
import { Form, SubmissionFile } from '../../db/entities';
import { findAccountSubmissionRow } from '../../db/sql/submissions';
import { checkFormRules, type SubmissionProblem } from './form-rules';
import { isUniqueValueClash } from '../../db/sql/submission-gates';
import { uniqueKeyOf, uniqueValueOf } from '../forms/form-limits';
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
 * stored whatever it holds, and its unique value (on a gated form) is not held by another
 * accepted submission; otherwise it stays spam and the problems come back.
 */
export async function markSubmissionSpam(
  em: EntityManager,
  accountId: string,
  submissionId: string,
  spam: boolean,
): Promise<SpamMarking> {
  if (!isSubmissionId(submissionId)) return { outcome: 'not_found' };
  let uniqueKey: string | null = null;
  let uniqueField: string | null = null;
  if (!spam) {
    const row = await findAccountSubmissionRow(em, accountId, submissionId);
    if (!row) return { outcome: 'not_found' };
    if (row.is_spam) {
      const rules = await formRulesOf(em, row.form_id, submissionId, row.payload_json);
      if (rules.problem) return { outcome: 'breaks_rules', problem: rules.problem };
      uniqueKey = rules.uniqueKey;
      uniqueField = rules.uniqueField;
    }
  }
  const reason = spam ? MARKED_SPAM_REASON : null;
  try {
    const changed = await setSpamVerdict(em, accountId, submissionId, reason, uniqueKey);
    return { outcome: changed ? 'changed' : 'not_found' };
  } catch (error) {
    // Back from spam, it takes its unique value again: not when another one holds it now.
    if (!isUniqueValueClash(error)) throw error;
    const message = `${uniqueField}: another accepted submission has this value, and the form takes one submission per value (its limits)`;
    return { outcome: 'breaks_rules', problem: { kind: 'invalid', errors: [message] } };
  }
}

/**
 * A stored payload (and its files) under its form's current rules: its problems, or none and
 * the key of its unique value when the form's limits name a unique field.
 */
async function formRulesOf(
  em: EntityManager,
  formId: string,
  submissionId: string,
  payload: Record<string, unknown>,
): Promise<{
  problem: SubmissionProblem | null;
  uniqueKey: string | null;
  uniqueField: string | null;
}> {
  const form = await em.findOne(
    Form,
    { id: formId },
    { fields: ['fields', 'unknownFields', 'limits'] },
  );
  const rules = form?.fields ? { fields: form.fields, unknownFields: form.unknownFields } : null;
  const files = rules
    ? await em.find(
        SubmissionFile,
        { submissionId },
        { fields: ['fieldName', 'filename', 'contentType'] },
      )
    : [];
  const checked = checkFormRules(rules, payload, files);
  if (!checked.ok) return { problem: checked.problem, uniqueKey: null, uniqueField: null };
  const value = uniqueValueOf(form?.limits, form?.fields, checked.payload);
  const field = form?.limits?.unique_field ?? null;
  return {
    problem: null,
    uniqueKey: value === null || field === null ? null : uniqueKeyOf(field, value),
    uniqueField: field,
  };
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
