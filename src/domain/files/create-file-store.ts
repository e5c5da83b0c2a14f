import type { FileStorageConfig } from '../../config/file-storage';
import type { FileStore } from './file-store';
import { postgresFileStore } from './postgres-file-store';

/** The file store FILE_STORAGE_URL names (PostgreSQL when it is empty). */
export async function createFileStore(config: FileStorageConfig): Promise<FileStore> {
  if (config.kind !== 's3') return postgresFileStore;
  // The AWS SDK takes a noticeable part of a second to load: only where a bucket is named.
  const { createS3FileStore } = await import('./s3-file-store.js');
  return createS3FileStore(config);
}
