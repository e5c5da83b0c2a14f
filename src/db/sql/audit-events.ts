import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

// The audit log's statements (docs/audit-log.md). Only src/domain/audit calls them.

export type AuditRow = {
  accountId: string;
  actorType: 'user' | 'api_key' | 'operator' | 'submitter';
  actorUserId: string | null;
  actorApiKeyId: string | null;
  /** Null: read from the user's e-mail or the key's name and prefix, as they are now. */
  actorLabel: string | null;
  clientAddress: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  summary: string;
};

/** Inserts one entry; the actor's label is looked up in the same statement when not given. */
export async function insertAuditEvent(em: EntityManager, row: AuditRow): Promise<void> {
  await runStatement(
    em,
    `insert into audit_events (account_id, actor_type, actor_user_id, actor_api_key_id,
       actor_label, client_address, action, target_type, target_id, summary)
     values (?, ?, ?, ?,
       coalesce(?::text,
         (select email from users where id = ?::bigint),
         (select name || ' (' || prefix || '…)' from api_keys where id = ?::bigint),
         ?::text),
       ?, ?, ?, ?, ?)`,
    [
      row.accountId,
      row.actorType,
      row.actorUserId,
      row.actorApiKeyId,
      row.actorLabel,
      row.actorUserId,
      row.actorApiKeyId,
      row.actorType,
      row.clientAddress,
      row.action,
      row.targetType,
      row.targetId,
      row.summary,
    ],
  );
}

export type AuditFilters = {
  action?: string;
  /** A user id or an API key id. */
  actor?: string;
  targetType?: string;
  targetId?: string;
  since?: Date;
  until?: Date;
};

export type AuditEventRow = {
  id: string;
  occurred_at: Date;
  actor_type: 'user' | 'api_key' | 'operator' | 'submitter';
  actor_user_id: string | null;
  actor_api_key_id: string | null;
  actor_label: string;
  client_address: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  summary: string;
};

function whereOf(accountId: string, f: AuditFilters): { sql: string; params: unknown[] } {
  const parts = ['account_id = ?'];
  const params: unknown[] = [accountId];
  const add = (sql: string, ...values: unknown[]) => {
    parts.push(sql);
    params.push(...values);
  };
  if (f.action !== undefined) add('action = ?', f.action);
  if (f.actor !== undefined)
    add('(actor_user_id = ?::bigint or actor_api_key_id = ?::bigint)', f.actor, f.actor);
  if (f.targetType !== undefined) add('target_type = ?', f.targetType);
  if (f.targetId !== undefined) add('target_id = ?', f.targetId);
  if (f.since !== undefined) add('occurred_at >= ?', f.since);
  if (f.until !== undefined) add('occurred_at < ?', f.until);
  return { sql: parts.join(' and '), params };
}

/** One page of an account's entries, newest first, and how many match in all. */
export async function selectAuditEvents(
  em: EntityManager,
  accountId: string,
  filters: AuditFilters,
  page: { limit: number; offset: number },
): Promise<{ rows: AuditEventRow[]; total: number }> {
  const where = whereOf(accountId, filters);
  const rows = await selectRows<AuditEventRow>(
    em,
    `select id::text, occurred_at, actor_type, actor_user_id::text, actor_api_key_id::text,
            actor_label, client_address, action, target_type, target_id, summary
       from audit_events where ${where.sql}
      order by occurred_at desc, id desc limit ? offset ?`,
    [...where.params, page.limit, page.offset],
  );
  const [count] = await selectRows<{ n: string }>(
    em,
    `select count(*)::text as n from audit_events where ${where.sql}`,
    where.params,
  );
  return { rows, total: Number(count?.n ?? 0) };
}

/** Deletes at most `limit` entries older than `days` days; the number deleted. */
export function deleteAuditEventsOlderThan(
  em: EntityManager,
  days: number,
  limit: number,
): Promise<number> {
  return runStatement(
    em,
    `delete from audit_events where id = any(array(
       select id from audit_events where occurred_at < now() - make_interval(days => ?::int)
        limit ?))`,
    [days, limit],
  );
}
