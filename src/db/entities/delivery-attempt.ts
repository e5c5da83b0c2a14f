import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { bigintColumn, createdAtProperty, idProperty } from './timestamps';

/** `skipped`: the plugin was disabled when the submission came; nothing was sent. */
export type DeliveryStatus = 'succeeded' | 'failed' | 'pending_retry' | 'skipped';

/** One attempt of one delivery of a submission to a plugin; unique per delivery and attempt. */
export class DeliveryAttempt {
  [OptionalProps]?: 'createdAt';
  id!: string;
  deliveryId!: string;
  submissionId!: string;
  pluginId!: string;
  attempt!: number;
  status!: DeliveryStatus;
  httpStatus!: number | null;
  error!: string | null;
  durationMs!: number | null;
  responseBody!: string | null;
  isReplay!: boolean;
  isTest!: boolean;
  workflowId!: string | null;
  workflowRunId!: string | null;
  startedAt!: Date;
  finishedAt!: Date | null;
  createdAt!: Date;
}

export const DeliveryAttemptSchema = new EntitySchema<DeliveryAttempt>({
  class: DeliveryAttempt,
  tableName: 'delivery_attempts',
  properties: {
    id: idProperty,
    deliveryId: { type: 'string' },
    submissionId: bigintColumn,
    pluginId: bigintColumn,
    attempt: { type: 'integer' },
    status: { type: 'string' },
    httpStatus: { type: 'integer', nullable: true },
    error: { type: 'text', nullable: true },
    durationMs: { type: 'integer', nullable: true },
    responseBody: { type: 'text', nullable: true },
    isReplay: { type: 'boolean' },
    isTest: { type: 'boolean' },
    workflowId: { type: 'string', nullable: true },
    workflowRunId: { type: 'string', nullable: true },
    startedAt: { type: 'datetime', columnType: 'timestamptz' },
    finishedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdAt: createdAtProperty,
  },
});
