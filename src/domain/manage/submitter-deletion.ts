import type { EntityManager } from '@mikro-orm/postgresql';
import { deleteAccountSubmission } from '../../db/sql/submission-changes';
import { recordAuditEvent } from '../audit/audit-log';
import { openManageLink, type ManagedSubmission } from './managed-submission';

/** Whether the opened link may delete its submission now: its access, window and form. */
export const deleteOpen = (opened: ManagedSubmission) =>
  opened.deletable && opened.withinWindow && opened.row.is_active;

export type DeletionOutcome =
  | { outcome: 'not_found' }
  | { outcome: 'closed' }
  | { outcome: 'deleted'; formId: string; formEndpointToken: string; deletedAt: Date };

/**
 * A submitter deleting their own submission through its manage link (docs/manage-links.md):
 * the operator's path (deleteAccountSubmission: the row with its files, whose objects are
 * queued for the store's sweep, its versions and delivery log), and in the same transaction
 * an audit entry of the form's account naming the submitter as its actor. The link is opened
 * under the row's lock, so its access and window are decided with the delete.
 */
export async function deleteBySubmitter(
  em: EntityManager,
  link: { submissionId: string; secret: string },
  input: { nowMs: number; clientAddress: string | null },
): Promise<DeletionOutcome> {
  return em.transactional(async (tx) => {
    const opened = await openManageLink(tx, link, input.nowMs, { forUpdate: true });
    if (!opened) return { outcome: 'not_found' as const };
    if (!deleteOpen(opened)) return { outcome: 'closed' as const };
    const { row } = opened;
    await deleteAccountSubmission(tx, row.account_id, row.id);
    await recordAuditEvent(tx, {
      accountId: row.account_id,
      actor: { type: 'submitter', label: `submitter of submission ${row.id}` },
      clientAddress: input.clientAddress,
      action: 'submission.deleted',
      targetType: 'submission',
      targetId: row.id,
      summary: `deleted by its submitter through the manage link (form ${row.form_id})`,
    });
    return {
      outcome: 'deleted' as const,
      formId: row.form_id,
      formEndpointToken: row.endpoint_token,
      deletedAt: new Date(input.nowMs),
    };
  });
}
