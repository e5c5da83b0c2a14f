import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from './execute';

/**
 * Bytes of uploaded files an account keeps, in all and for one of its forms. Takes a lock per
 * account first (until `tx` ends), so concurrent uploads of one account are checked in turn
 * and cannot together pass a quota. `tx` must be transactional.
 */
export async function lockAndSumAccountFiles(
  tx: EntityManager,
  accountId: string,
  formId: string,
): Promise<{ accountBytes: number; formBytes: number }> {
  await selectRows(
    tx,
    `select pg_advisory_xact_lock(hashtextextended('submission_files:' || ?, 0))`,
    [accountId],
  );
  const [row] = await selectRows<{ account_bytes: string; form_bytes: string }>(
    tx,
    `select coalesce(sum(size), 0) as account_bytes,
            coalesce(sum(size) filter (where form_id = ?), 0) as form_bytes
       from submission_files where account_id = ?`,
    [formId, accountId],
  );
  return { accountBytes: Number(row?.account_bytes ?? 0), formBytes: Number(row?.form_bytes ?? 0) };
}

/** Inserts one uploaded file of a submission; returns its id. */
export async function insertSubmissionFile(
  tx: EntityManager,
  file: {
    submissionId: string;
    formId: string;
    accountId: string;
    fieldName: string;
    filename: string;
    contentType: string;
    content: Buffer;
  },
): Promise<string> {
  const [row] = await selectRows<{ id: string }>(
    tx,
    `insert into submission_files
       (submission_id, form_id, account_id, field_name, filename, content_type, size, content)
     values (?, ?, ?, ?, ?, ?, ?, ?) returning id`,
    [
      file.submissionId,
      file.formId,
      file.accountId,
      file.fieldName,
      file.filename,
      file.contentType,
      file.content.length,
      file.content,
    ],
  );
  return String(row!.id);
}
