import type { EntityManager } from '@mikro-orm/postgresql';
import { Submission } from '../../db/entities';
import { insertSubmissionFile } from '../../db/sql/submission-files';
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
 * seconds (after a connection error the statement is sent again). Files appear in
 * `payload_json` under their field name as `{filename, content_type, size, url}`; the url is
 * the authenticated download link of the API.
 */
export function storeSubmission(
  em: EntityManager,
  input: NewSubmission,
  files: { quota: FileQuota; url: (submissionId: string, fileId: string) => string },
): Promise<{ id: string }> {
  return retryOnConnectionError(() => insertSubmission(em, input, files));
}

async function insertSubmission(
  em: EntityManager,
  input: NewSubmission,
  files: { quota: FileQuota; url: (submissionId: string, fileId: string) => string },
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

  return em.transactional(async (tx) => {
    const incomingBytes = input.files.reduce((sum, file) => sum + file.size, 0);
    await checkFileQuota(tx, files.quota, input, incomingBytes);
    const submission = tx.create(Submission, row);
    await tx.flush();
    const payload: Record<string, unknown> = { ...input.payload };
    for (const file of input.files) {
      // One file in memory at a time, read from where ingest spooled it and let go once inserted.
      const fileId = await insertSubmissionFile(tx, {
        submissionId: submission.id,
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
        url: files.url(submission.id, fileId),
      };
      const previous = payload[file.fieldName];
      payload[file.fieldName] =
        previous === undefined
          ? entry
          : Array.isArray(previous)
            ? [...previous, entry]
            : [previous, entry];
    }
    submission.payloadJson = payload;
    await tx.flush();
    return submission;
  });
}
