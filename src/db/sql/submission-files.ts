import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

/**
 * Inserts one uploaded file of a submission; returns its id. Its bytes are `content` (kept
 * in PostgreSQL) or, with `storageKey`, an object the file store writes.
 */
export async function insertSubmissionFile(
  tx: EntityManager,
  file: {
    submissionId: string;
    formId: string;
    accountId: string;
    fieldName: string;
    filename: string;
    contentType: string;
    size: number;
    bytes: { content: Buffer } | { storageKey: string };
  },
): Promise<string> {
  const [row] = await selectRows<{ id: string }>(
    tx,
    `insert into submission_files
       (submission_id, form_id, account_id, field_name, filename, content_type, size,
        content, storage_key)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
    [
      file.submissionId,
      file.formId,
      file.accountId,
      file.fieldName,
      file.filename,
      file.contentType,
      file.size,
      'content' in file.bytes ? file.bytes.content : null,
      'storageKey' in file.bytes ? file.bytes.storageKey : null,
    ],
  );
  return String(row!.id);
}

/** The bytes of a file kept in PostgreSQL (null when it has none there). */
export async function selectFileContent(em: EntityManager, fileId: string): Promise<Buffer | null> {
  const [row] = await selectRows<{ content: Buffer | null }>(
    em,
    'select content from submission_files where id = ?',
    [fileId],
  );
  return row?.content ?? null;
}

/**
 * Takes up to `limit` object keys queued for deletion (rows whose file rows were deleted),
 * locked until `tx` ends so two sweeps never take the same key; the caller deletes the rows
 * once the objects are gone.
 */
export function lockQueuedObjectDeletions(tx: EntityManager, limit: number): Promise<string[]> {
  return selectRows<{ storage_key: string }>(
    tx,
    `select storage_key from file_object_deletions
      order by queued_at limit ? for update skip locked`,
    [limit],
  ).then((rows) => rows.map((row) => row.storage_key));
}

/** Forgets queued object deletions that are done. */
export async function removeQueuedObjectDeletions(
  tx: EntityManager,
  keys: string[],
): Promise<void> {
  if (keys.length === 0) return;
  const list = keys.map(() => '?').join(', ');
  await runStatement(tx, `delete from file_object_deletions where storage_key in (${list})`, keys);
}
