import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { bigintColumn, createdAtColumn, idColumn, timestampColumn } from './columns';

/** `skipped`: the plugin was disabled when the submission came; nothing was sent. */
export type DeliveryStatus = 'succeeded' | 'failed' | 'pending_retry' | 'skipped';

/** One attempt of one delivery of a submission to a plugin; unique per delivery and attempt. */
export const DeliveryAttempt = defineEntity({
  name: 'DeliveryAttempt',
  tableName: 'delivery_attempts',
  properties: {
    id: idColumn(),
    deliveryId: p.string(),
    submissionId: bigintColumn(),
    /** Null for a delivery without a plugin, which `pluginType` names (`autoresponse`). */
    pluginId: bigintColumn().nullable(),
    pluginType: p.string().nullable(),
    attempt: p.integer(),
    status: p.string().$type<DeliveryStatus>(),
    httpStatus: p.integer().nullable(),
    error: p.text().nullable(),
    durationMs: p.integer().nullable(),
    responseBody: p.text().nullable(),
    isReplay: p.boolean(),
    isTest: p.boolean(),
    workflowId: p.string().nullable(),
    workflowRunId: p.string().nullable(),
    startedAt: timestampColumn(),
    finishedAt: timestampColumn().nullable(),
    createdAt: createdAtColumn(),
  },
});
export type DeliveryAttempt = InferEntity<typeof DeliveryAttempt>;
