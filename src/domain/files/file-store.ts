import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';

/** An uploaded file as ingest spooled it: its size is known and `open` reads its bytes. */
export type FileSource = { size: number; contentType: string; open(): Readable };

/** What a file's row keeps: its bytes, or the key of the object that holds them. */
export type StoredBytes = { content: Buffer } | { storageKey: string };

/** A stored file's row, as far as reading its bytes goes. */
export type StoredFileRef = { id: string; storageKey: string | null };

/**
 * Where the bytes of uploaded files live (docs/running.md, File storage): PostgreSQL (the
 * embedded default) or an S3-compatible object store. The rows of `submission_files` keep the
 * metadata either way, and rows written before an object store was configured keep working.
 */
export interface FileStore {
  readonly kind: 'postgres' | 's3';
  /** `postgres`, or the bucket and endpoint without credentials. */
  readonly location: string;
  /** Stores one file's bytes (of a submission); returns what its row keeps. */
  put(file: FileSource, owner: { submissionId: string }): Promise<StoredBytes>;
  /** The bytes of a stored file, as a stream. */
  open(em: EntityManager, file: StoredFileRef): Promise<Readable>;
  /** Deletes objects by key; nothing to do where the bytes live in the rows. */
  delete(storageKeys: readonly string[]): Promise<void>;
  /** Resolves when the store can be reached, else throws FileStoreUnavailableError. */
  check(): Promise<void>;
}

/**
 * The file store could not be reached or refused the operation: worth a retry (503). The
 * cause is kept as `reason`, not `cause`, so it is never mistaken for a database outage.
 */
export class FileStoreUnavailableError extends Error {
  constructor(
    message: string,
    readonly reason?: unknown,
  ) {
    super(message);
  }
}

/** The row names an object that is not in the store (deleted outside Formward). */
export class StoredFileMissingError extends Error {}
