import type { EntityManager } from '@mikro-orm/postgresql';
import {
  selectManagedSubmission,
  type ManagedSubmissionRow,
} from '../../db/sql/managed-submissions';
import { editDeadline } from './edit-window';
import { parseManageLink, secretMatches } from './manage-secret';
import { mayDelete, mayEdit } from './submitter-access';

export type { ManagedSubmissionRow } from '../../db/sql/managed-submissions';

/** A submission its manage link opened, and what the link may do with it now. */
export type ManagedSubmission = {
  row: ManagedSubmissionRow;
  /** Until when it may be edited or deleted; null: no end (docs/manage-links.md). */
  deadline: Date | null;
  /** The form lets its submitters edit (the window aside). */
  editable: boolean;
  /** The form lets its submitters delete (the window aside). */
  deletable: boolean;
  /** Inside the window now: `editable` and `deletable` apply. */
  withinWindow: boolean;
};

/**
 * The submission a manage link opens, or null: a link of the wrong shape, no such
 * submission, a wrong secret, a spam submission, or a form whose `submitter_access` is
 * `none`. All of these are one answer (404) to the caller. The secret's hash is compared in
 * constant time, and a link of the right shape always costs the same one read.
 */
export async function openManageLink(
  em: EntityManager,
  link: { submissionId: string; secret: string },
  nowMs: number,
  /** `evenSpam`: a spam submission opens too (the thank-you page shows its link like any). */
  options: { forUpdate?: boolean; evenSpam?: boolean } = {},
): Promise<ManagedSubmission | null> {
  const parsed = parseManageLink(link.submissionId, link.secret);
  if (!parsed) return null;
  const row = await selectManagedSubmission(em, parsed.submissionId, options.forUpdate);
  // Both secrets are compared every time: which one opened it takes no longer to find.
  const byAnswer = secretMatches(row?.manage_key_hash ?? null, parsed.secret);
  const byMail = secretMatches(row?.mail_key_hash ?? null, parsed.secret);
  const matches = byAnswer || byMail;
  if (!row || !matches || row.submitter_access === 'none') return null;
  if (row.is_spam && !options.evenSpam) return null;
  const deadline = editDeadline(
    new Date(row.created_at),
    row.edit_until,
    row.limits?.closes_at ?? null,
  );
  return {
    row,
    deadline,
    editable: mayEdit(row.submitter_access),
    deletable: mayDelete(row.submitter_access),
    withinWindow: deadline === null || nowMs < deadline.getTime(),
  };
}
