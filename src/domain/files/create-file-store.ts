import type { FileStorageConfig } from '../../config/file-storage';
import type { FileStore } from './file-store';
import { postgresFileStore } from './postgres-file-store';
import { createS3FileStore } from './s3-file-store';

/** The file store FILE_STORAGE_URL names (PostgreSQL when it is empty). */
export function createFileStore(config: FileStorageConfig): FileStore {
  return config.kind === 's3' ? createS3FileStore(config) : postgresFileStore;
}
