import type { EntityManager } from '@mikro-orm/postgresql';
import type { FormField } from '../entities/form-fields';
import type { FormLimits } from '../entities/form-limits';
import { runStatement, selectRows } from './execute';

// The statements of a gated form's submissions (docs/form-limits.md). They run in one
// transaction that first locks the form's row: gated posts to one form take turns, so what
// the count and the unique check see is what the insert after them is decided on.

/**
 * Locks the form's row until the transaction ends (FOR NO KEY UPDATE: other gated posts and
 * changes to the form wait; the foreign key checks of inserts do not) and reads its gates
 * as they are now. Null when the form is gone.
 */
export async function lockFormGates(
  em: EntityManager,
  formId: string,
): Promise<{ limits: FormLimits | null; fields: FormField[] | null } | null> {
  const [row] = await selectRows<{ limits: FormLimits | null; fields: FormField[] | null }>(
    em,
    'select limits, fields from forms where id = ? for no key update',
    [formId],
  );
  return row ?? null;
}

/** A form's accepted (non-spam) submissions, stored and purged, each counted up to a bound. */
const ACCEPTED_UP_TO = `(select count(*) from (select 1 from submissions
    where form_id = ? and not is_spam limit ?) s)
  + (select count(*) from (select 1 from purged_submissions
    where form_id = ? and not is_spam limit ?) p)`;

/** How many accepted submissions the form has, counted up to `upTo` (its hosted page asks). */
export async function countAcceptedUpTo(
  em: EntityManager,
  formId: string,
  upTo: number,
): Promise<number> {
  const [row] = await selectRows<{ accepted: string }>(em, `select ${ACCEPTED_UP_TO} as accepted`, [
    formId,
    upTo,
    formId,
    upTo,
  ]);
  return Number(row?.accepted ?? 0);
}

/**
 * What a gated post is decided on, in one statement after the lock: whether an earlier
 * attempt stored this submission already, how many accepted (non-spam) submissions the form
 * has, stored and purged, counted only when `countUpTo` is given and at most that many (by
 * submissions_form_list_idx and purged_submissions_form_idx), and whether `uniqueKey` is
 * taken. Read in READ COMMITTED after the lock: the rows of the gated post before are seen.
 */
export async function readGateFacts(
  em: EntityManager,
  input: {
    submissionId: string;
    formId: string;
    countUpTo: number | null;
    uniqueKey: string | null;
  },
): Promise<{ stored: boolean; accepted: number; taken: boolean }> {
  const count = input.countUpTo === null ? '0' : ACCEPTED_UP_TO;
  const countParams =
    input.countUpTo === null ? [] : [input.formId, input.countUpTo, input.formId, input.countUpTo];
  const [row] = await selectRows<{ stored: boolean; accepted: string; taken: boolean }>(
    em,
    `select exists (select 1 from submissions where id = ?) as stored,
            ${count} as accepted,
            exists (select 1 from submissions
                     where form_id = ? and unique_key = ?) as taken`,
    [input.submissionId, ...countParams, input.formId, input.uniqueKey],
  );
  return {
    stored: row?.stored ?? false,
    accepted: Number(row?.accepted ?? 0),
    taken: row?.taken ?? false,
  };
}

/** Keeps the unique value's key on the stored submission (its unique index decides last). */
export async function setSubmissionUniqueKey(
  em: EntityManager,
  submissionId: string,
  uniqueKey: string,
): Promise<void> {
  await runStatement(em, 'update submissions set unique_key = ? where id = ?', [
    uniqueKey,
    submissionId,
  ]);
}

/** The unique index of a form's unique values refused a second one. */
export const isUniqueValueClash = (error: unknown) =>
  (error as { constraint?: string } | null)?.constraint === 'submissions_unique_key_idx';
