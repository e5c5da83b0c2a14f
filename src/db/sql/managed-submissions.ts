import type { EntityManager } from '@mikro-orm/postgresql';
import type { FormField, FormPage, UnknownFieldPolicy } from '../entities/form-fields';
import type { FormLimits } from '../entities/form-limits';
import type { SubmitterAccess } from '../entities/submitter-access';
import { runStatement, selectRows } from './execute';
import { CURRENT_VERSION_OF } from './submission-versions';

// What a submitter's manage link opens (docs/manage-links.md): the submission with its
// form's settings, read in one statement by the submission's id.

export type ManagedSubmissionRow = {
  id: string;
  form_id: string;
  account_id: string;
  payload_json: Record<string, unknown>;
  is_spam: boolean;
  created_at: Date;
  manage_key_hash: string | null;
  /** The hash of the link the autoresponse carried, if one was mailed. */
  mail_key_hash: string | null;
  /** The unique field's key on a gated form (docs/form-limits.md); null otherwise. */
  unique_key: string | null;
  /** The version shown now: 1 until an edit was made current. */
  version: number;
  form_name: string;
  endpoint_token: string;
  is_active: boolean;
  submitter_access: SubmitterAccess;
  edit_until: string | null;
  limits: FormLimits | null;
  fields: FormField[] | null;
  unknown_fields: UnknownFieldPolicy;
  page: FormPage | null;
};

/**
 * The submission `id` and its form, or null when there is none. `forUpdate` locks the
 * submission's row until the transaction ends (an edit or a delete takes turns with another).
 */
export async function selectManagedSubmission(
  em: EntityManager,
  id: string,
  forUpdate = false,
): Promise<ManagedSubmissionRow | null> {
  const [row] = await selectRows<ManagedSubmissionRow>(
    em,
    `select s.id::text, s.form_id::text, s.account_id::text, s.payload_json, s.is_spam,
            s.created_at, s.manage_key_hash, s.mail_key_hash, s.unique_key, ${CURRENT_VERSION_OF('s')} as version,
            f.name as form_name, f.endpoint_token,
            f.is_active, f.submitter_access, f.edit_until, f.limits, f.fields,
            f.unknown_fields, f.page
       from submissions s join forms f on f.id = s.form_id
      where s.id = ?${forUpdate ? ' for no key update of s' : ''}`,
    [id],
  );
  return row ?? null;
}

/** Keeps the hash of the link an autoresponse carries (docs/manage-links.md). */
export async function setMailKeyHash(
  em: EntityManager,
  submissionId: string,
  hash: string,
): Promise<void> {
  await runStatement(em, 'update submissions set mail_key_hash = ? where id = ?', [
    hash,
    submissionId,
  ]);
}
