import type { Orm } from '../../db/orm';
import {
  deleteDeliveredSubmission,
  deleteStaleRows,
  purgeExpiredSubmissions,
  type HousekeepingCounts,
  type PurgedCounts,
} from '../../db/sql/retention';

/**
 * A delivered submission younger than this is left to its own workflow's last step; the
 * hourly purge deletes older ones (a re-delivery that succeeded later, a worker that stopped
 * before that step).
 */
export const DELIVERED_SETTLE_MINUTES = 60;

/** One batch of the hourly purge (docs/retention.md); its own transaction. */
export function purgeBatch(
  orm: Orm,
  rules: { spamRetentionDays: number; limit: number },
): Promise<PurgedCounts> {
  return purgeExpiredSubmissions(orm.em.fork(), {
    ...rules,
    deliveredSettleMinutes: DELIVERED_SETTLE_MINUTES,
  });
}

/** The per-client cap of the autoresponse counts its sends of the last hour. */
const AUTORESPONSE_CLIENT_WINDOW_MS = 3_600_000;

/**
 * The rows of recipient_requests, account_mail_hours, purged_delivery_attempts,
 * autoresponse_sends, invitations and invitation_mails no rule reads any more.
 */
export function purgeStale(
  orm: Orm,
  rules: { autoresponseIntervalMs: number },
): Promise<HousekeepingCounts> {
  const keepMs = Math.max(rules.autoresponseIntervalMs, AUTORESPONSE_CLIENT_WINDOW_MS);
  return deleteStaleRows(orm.em.fork(), keepMs);
}

/**
 * `delete_after_delivery`: deletes the submission when its form asks for it and every delivery
 * of it succeeded; true when it was deleted.
 */
export function deleteIfDelivered(orm: Orm, submissionId: string): Promise<boolean> {
  return deleteDeliveredSubmission(orm.em.fork(), submissionId);
}
