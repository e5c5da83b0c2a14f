import type { EntityManager } from '@mikro-orm/postgresql';
import type { FormField } from '../../db/entities/form-fields';
import type { SpecialFields } from '../../db/entities/submission';
import { isUniqueValueClash } from '../../db/sql/submission-gates';
import {
  countVersions,
  insertEditedVersion,
  updateUniqueKey,
} from '../../db/sql/submission-versions';
import { uniqueKeyOf, uniqueValueOf } from '../forms/form-limits';
import {
  checkSubmission,
  prepareSubmission,
  type RequestFacts,
  type SubmissionProblem,
} from '../submissions/prepare-submission';
import { AlreadySubmittedError } from '../submissions/submission-gate';
import { openManageLink, type ManagedSubmission } from './managed-submission';
import { contentSpamReason } from '../spam/rules';
import { submittedText } from '../spam/submitted-text';

/** Why a manage link may not change its submission now (403 `edit_closed`). */
export class EditClosedError extends Error {
  override name = 'EditClosedError';
}

/** Whether the opened link may change its submission now: its access, window and form. */
export const editOpen = (opened: ManagedSubmission) =>
  opened.editable && opened.withinWindow && opened.row.is_active;

/** A file entry as ingest stores it in the payload (store-submission.ts, addFileEntry). */
const isFileEntry = (value: unknown): boolean => {
  const entries = Array.isArray(value) ? value : [value];
  return (
    entries.length > 0 &&
    entries.every(
      (entry) =>
        typeof entry === 'object' && entry !== null && 'url' in entry && 'filename' in entry,
    )
  );
};

/** The fields an edit takes: the form's, without file fields (files cannot be changed). */
export const editableFields = (fields: FormField[] | null): FormField[] | null =>
  fields && fields.filter((field) => field.type !== 'file');

/** An edit that passed the rules, with its spam verdict (null: not spam). */
export type CheckedEdit = {
  payload: Record<string, unknown>;
  special: SpecialFields | null;
  spamReason: string | null;
};

/**
 * An edit's fields through ingest's own rules (checkSubmission: the payload limits, the
 * form's fields and unknown-field policy, the e-mail check), with the spam rules that run at
 * ingest (a filled honeypot) and the workflow's content rules (links, phrases, markup). File fields are left out and the stored files kept. There is
 * no CAPTCHA on an edit: the secret link is the proof, and its requests are rate-limited.
 */
export function checkEdit(
  opened: ManagedSubmission,
  fields: Record<string, unknown>,
  request: RequestFacts,
  limits: 'check' | 'checked-while-reading',
): { ok: true; edit: CheckedEdit } | { ok: false; problem: SubmissionProblem } {
  const { row } = opened;
  const ruled = editableFields(row.fields);
  const checked = checkSubmission({
    form: { id: row.form_id, accountId: row.account_id },
    fields,
    files: [],
    request,
    limits,
    rules: ruled ? { fields: ruled, unknownFields: row.unknown_fields } : null,
  });
  if (!checked.ok) return checked;
  const prepared = prepareSubmission({ ...checked.submission, captcha: 'none' });
  const payload = { ...prepared.payload };
  for (const [name, value] of Object.entries(row.payload_json)) {
    // Stored files stay under their field name: an edit cannot change them.
    if (isFileEntry(value)) payload[name] = value;
    // A free-form form's values that are not text (lists, objects) have no input on the
    // edit page: they stay unless the edit sends that name.
    else if (!ruled && typeof value === 'object' && value !== null && !(name in payload))
      payload[name] = value;
  }
  // The content rules the workflow applies to a new submission (links, phrases, markup) are
  // applied here, since an edit is not spam-checked again: a clean submission cannot become
  // spam through its link. Fill time and bursts have no meaning for an edit.
  const spamReason =
    prepared.spamReason ??
    contentSpamReason({ texts: submittedText(payload, String(row.id)), fillMs: null });
  return { ok: true, edit: { payload, special: prepared.special, spamReason } };
}

export type EditOutcome =
  | { outcome: 'not_found' }
  | { outcome: 'closed' }
  /** The submission has `max` versions already (MAX_SUBMISSION_VERSIONS). */
  | { outcome: 'limit'; max: number }
  | { outcome: 'saved'; version: number; spam: boolean };

/**
 * Stores a checked edit as the submission's next version (docs/manage-links.md), in one
 * transaction under the submission's row lock, the link opened again there so that what is
 * decided holds: the secret, the access and its window. Not spam, the version becomes
 * current (the payload the dashboard, API and exports show); judged spam, it is kept as a
 * `spam` version and the earlier one stays current. On a form with a unique field, a changed
 * value must be free: AlreadySubmittedError when another submission holds it. Past
 * `maxVersions` (spam ones count: a honeypot cannot fill the table), `limit`.
 */
export async function saveEdit(
  em: EntityManager,
  link: { submissionId: string; secret: string },
  edit: CheckedEdit,
  nowMs: number,
  /** MAX_SUBMISSION_VERSIONS: the versions it may have, the first and spam ones included; 0: any. */
  maxVersions = 0,
): Promise<EditOutcome> {
  return em.transactional(async (tx) => {
    const opened = await openManageLink(tx, link, nowMs, { forUpdate: true });
    if (!opened) return { outcome: 'not_found' as const };
    if (!editOpen(opened)) return { outcome: 'closed' as const };
    // Under the row's lock: two edits at once cannot both take the last place. Version 1 is
    // written with the first edit, so a first edit needs two places.
    if (maxVersions > 0) {
      const stored = await countVersions(tx, opened.row.id);
      if (Math.max(stored, 1) + 1 > maxVersions)
        return { outcome: 'limit' as const, max: maxVersions };
    }
    const spam = edit.spamReason !== null;
    if (!spam) await keepUniqueValue(tx, opened, edit.payload);
    const version = await insertEditedVersion(tx, {
      submissionId: opened.row.id,
      payload: edit.payload,
      special: edit.special,
      status: spam ? 'spam' : 'current',
      spamReason: edit.spamReason,
    });
    return { outcome: 'saved' as const, version, spam };
  });
}

/**
 * On a form with `limits.unique_field` (docs/form-limits.md): the edited value's key replaces
 * the stored one, and the unique index refuses a value another submission holds.
 */
async function keepUniqueValue(
  tx: EntityManager,
  opened: ManagedSubmission,
  payload: Record<string, unknown>,
): Promise<void> {
  const { limits, fields } = opened.row;
  if (!limits?.unique_field) return;
  const value = uniqueValueOf(limits, fields, payload);
  const key = value === null ? null : uniqueKeyOf(limits.unique_field, value);
  if (key === opened.row.unique_key) return;
  await updateUniqueKey(tx, opened.row.id, key).catch((error: unknown) => {
    if (isUniqueValueClash(error)) throw new AlreadySubmittedError(limits.unique_field!);
    throw error;
  });
}
