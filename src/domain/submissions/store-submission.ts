import type { EntityManager } from '@mikro-orm/postgresql';
import { insertSubmissionFile } from '../../db/sql/submission-files';
import {
  insertSubmissionOnce,
  nextSubmissionId,
  updateSubmissionPayload,
} from '../../db/sql/submissions';
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
 * cannot be reached: FileStoreUnavailableError, nothing stored), riding out a database
 * restart of a few seconds (after a connection error the statement is sent again). The id is
 * taken first, so a retry after a commit whose answer was lost finds the row instead of
 * storing it twice (the workflow id, `submission-{id}`, follows it). Files appear in
 * `payload_json` under their field name as `{filename, content_type, size, url}`; the url is
 * the authenticated download link of the API.
 */
export async function storeSubmission(
  em: EntityManager,
  input: NewSubmission,
  files: FileHandling,
): Promise<{ id: string }> {
  const id = await retryOnConnectionError(() => nextSubmissionId(em));
  return retryOnConnectionError(() => insertSubmission(em, id, input, files));
}

/** Stores the submission `id` once: run again with the same id, it finds the stored row. */
export async function insertSubmission(
  em: EntityManager,
  id: string,
  input: NewSubmission,
  files: FileHandling,
): Promise<{ id: string }> {
  const row = {
    id,
    formId: input.formId,
    accountId: input.accountId,
    payloadJson: input.payload,
    specialNormalized: input.special,
    sourceIp: input.sourceIp,
    userAgent: input.userAgent,
    referrer: input.referrer,
    isSpam: input.spamReason !== null,
    spamReason: input.spamReason,
    fillMs: input.fillMs,
  };

  if (input.files.length === 0) {
    // The ingest hot path: one INSERT statement, no transaction round trips.
    await insertSubmissionOnce(em, row);
    return { id };
  }

  // Objects stored before the transaction failed are deleted again; should that fail too,
  // they stay unreferenced in the bucket (docs/running.md, File storage).
  const storedKeys: string[] = [];
  return em
    .transactional(async (tx) => {
      // The row and its files commit together: a row already there means all of it is.
      if (!(await insertSubmissionOnce(tx, row))) return { id };
      const incomingBytes = input.files.reduce((sum, file) => sum + file.size, 0);
      await checkFileQuota(tx, files.quota, input, incomingBytes);
      const payload: Record<string, unknown> = { ...input.payload };
      for (const file of input.files) {
        const bytes = await files.store.put(file, { submissionId: id });
        if ('storageKey' in bytes) storedKeys.push(bytes.storageKey);
        const fileId = await insertSubmissionFile(tx, {
          submissionId: id,
          formId: input.formId,
          accountId: input.accountId,
          fieldName: file.fieldName,
          filename: file.filename,
          contentType: file.contentType,
          size: file.size,
          bytes,
        });
        addFileEntry(payload, file, files.url(id, fileId));
      }
      await updateSubmissionPayload(tx, id, payload);
      return { id };
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
