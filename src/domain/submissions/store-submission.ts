import type { EntityManager } from '@mikro-orm/postgresql';
import { insertSubmissionFile } from '../../db/sql/submission-files';
import {
  insertSubmissionOnce,
  nextSubmissionId,
  updateSubmissionPayload,
} from '../../db/sql/submissions';
import type { SpecialFields } from '../../db/entities/submission';
import { retryOnConnectionError } from '../../db/connection-errors';
import { checkFileQuota, type FileQuota } from './file-quota';

/** A file part as ingest received it; `read` loads its bytes from where they were spooled. */
export type UploadedFile = {
  fieldName: string;
  filename: string;
  contentType: string;
  size: number;
  read(): Promise<Buffer>;
};

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
 * (else FileQuotaExceededError, nothing stored), riding out a database restart of a few
 * seconds (after a connection error the statement is sent again). The id is taken first, so
 * a retry after a commit whose answer was lost finds the row instead of storing it twice
 * (the workflow id, `submission-{id}`, follows it). Files appear in `payload_json` under their
 * field name as `{filename, content_type, size, url}`; the url is the authenticated download
 * link of the API.
 */
export async function storeSubmission(
  em: EntityManager,
  input: NewSubmission,
  files: { quota: FileQuota; url: (submissionId: string, fileId: string) => string },
): Promise<{ id: string }> {
  const id = await retryOnConnectionError(() => nextSubmissionId(em));
  return retryOnConnectionError(() => insertSubmission(em, id, input, files));
}

/** Stores the submission `id` once: run again with the same id, it finds the stored row. */
export async function insertSubmission(
  em: EntityManager,
  id: string,
  input: NewSubmission,
  files: { quota: FileQuota; url: (submissionId: string, fileId: string) => string },
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

  return em.transactional(async (tx) => {
    // The row and its files commit together: a row already there means all of it is.
    if (!(await insertSubmissionOnce(tx, row))) return { id };
    const incomingBytes = input.files.reduce((sum, file) => sum + file.size, 0);
    await checkFileQuota(tx, files.quota, input, incomingBytes);
    const payload: Record<string, unknown> = { ...input.payload };
    for (const file of input.files) {
      // One file in memory at a time, read from where ingest spooled it and let go once inserted.
      const fileId = await insertSubmissionFile(tx, {
        submissionId: id,
        formId: input.formId,
        accountId: input.accountId,
        fieldName: file.fieldName,
        filename: file.filename,
        contentType: file.contentType,
        content: await file.read(),
      });
      const entry = {
        filename: file.filename,
        content_type: file.contentType,
        size: file.size,
        url: files.url(id, fileId),
      };
      const previous = payload[file.fieldName];
      payload[file.fieldName] =
        previous === undefined
          ? entry
          : Array.isArray(previous)
            ? [...previous, entry]
            : [previous, entry];
    }
    await updateSubmissionPayload(tx, id, payload);
    return { id };
  });
}
