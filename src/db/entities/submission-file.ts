import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { bigintColumn, createdAtProperty, idProperty } from './timestamps';

/** An uploaded multipart file, kept in PostgreSQL beside its submission. */
export class SubmissionFile {
  [OptionalProps]?: 'createdAt';
  id!: string;
  submissionId!: string;
  /** The submission's form and account, copied so the storage quotas read one index. */
  formId!: string;
  accountId!: string;
  fieldName!: string;
  filename!: string;
  contentType!: string;
  size!: number;
  content!: Buffer;
  createdAt!: Date;
}

export const SubmissionFileSchema = new EntitySchema<SubmissionFile>({
  class: SubmissionFile,
  tableName: 'submission_files',
  properties: {
    id: idProperty,
    submissionId: bigintColumn,
    formId: bigintColumn,
    accountId: bigintColumn,
    fieldName: { type: 'string' },
    filename: { type: 'string' },
    contentType: { type: 'string' },
    size: { type: 'integer' },
    content: { type: 'blob', lazy: true },
    createdAt: createdAtProperty,
  },
});
