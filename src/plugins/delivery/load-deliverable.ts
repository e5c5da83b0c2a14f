import { ApplicationFailure } from '@temporalio/common';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  selectDeliverableRow,
  type DeliverableExtras,
  type DeliverableRow,
  type StoredFileRow,
} from '../../db/sql/workflow-step-reads';
import type { SpecialFields } from '../../db/entities/submission';
import type { WebhookSource } from '../webhook/webhook-body';
import type { DeliverableSubmission } from './attempt';
import { pickFields } from '../manage/include-fields';
import type { DeletedSubmission, DeliveryInput } from '../../../workflows/submission-contract';
import { PLUGIN_UNAVAILABLE } from '../../../workflows/failure-types';

// An attempt's first step (src/plugins/deliveries.ts): what it delivers, read now.

/**
 * The plugin, if it is still there, enabled and of the expected type, and the submission with
 * its form (one statement, the attempt's only read of them, with what `extras` asks for: the
 * uploads, the form's field names); otherwise the delivery stops without retry
 * (PLUGIN_UNAVAILABLE). The payload holds only the plugin's `include_fields`.
 */
export async function loadDeliverable(
  em: EntityManager,
  input: DeliveryInput,
  pluginType: string,
  extras: DeliverableExtras = {},
): Promise<{
  plugin: DeliverableRow['plugin'];
  source: WebhookSource;
  submission: DeliverableSubmission;
  /** The uploads, with `extras.files`; else empty. */
  files: StoredFileRow[];
  /** The form's field names (null: free-form), with `extras.formFieldNames`. */
  formFieldNames?: string[] | null;
}> {
  const found = await selectDeliverableRow(em, input.pluginId, input.submissionId, extras);
  const plugin = found?.plugin;
  if (!plugin || plugin.deleted || !plugin.enabled || plugin.pluginType !== pluginType) {
    throw ApplicationFailure.nonRetryable(
      'the plugin was deleted or disabled; delivery stopped',
      PLUGIN_UNAVAILABLE,
    );
  }
  const row = found.submission;
  // A submitter's delete (docs/manage-links.md): the row is gone by design; the input's ids
  // are the whole delivery.
  if (!row && input.deleted) return deletedDeliverable(plugin, input, input.deleted);
  if (!row) {
    throw ApplicationFailure.nonRetryable('the submission no longer exists', PLUGIN_UNAVAILABLE);
  }
  const source: WebhookSource = {
    event: input.event ?? 'submission.created',
    submissionId: String(row.id),
    createdAt: new Date(row.created_at),
    formEndpointToken: row.endpoint_token,
    formName: row.name,
    sourceIp: row.source_ip,
    userAgent: row.user_agent,
    referrer: row.referrer,
    // Only the fields the plugin is sent, before any type builds its body from them.
    payload: pickFields(row.payload_json, plugin.includeFields),
  };
  const submission: DeliverableSubmission = {
    form: { id: row.form_id, accountId: row.account_id, name: row.name },
    specialNormalized: row.special_normalized as SpecialFields | null,
  };
  return {
    plugin,
    source,
    submission,
    files: found.files ?? [],
    ...(extras.formFieldNames && { formFieldNames: found.formFieldNames ?? null }),
  };
}

/** What a `submission.deleted` delivery is built from: the ids the workflow was given. */
function deletedDeliverable(
  plugin: DeliverableRow['plugin'],
  input: DeliveryInput,
  deleted: DeletedSubmission,
) {
  const source: WebhookSource = {
    event: 'submission.deleted',
    submissionId: input.submissionId,
    createdAt: new Date(deleted.deletedAt),
    formEndpointToken: deleted.formEndpointToken,
    formName: '',
    sourceIp: null,
    userAgent: null,
    referrer: null,
    payload: {},
  };
  const submission: DeliverableSubmission = {
    form: { id: deleted.formId, accountId: '', name: '' },
    specialNormalized: null,
  };
  return { plugin, source, submission, files: [] };
}
