import type { EntityManager } from '@mikro-orm/postgresql';
import { Submission, SubmissionFile } from '../../db/entities';
import type { SpecialFields } from '../../db/entities/submission';
import { retryOnConnectionError } from '../../db/connection-errors';

export type UploadedFile = {
  fieldName: string;
  filename: string;
  contentType: string;
  content: Buffer;
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
 * Stores a submission and its files in one transaction, riding out a database restart of a
 * few seconds (after a connection error the statement is sent again). Files appear in `payload_json`
 * under their field name as `{filename, content_type, size, url}`; the url is the
 * authenticated download link of the API.
 */
export function storeSubmission(
  em: EntityManager,
  input: NewSubmission,
  fileUrl: (submissionId: string, fileId: string) => string,
): Promise<{ id: string }> {
  return retryOnConnectionError(() => insertSubmission(em, input, fileUrl));
}

async function insertSubmission(
  em: EntityManager,
  input: NewSubmission,
  fileUrl: (submissionId: string, fileId: string) => string,
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
    const submission = tx.create(Submission, row);
    await tx.flush();
    const stored = input.files.map((file) =>
      tx.create(SubmissionFile, {
        submissionId: submission.id,
        fieldName: file.fieldName,
        filename: file.filename,
        contentType: file.contentType,
        size: file.content.length,
        content: file.content,
      }),
    );
    await tx.flush();
    const payload: Record<string, unknown> = { ...input.payload };
    for (const file of stored) {
      const entry = {
        filename: file.filename,
        content_type: file.contentType,
        size: file.size,
        url: fileUrl(submission.id, file.id),
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
