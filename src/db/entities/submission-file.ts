import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { bigintColumn, createdAtColumn, idColumn } from './columns';

/** An uploaded multipart file: its metadata, and its bytes here or in the object store. */
export const SubmissionFile = defineEntity({
  name: 'SubmissionFile',
  tableName: 'submission_files',
  properties: {
    id: idColumn(),
    submissionId: bigintColumn(),
    /** The submission's form and account, copied so the storage quotas read one index. */
    formId: bigintColumn(),
    accountId: bigintColumn(),
    fieldName: p.string(),
    filename: p.string(),
    contentType: p.string(),
    size: p.integer(),
    /** The bytes, when they are kept in PostgreSQL; null when `storageKey` names an object. */
    content: p.type('blob').lazy().nullable(),
    /** The object's key in the object store (FILE_STORAGE_URL); null when `content` holds the bytes. */
    storageKey: p.text().nullable(),
    createdAt: createdAtColumn(),
  },
});
export type SubmissionFile = InferEntity<typeof SubmissionFile>;
