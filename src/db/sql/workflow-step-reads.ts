import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from './execute';

// What each step of a submission workflow reads, one statement a step: a step runs once per
// submission, so every round trip saved here is saved for every submission.

/** What the spam check reads: the submission, and the burst rule's count when it must judge. */
export type SpamCheckRow = {
  id: string;
  payloadJson: Record<string, unknown>;
  fillMs: number | null;
  isSpam: boolean;
  spamCheckedAt: Date | null;
  /**
   * Submissions to the same form from the same source_ip with the same payload_json (as
   * jsonb, so key order does not matter) stored within `windowMinutes` before this one, this
   * one included; only lower ids count, so the count never changes when more arrive. 0
   * without a source address; null when a verdict is already stored (not counted then).
   */
  identical: number | null;
};

export async function selectSpamCheckRow(
  em: EntityManager,
  submissionId: string,
  windowMinutes: number,
): Promise<SpamCheckRow | null> {
  const [row] = await selectRows<{
    id: string;
    payload_json: Record<string, unknown>;
    fill_ms: number | null;
    is_spam: boolean;
    spam_checked_at: Date | null;
    identical: number | null;
  }>(
    em,
    `select this.id, this.payload_json, this.fill_ms, this.is_spam, this.spam_checked_at,
            case when not this.is_spam and this.spam_checked_at is null then
              -- submissions_burst_idx finds the candidates; the payloads are compared as jsonb
              (select count(*)::int from submissions other
                where other.form_id = this.form_id
                  and other.source_ip = this.source_ip
                  and hashtextextended(other.payload_json::text, 0)
                      = hashtextextended(this.payload_json::text, 0)
                  and other.created_at > this.created_at - make_interval(mins => ?)
                  and other.id <= this.id
                  and other.payload_json = this.payload_json)
            end as identical
       from submissions this where this.id = ?`,
    [windowMinutes, submissionId],
  );
  if (!row) return null;
  return {
    id: String(row.id),
    payloadJson: row.payload_json,
    fillMs: row.fill_ms,
    isSpam: row.is_spam,
    spamCheckedAt: row.spam_checked_at === null ? null : new Date(row.spam_checked_at),
    identical: row.identical,
  };
}

export type PluginTargetRow = {
  id: string;
  pluginType: string;
  enabled: boolean;
  disabledReason: string | null;
  /** Its conditions as stored (src/plugins/manage/conditions.ts); null: every submission. */
  conditions: unknown;
};

/** What planning the deliveries reads (null when the submission is gone). */
export type DeliveryPlanRow = {
  /** The not deleted plugins of the submission's form, enabled or not, by id. */
  plugins: PluginTargetRow[];
  /** Whether the form has notification e-mail addresses. */
  notify: boolean;
  /** Whether the submission is a `?test=true` run's (src/db/sql/submissions.ts, markTestRun). */
  isTest: boolean;
  /** Whether the form has an autoresponse and the submission an `email` (docs/autoresponse.md). */
  autorespond: boolean;
  /** Whether the form deletes a submission once every delivery succeeded (docs/retention.md). */
  deleteAfterDelivery: boolean;
  /** The submitted fields, read only when an enabled plugin has conditions to judge; else null. */
  payload: Record<string, unknown> | null;
};

export async function selectDeliveryPlanRow(
  em: EntityManager,
  submissionId: string,
): Promise<DeliveryPlanRow | null> {
  const [row] = await selectRows<{
    notify: boolean;
    is_test: boolean;
    autorespond: boolean;
    delete_after_delivery: boolean;
    plugins: {
      id: string;
      plugin_type: string;
      enabled: boolean;
      disabled_reason: string | null;
      conditions: unknown;
    }[];
    payload_json: Record<string, unknown> | null;
  }>(
    em,
    `select cardinality(f.notification_email_addresses) > 0 as notify, s.is_test,
            f.autoresponse is not null and (s.special_normalized ->> 'email') is not null as autorespond,
            f.delete_after_delivery,
            coalesce((select json_agg(json_build_object('id', p.id::text,
                        'plugin_type', p.plugin_type, 'enabled', p.enabled,
                        'disabled_reason', p.disabled_reason, 'conditions', p.conditions)
                        order by p.id)
                        from plugins p where p.form_id = s.form_id and p.deleted_at is null),
                     '[]') as plugins,
            case when exists (select 1 from plugins p
                               where p.form_id = s.form_id and p.deleted_at is null
                                 and p.enabled and p.conditions is not null)
                 then s.payload_json end as payload_json
       from submissions s join forms f on f.id = s.form_id
      where s.id = ?`,
    [submissionId],
  );
  if (!row) return null;
  return {
    notify: row.notify,
    isTest: row.is_test,
    autorespond: row.autorespond,
    deleteAfterDelivery: row.delete_after_delivery,
    payload: row.payload_json,
    plugins: row.plugins.map((plugin) => ({
      id: plugin.id,
      pluginType: plugin.plugin_type,
      enabled: plugin.enabled,
      disabledReason: plugin.disabled_reason,
      conditions: plugin.conditions,
    })),
  };
}

/** What a delivery attempt reads: its plugin as it is now, and the submission it sends. */
export type DeliverableRow = {
  plugin: {
    id: string;
    pluginType: string;
    enabled: boolean;
    deleted: boolean;
    config: Record<string, unknown>;
    signingSecret: string | null;
    /** The fields it is sent (src/plugins/manage/include-fields.ts); null: all. */
    includeFields: string[] | null;
    /** No failures counted and a success stamped within the last second (plugin-health.ts). */
    recentlyHealthy: boolean;
  };
  /** The submission's columns and its form's id, account, name and token; null when it is gone. */
  submission: {
    id: string;
    created_at: Date;
    form_id: string;
    account_id: string;
    endpoint_token: string;
    name: string;
    special_normalized: Record<string, unknown> | null;
    source_ip: string | null;
    user_agent: string | null;
    referrer: string | null;
    payload_json: Record<string, unknown>;
  } | null;
};

/** Null when the plugin is gone. */
export async function selectDeliverableRow(
  em: EntityManager,
  pluginId: string,
  submissionId: string,
): Promise<DeliverableRow | null> {
  const [row] = await selectRows<{
    plugin_type: string;
    enabled: boolean;
    deleted: boolean;
    config: Record<string, unknown>;
    signing_secret: string | null;
    include_fields: string[] | null;
    recently_healthy: boolean;
    id: string | null;
    created_at: Date;
    form_id: string;
    account_id: string;
    endpoint_token: string;
    name: string;
    special_normalized: Record<string, unknown> | null;
    source_ip: string | null;
    user_agent: string | null;
    referrer: string | null;
    payload_json: Record<string, unknown>;
  }>(
    em,
    `select p.plugin_type, p.enabled, p.deleted_at is not null as deleted, p.config,
            p.signing_secret, p.include_fields,
            coalesce(p.consecutive_failures = 0 and p.failing_since is null
              and p.last_success_at > now() - interval '1 second', false) as recently_healthy,
            s.id, s.created_at, f.id::text as form_id, f.account_id::text as account_id,
            f.endpoint_token, f.name, s.special_normalized, s.source_ip,
            s.user_agent, s.referrer, s.payload_json
       from plugins p
       left join submissions s on s.id = ?
       left join forms f on f.id = s.form_id
      where p.id = ?`,
    [submissionId, pluginId],
  );
  if (!row) return null;
  const {
    plugin_type,
    enabled,
    deleted,
    config,
    signing_secret,
    include_fields,
    recently_healthy,
    id,
    ...submission
  } = row;
  return {
    plugin: {
      id: pluginId,
      pluginType: plugin_type,
      enabled,
      deleted,
      config,
      signingSecret: signing_secret,
      includeFields: include_fields,
      recentlyHealthy: recently_healthy,
    },
    submission: id === null ? null : { id: String(id), ...submission },
  };
}
