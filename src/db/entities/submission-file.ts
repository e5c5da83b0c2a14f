import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { bigintColumn, createdAtProperty, idProperty } from './timestamps';

/** An uploaded multipart file: its metadata, and its bytes here or in the object store. */
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
  /** The bytes, when they are kept in PostgreSQL; null when `storageKey` names an object. */
  content!: Buffer | null;
  /** The object's key in the object store (FILE_STORAGE_URL); null when `content` holds the bytes. */
  storageKey!: string | null;
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
    content: { type: 'blob', lazy: true, nullable: true },
    storageKey: { type: 'text', nullable: true },
    createdAt: createdAtProperty,
  },
});
