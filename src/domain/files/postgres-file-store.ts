import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { EntityManager } from '@mikro-orm/postgresql';
import { selectFileContent } from '../../db/sql/submission-files';
import {
  FileStoreUnavailableError,
  StoredFileMissingError,
  type FileStore,
  type StoredFileRef,
} from './file-store';

/** Reads the bytes a file row keeps itself (every row of the PostgreSQL store, old rows of any). */
export async function openRowContent(em: EntityManager, file: StoredFileRef): Promise<Readable> {
  if (file.storageKey !== null)
    throw new FileStoreUnavailableError(
      'this file is kept in an object store, and FILE_STORAGE_URL names none',
    );
  const content = await selectFileContent(em, file.id);
  if (content === null) throw new StoredFileMissingError(`file ${file.id} has no bytes`);
  return Readable.from([content]);
}

/**
 * The embedded default: the bytes go into the row's `bytea`. One file is held in memory
 * while it is inserted (PostgreSQL takes a bytea parameter whole); ingest spools to disk
 * before, so a slow upload never holds memory.
 */
export const postgresFileStore: FileStore = {
  kind: 'postgres',
  location: 'postgres',
  async put(file) {
    return { content: await buffer(file.open()) };
  },
  open: openRowContent,
  async delete() {
    // The bytes go with their rows.
  },
  async check() {
    // PostgreSQL has its own readiness check.
  },
};
