import type { Logger } from 'pino';
import type { FileStoreUnavailableError } from '../../../domain/files/file-store';
import { HttpError } from './http-error';

/** Seconds a client is asked to wait when the file store is unreachable. */
const RETRY_AFTER_SECONDS = 5;

/**
 * 503 `unavailable` (docs/api-conventions.md, Errors) for an unreachable object store: like a
 * database restart, worth a retry. The cause names the bucket and endpoint: it is logged only.
 */
export function fileStorageUnavailable(
  logger: Logger,
  error: FileStoreUnavailableError,
): HttpError {
  logger.warn({ err: error, cause: error.reason }, 'file storage unavailable');
  return new HttpError(
    'unavailable',
    'the service is briefly unavailable (its file storage could not be reached); try again in a few seconds',
    undefined,
    { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  );
}
