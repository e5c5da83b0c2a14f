import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

/** A delivery succeeded: the run of failures is over. */
export async function recordPluginSuccess(em: EntityManager, pluginId: string): Promise<void> {
  await runStatement(
    em,
    // Every success would otherwise rewrite (and lock) the plugin's row: a healthy plugin
    // stamped within the last second is left as it is.
    `update plugins set consecutive_failures = 0, failing_since = null, last_success_at = now()
      where id = ? and (consecutive_failures <> 0 or failing_since is not null
        or last_success_at is null or last_success_at < now() - interval '1 second')`,
    [pluginId],
  );
}

/** What one exhausted delivery did to its plugin; `disabledNow` only on the transition. */
export type PluginFailureRow = {
  consecutiveFailures: number;
  disabledNow: boolean;
  disabledReason: string | null;
};

/**
 * Counts one exhausted delivery and disables the plugin when the count reaches `threshold`
 * and the failures span at least `spanMs`. One statement: the row lock makes concurrent
 * deliveries of other submissions count one after the other, and `was_enabled` (read under
 * that lock) tells exactly one of them that it made the transition.
 */
export async function recordPluginFailure(
  em: EntityManager,
  pluginId: string,
  rule: { threshold: number; spanMs: number },
): Promise<PluginFailureRow | null> {
  const reached = `p.consecutive_failures + 1 >= ?
    and now() - coalesce(p.failing_since, now()) >= ?::double precision * interval '1 millisecond'`;
  const [row] = await selectRows<{
    was_enabled: boolean;
    enabled: boolean;
    consecutive_failures: number;
    disabled_reason: string | null;
  }>(
    em,
    `with locked as (select id, enabled from plugins where id = ? and deleted_at is null for update)
     update plugins p set
       consecutive_failures = p.consecutive_failures + 1,
       failing_since = coalesce(p.failing_since, now()),
       enabled = p.enabled and not (${reached}),
       disabled_reason = case when p.enabled and ${reached}
         then format('%s consecutive deliveries failed since %s', p.consecutive_failures + 1,
                     to_char(coalesce(p.failing_since, now()) at time zone 'UTC', 'YYYY-MM-DD HH24:MI "UTC"'))
         else p.disabled_reason end,
       disabled_at = case when p.enabled and ${reached} then now() else p.disabled_at end
       from locked where p.id = locked.id
     returning locked.enabled as was_enabled, p.enabled, p.consecutive_failures, p.disabled_reason`,
    [pluginId, ...Array<unknown>(3).fill([rule.threshold, rule.spanMs]).flat()],
  );
  if (!row) return null;
  return {
    consecutiveFailures: Number(row.consecutive_failures),
    disabledNow: row.was_enabled && !row.enabled,
    disabledReason: row.disabled_reason,
  };
}

/** Where to tell an account that one of its plugins was disabled: the account's owner. */
export type PluginOwnerRow = {
  email: string;
  form_id: string;
  form_name: string;
  plugin_name: string;
  plugin_type: string;
};

export async function findPluginOwner(
  em: EntityManager,
  pluginId: string,
): Promise<PluginOwnerRow | null> {
  const [row] = await selectRows<PluginOwnerRow>(
    em,
    `select u.email, f.id::text as form_id, f.name as form_name, p.name as plugin_name, p.plugin_type
       from plugins p join forms f on f.id = p.form_id
       join memberships m on m.account_id = f.account_id and m.role = 'owner'
       join users u on u.id = m.user_id
      where p.id = ?`,
    [pluginId],
  );
  return row ?? null;
}
