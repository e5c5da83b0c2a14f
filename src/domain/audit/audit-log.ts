import type { EntityManager } from '@mikro-orm/postgresql';
import {
  deleteAuditEventsOlderThan,
  insertAuditEvent,
  selectAuditEvents,
  type AuditEventRow,
  type AuditFilters,
} from '../../db/sql/audit-events';
import type { Orm } from '../../db/orm';
import type { Principal } from '../accounts/principal';

/*
 * The audit log (docs/audit-log.md). recordAuditEvent is the only function that writes an
 * entry: registerRoutes and registerPages call it for every declared change that succeeded,
 * and the CLI for the operator's. Summaries are short words of ours, never submission values
 * or secrets.
 */

export type AuditActor =
  | { type: 'user'; userId: string; label?: string }
  | { type: 'api_key'; apiKeyId: string }
  | { type: 'operator'; label: string }
  /** Who sent a submission, acting through its manage link (docs/manage-links.md). */
  | { type: 'submitter'; label: string };

export type AuditEntry = {
  accountId: string;
  actor: AuditActor;
  clientAddress: string | null;
  /** Dotted, lower case: `form.created`, `webhook.secret_rotated`. */
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  summary?: string;
};

export const AUDIT_ACTION = /^[a-z_]+(\.[a-z_]+)+$/;
const SUMMARY_MAX = 500;

/** Writes one entry, on `em` (inside its transaction when it is one). */
export async function recordAuditEvent(em: EntityManager, entry: AuditEntry): Promise<void> {
  if (!AUDIT_ACTION.test(entry.action)) throw new Error(`not an audit action: ${entry.action}`);
  const { actor } = entry;
  await insertAuditEvent(em, {
    accountId: entry.accountId,
    actorType: actor.type,
    actorUserId: actor.type === 'user' ? actor.userId : null,
    actorApiKeyId: actor.type === 'api_key' ? actor.apiKeyId : null,
    actorLabel: actor.type === 'api_key' ? null : (actor.label ?? null),
    clientAddress: entry.clientAddress,
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    summary: (entry.summary ?? '').slice(0, SUMMARY_MAX),
  });
}

/** The actor behind an API request: the session's user or the key. */
export function actorOfPrincipal(principal: Principal): AuditActor {
  return principal.kind === 'session'
    ? { type: 'user', userId: principal.userId }
    : { type: 'api_key', apiKeyId: principal.apiKeyId };
}

export type { AuditEventRow, AuditFilters };

/** One page of the account's entries, newest first. */
export function listAuditEvents(
  em: EntityManager,
  accountId: string,
  filters: AuditFilters,
  page: { page: number; perPage: number },
) {
  return selectAuditEvents(em, accountId, filters, {
    limit: page.perPage,
    offset: (page.page - 1) * page.perPage,
  });
}

/** Entries one retention batch deletes at most. */
export const AUDIT_PURGE_BATCH = 5000;

/** Deletes entries older than `days`, in batches of their own transaction; how many went. */
export async function purgeOldAuditEvents(orm: Orm, days: number): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteAuditEventsOlderThan(orm.em.fork(), days, AUDIT_PURGE_BATCH);
    total += deleted;
    if (deleted < AUDIT_PURGE_BATCH) return total;
  }
}
