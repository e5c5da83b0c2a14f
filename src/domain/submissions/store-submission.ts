import type { EntityManager } from '@mikro-orm/postgresql';
import { insertSubmissionFile } from '../../db/sql/submission-files';
import { currentTraceparent } from '../../tracing/trace-hooks';
import { insertSubmissionOnce, type NewSubmissionRow } from '../../db/sql/submission-inserts';
import { selectSubmissionPayload, updateSubmissionPayload } from '../../db/sql/submissions';
import type { SpecialFields } from '../../db/entities/submission';
import { retryOnConnectionError } from '../../db/connection-errors';
import type { FileSource, FileStore, StoredBytes } from '../files/file-store';
import {
  releaseFileReservation,
  reserveFileBytes,
  settleFileReservation,
  type FileQuota,
  type FileReservation,
} from './file-quota';
import type { Semaphore } from '../concurrency/semaphore';
import { directWriter, type SubmissionWriter } from './submission-writer';
import { insertGatedSubmission } from './submission-gate';

/** Where a submission's files go, what they may take, and their download links. */
export type FileHandling = {
  quota: FileQuota;
  store: FileStore;
  /** Bounds the transactions that store files at once (PostgreSQL takes the bytes there). */
  writeSlots: Semaphore;
  url: (submissionId: string, fileId: string) => string;
};

/**
 * How long no worker may claim the new submission's workflow start (docs/running.md): the
 * storing process starts it itself (a test run waits for its result). 0 by default.
 */
export type StartHold = { heldMs?: number };

/** How one row is stored: its start's hold, and whether its form's gates decide it. */
type RowOptions = StartHold & { gated?: boolean };

/**
 * How storeSubmission writes: `writer` takes ids and stores rows without files (ingest groups
 * them); `gated`: the form has `limits`, decided in the insert's transaction under the form's
 * lock (insertGatedSubmission: FormClosedError, AlreadySubmittedError), never in a group.
 */
export type StoreOptions = { start?: StartHold; writer?: SubmissionWriter; gated?: boolean };

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
  /** When ingest received it: stored as created_at, so its receipt and the row agree. */
  receivedAt: Date;
  files: UploadedFile[];
  /** The SHA-256 of its manage link's secret (docs/manage-links.md); absent: no link. */
  manageKeyHash?: string | null;
};

/** A stored submission: its id and its payload as stored (files as their entries). */
export type StoredSubmission = { id: string; payload: Record<string, unknown> };

/**
 * Stores a submission and its files in one transaction, the files only within the quota
 * (else FileQuotaExceededError, nothing stored), their bytes in `files.store` (when it
 * cannot be reached: FileStoreUnavailableError, nothing stored), riding out a database
 * restart of a few seconds (after a connection error the statement is sent again). The id is
 * taken first, so a retry after a commit whose answer was lost finds the row instead of
 * storing it twice (the workflow id, `submission-{id}`, follows it). Files appear in
 * `payload_json` under their field name as `{filename, content_type, size, url}`; the url is
 * the authenticated download link of the API; the payload returned is the one stored.
 */
export async function storeSubmission(
  emOrLazy: EntityManager | (() => EntityManager),
  input: NewSubmission,
  files: FileHandling,
  options: StoreOptions = {},
): Promise<StoredSubmission> {
  const emOf = typeof emOrLazy === 'function' ? emOrLazy : () => emOrLazy;
  const writer = options.writer ?? directWriter(emOf);
  const id = await retryOnConnectionError(() => writer.takeId());
  if (input.files.length === 0 && options.gated) {
    const row = newRow(id, input, options.start);
    await retryOnConnectionError(() =>
      emOf().transactional((tx) => insertGatedSubmission(tx, row, Date.now())),
    );
    return { id, payload: input.payload };
  }
  if (input.files.length === 0) {
    // The ingest hot path: one statement, shared with concurrent submissions by ingest's
    // writer (which needs no EntityManager: the request's fork is not even made).
    await retryOnConnectionError(() => writer.insert(newRow(id, input, options.start)));
    return { id, payload: input.payload };
  }
  const em = emOf();
  const start = { ...options.start, gated: options.gated };
  // One reservation for every attempt: a retry after a commit whose answer was lost must
  // neither count the files twice nor give back what that commit settled. (A reservation
  // whose own answer was lost stays behind until it is an hour old, file-usage.ts.)
  const reservation = await retryOnConnectionError(() =>
    reserveFileBytes(em, files.quota, input, totalBytes(input.files)),
  );
  try {
    return await retryOnConnectionError(() =>
      insertSubmission(em, id, input, files, reservation, start),
    );
  } catch (error) {
    await releaseFileReservation(em, reservation).catch(() => undefined);
    throw error;
  }
}

/**
 * Stores the submission `id` once: run again with the same id, it finds the stored row. Its
 * files' bytes are reserved here, unless the caller holds `reservation` for them (and then
 * settles it here, or gives it back itself).
 */
export async function insertSubmission(
  em: EntityManager,
  id: string,
  input: NewSubmission,
  files: FileHandling,
  reservation?: FileReservation,
  start: RowOptions = {},
): Promise<StoredSubmission> {
  const row = newRow(id, input, start);

  if (input.files.length === 0) {
    await insertSubmissionOnce(em, row);
    return { id, payload: input.payload };
  }

  const held =
    reservation ?? (await reserveFileBytes(em, files.quota, input, totalBytes(input.files)));
  const giveBack = () =>
    reservation ? Promise.resolve() : releaseFileReservation(em, held).catch(() => undefined);
  // Objects written before the transaction failed are deleted again; should that fail too,
  // they stay unreferenced in the bucket (docs/running.md, File storage).
  const storedKeys: string[] = [];
  try {
    const stored = await insertWithFiles(em, row, input, files, held, storedKeys, start.gated);
    if (!stored) {
      // An earlier attempt stored the submission: its files and bytes are already counted.
      await giveBack();
      await files.store.delete(storedKeys).catch(() => undefined);
      return { id, payload: (await selectSubmissionPayload(em, id)) ?? input.payload };
    }
    return { id, payload: stored };
  } catch (error) {
    await giveBack();
    await files.store.delete(storedKeys).catch(() => undefined);
    throw error;
  }
}

/** The submission's row as stored, with the ingest request's trace for its workflow start. */
const newRow = (id: string, input: NewSubmission, start?: StartHold): NewSubmissionRow => ({
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
  createdAt: input.receivedAt,
  traceparent: currentTraceparent(),
  startHeldMs: start?.heldMs,
  manageKeyHash: input.manageKeyHash ?? null,
});

const totalBytes = (list: UploadedFile[]) => list.reduce((sum, file) => sum + file.size, 0);

/**
 * Writes the files and commits the row, its file rows and the reservation's bytes as kept in
 * one transaction: the payload stored, or null when the row was already there. An object store is written first,
 * with no connection held; PostgreSQL takes the bytes inside the transaction, one file in
 * memory at a time, in one of `files.writeSlots`. No quota lock is held while bytes move:
 * the counters are settled last, their rows locked only until the commit.
 */
async function insertWithFiles(
  em: EntityManager,
  row: NewSubmissionRow,
  input: NewSubmission,
  files: FileHandling,
  reservation: FileReservation,
  storedKeys: string[],
  gated = false,
): Promise<Record<string, unknown> | null> {
  const id = row.id;
  const written: Array<StoredBytes | null> = [];
  for (const file of input.files) {
    const bytes =
      files.store.kind === 'postgres' ? null : await files.store.put(file, { submissionId: id });
    if (bytes && 'storageKey' in bytes) storedKeys.push(bytes.storageKey);
    written.push(bytes);
  }
  return files.writeSlots.run(() =>
    em.transactional(async (tx) => {
      // The row and its files commit together: a row already there means all of it is.
      const inserted = gated
        ? await insertGatedSubmission(tx, row, Date.now())
        : await insertSubmissionOnce(tx, row);
      if (!inserted) return null;
      const payload: Record<string, unknown> = { ...input.payload };
      for (const [index, file] of input.files.entries()) {
        const bytes = written[index] ?? (await files.store.put(file, { submissionId: id }));
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
      await settleFileReservation(tx, reservation);
      return payload;
    }),
  );
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
