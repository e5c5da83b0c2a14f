import type { EntityManager } from '@mikro-orm/postgresql';
import { Submission } from '../../db/entities';
import { insertSubmissionFile } from '../../db/sql/submission-files';
import type { SpecialFields } from '../../db/entities/submission';
import { retryOnConnectionError } from '../../db/connection-errors';
import type { FileSource, FileStore } from '../files/file-store';
import { checkFileQuota, type FileQuota } from './file-quota';

/** Where a submission's files go, what they may take, and their download links. */
export type FileHandling = {
  quota: FileQuota;
  store: FileStore;
  url: (submissionId: string, fileId: string) => string;
};

/** A file part as ingest received it; `open` streams its bytes from where they were spooled. */
export type UploadedFile = FileSource & { fieldName: string; filename: string };

export type NewSubmission = {
  formId: string;
  accountId: string;
  payload: Record<string, unknown>;
  special: SpecialFields | null;
  sourceIp: string | null;
  userAgent: string | null;
  referrer: string | null;
  spamReason: string | null;
  /** How long the form took to fill (ms), or null when unknown. */
  fillMs: number | null;
  files: UploadedFile[];
};

/**
 * Stores a submission and its files in one transaction, the files only within the quota
 * (else FileQuotaExceededError, nothing stored), their bytes in `files.store` (when it
 * cannot be reached: FileStoreUnavailableError, nothing stored), riding out a database restart of a few
 * seconds (after a connection error the statement is sent again). Files appear in
 * `payload_json` under their field name as `{filename, content_type, size, url}`; the url is
 * the authenticated download link of the API.
 */
export function storeSubmission(
  em: EntityManager,
  input: NewSubmission,
  files: FileHandling,
): Promise<{ id: string }> {
  return retryOnConnectionError(() => insertSubmission(em, input, files));
}

async function insertSubmission(
  em: EntityManager,
  input: NewSubmission,
  files: FileHandling,
): Promise<{ id: string }> {
  const row = {
    formId: input.formId,
    accountId: input.accountId,
    payloadJson: input.payload,
    specialNormalized: input.special,
    sourceIp: input.sourceIp,
    userAgent: input.userAgent,
    referrer: input.referrer,
    isSpam: input.spamReason !== null,
    spamReason: input.spamReason,
    spamCheckedAt: null,
    fillMs: input.fillMs,
    workflowStartedAt: null,
  };

  if (input.files.length === 0) {
    // The ingest hot path: one INSERT statement, without the unit of work's change sets and
    // transaction round trips (em.insert is MikroORM's native insert).
    const id = await em.insert(Submission, row);
    return { id: String(id) };
  }

  // Objects stored before the transaction failed are deleted again; should that fail too,
  // they stay unreferenced in the bucket (docs/running.md, File storage).
  const storedKeys: string[] = [];
  return em
    .transactional(async (tx) => {
      const incomingBytes = input.files.reduce((sum, file) => sum + file.size, 0);
      await checkFileQuota(tx, files.quota, input, incomingBytes);
      const submission = tx.create(Submission, row);
      await tx.flush();
      const payload: Record<string, unknown> = { ...input.payload };
      for (const file of input.files) {
        const bytes = await files.store.put(file, { submissionId: submission.id });
        if ('storageKey' in bytes) storedKeys.push(bytes.storageKey);
        const fileId = await insertSubmissionFile(tx, {
          submissionId: submission.id,
          formId: input.formId,
          accountId: input.accountId,
          fieldName: file.fieldName,
          filename: file.filename,
          contentType: file.contentType,
          size: file.size,
          bytes,
        });
        addFileEntry(payload, file, files.url(submission.id, fileId));
      }
      submission.payloadJson = payload;
      await tx.flush();
      return submission;
    })
    .catch(async (error: unknown) => {
      await files.store.delete(storedKeys).catch(() => undefined);
      throw error;
    });
}

/** Files appear in the payload under their field name; a repeated field becomes a list. */
function addFileEntry(payload: Record<string, unknown>, file: UploadedFile, url: string): void {
  const entry = { filename: file.filename, content_type: file.contentType, size: file.size, url };
  const previous = payload[file.fieldName];
  payload[file.fieldName] =
    previous === undefined
      ? entry
      : Array.isArray(previous)
        ? [...previous, entry]
        : [previous, entry];
}
