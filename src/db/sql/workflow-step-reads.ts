import type { EntityManager } from '@mikro-orm/postgresql';
import type { SubmitterAccess } from '../entities/submitter-access';
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
  /** The submission's uploads, when asked for (`files`); else null. */
  files: StoredFileRow[] | null;
  /** The names of the form's field list (null: free-form), when asked for; else undefined. */
  formFieldNames?: string[] | null;
};

/** An upload as a mail lists it: its metadata, never its bytes. */
export type StoredFileRow = {
  id: string;
  fieldName: string;
  filename: string;
  contentType: string;
  size: number;
};

/** What a type's attempt reads besides the plugin and the submission, in the same statement. */
export type DeliverableExtras = { files?: boolean; formFieldNames?: boolean };

// The submission's uploads (metadata only) as JSON, in upload order; `s` is the submission.
const FILES_OF_SUBMISSION = `coalesce((select json_agg(json_build_object('id', sf.id::text,
    'fieldName', sf.field_name, 'filename', sf.filename, 'contentType', sf.content_type,
    'size', sf.size) order by sf.id)
    from submission_files sf where sf.submission_id = s.id), '[]')`;

/** Null when the plugin is gone. */
export async function selectDeliverableRow(
  em: EntityManager,
  pluginId: string,
  submissionId: string,
  extras: DeliverableExtras = {},
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
    files: StoredFileRow[] | null;
    form_field_names: string[] | null;
  }>(
    em,
    `select p.plugin_type, p.enabled, p.deleted_at is not null as deleted, p.config,
            p.signing_secret, p.include_fields,
            coalesce(p.consecutive_failures = 0 and p.failing_since is null
              and p.last_success_at > now() - interval '1 second', false) as recently_healthy,
            s.id, s.created_at, f.id::text as form_id, f.account_id::text as account_id,
            f.endpoint_token, f.name, s.special_normalized, s.source_ip,
            s.user_agent, s.referrer, s.payload_json,
            case when ?::boolean and s.id is not null then ${FILES_OF_SUBMISSION} end as files,
            case when ?::boolean and f.fields is not null then
              coalesce((select jsonb_agg(field ->> 'name')
                          from jsonb_array_elements(f.fields) field), '[]'::jsonb)
            end as form_field_names
       from plugins p
       left join submissions s on s.id = ?
       left join forms f on f.id = s.form_id
      where p.id = ?`,
    [extras.files === true, extras.formFieldNames === true, submissionId, pluginId],
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
    files,
    form_field_names,
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
    files,
    ...(extras.formFieldNames && { formFieldNames: form_field_names }),
  };
}

/** What a mail to people about a submission reads of it and its form. */
type MailedSubmission = {
  id: string;
  createdAt: Date;
  isSpam: boolean;
  sourceIp: string | null;
  payloadJson: Record<string, unknown>;
  specialNormalized: { email?: string; name?: string; message?: string } | null;
};

/** What the autoresponse reads: the submission and its form (null when it is gone). */
export type AutoresponseRow = {
  submission: MailedSubmission;
  form: {
    id: string;
    accountId: string;
    name: string;
    autoresponse: AutoresponseSettings | null;
    /** Whether the mail carries a manage link (docs/manage-links.md). */
    submitterAccess: SubmitterAccess;
  } | null;
};

/** The form's autoresponse as stored (docs/autoresponse.md). */
type AutoresponseSettings = { subject: string; body: string; reply_to: string | null };

/** What the notification e-mail reads: the submission, its form and its uploads. */
export type NotificationRow = {
  submission: MailedSubmission;
  form: {
    id: string;
    accountId: string;
    name: string;
    notificationEmailAddresses: string[];
  } | null;
  files: StoredFileRow[];
};

type MailedRow = {
  id: string;
  created_at: Date;
  is_spam: boolean;
  source_ip: string | null;
  payload_json: Record<string, unknown>;
  special_normalized: MailedSubmission['specialNormalized'];
  form_id: string | null;
  account_id: string;
  name: string;
};

const MAILED_COLUMNS = `s.id, s.created_at, s.is_spam, s.source_ip, s.payload_json,
  s.special_normalized, f.id::text as form_id, f.account_id::text as account_id, f.name`;

const mailedSubmission = (row: MailedRow): MailedSubmission => ({
  id: String(row.id),
  createdAt: new Date(row.created_at),
  isSpam: row.is_spam,
  sourceIp: row.source_ip,
  payloadJson: row.payload_json,
  specialNormalized: row.special_normalized,
});

/** The form of a mailed submission, with what the step needs of it; null when it is gone. */
function mailedForm<T extends object>(row: MailedRow, more: T) {
  if (row.form_id === null) return null;
  return { id: row.form_id, accountId: row.account_id, name: row.name, ...more };
}

export async function selectAutoresponseRow(
  em: EntityManager,
  submissionId: string,
): Promise<AutoresponseRow | null> {
  const [row] = await selectRows<
    MailedRow & { autoresponse: AutoresponseSettings | null; submitter_access: SubmitterAccess }
  >(
    em,
    `select ${MAILED_COLUMNS}, f.autoresponse, f.submitter_access
       from submissions s left join forms f on f.id = s.form_id
      where s.id = ?`,
    [submissionId],
  );
  if (!row) return null;
  return {
    submission: mailedSubmission(row),
    form: mailedForm(row, {
      autoresponse: row.autoresponse,
      submitterAccess: row.submitter_access,
    }),
  };
}

export async function selectNotificationRow(
  em: EntityManager,
  submissionId: string,
): Promise<NotificationRow | null> {
  const [row] = await selectRows<
    MailedRow & { notification_email_addresses: string[]; files: StoredFileRow[] }
  >(
    em,
    `select ${MAILED_COLUMNS}, f.notification_email_addresses, ${FILES_OF_SUBMISSION} as files
       from submissions s left join forms f on f.id = s.form_id
      where s.id = ?`,
    [submissionId],
  );
  if (!row) return null;
  return {
    submission: mailedSubmission(row),
    form: mailedForm(row, { notificationEmailAddresses: row.notification_email_addresses }),
    files: row.files,
  };
}

/**
 * The enabled, not deleted plugins of `types` of a form, for the delivery of a submitter's
 * delete (docs/manage-links.md): the submission's row is gone, so the form is named by id.
 */
export async function selectDeletionTargets(
  em: EntityManager,
  formId: string,
  types: readonly string[],
): Promise<Array<{ id: string; pluginType: string }>> {
  const rows = await selectRows<{ id: string; plugin_type: string }>(
    em,
    `select id::text, plugin_type from plugins
      where form_id = ? and enabled and deleted_at is null and plugin_type = any(?::text[])
      order by id`,
    [formId, `{${types.join(',')}}`],
  );
  return rows.map((row) => ({ id: row.id, pluginType: row.plugin_type }));
}
