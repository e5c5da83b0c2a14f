import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { FileStorageConfig } from '../../config/file-storage';
import { FileStoreUnavailableError, StoredFileMissingError, type FileStore } from './file-store';
import { openRowContent } from './postgres-file-store';

type S3Settings = Extract<FileStorageConfig, { kind: 's3' }>;

/** A put is tried this often, each time from a fresh stream of the spooled file. */
const PUT_ATTEMPTS = 2;
/** Objects deleted at once by a sweep round. */
const DELETE_CONCURRENCY = 8;

/**
 * Uploaded files in an S3-compatible bucket (AWS S3, MinIO, versitygw, R2, …) under
 * `{prefix}submissions/{submissionId}/{uuid}`. Uploads stream from the spooled file with its
 * Content-Length, downloads stream from the bucket: no file is held in memory. Rows written
 * before the bucket was configured are still read from PostgreSQL.
 */
export function createS3FileStore(settings: S3Settings): FileStore {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // A stream cannot be sent twice: puts are retried here, from a new stream.
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
    // Checksums only where S3 requires them: many S3-compatible servers reject the newer
    // trailing-checksum uploads.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const unavailable = (what: string, error: unknown) =>
    new FileStoreUnavailableError(
      `file storage ${settings.display}: ${what} failed: ${(error as Error)?.message ?? String(error)}`,
      error,
    );

  return {
    kind: 's3',
    location: settings.display,
    async put(file, owner) {
      const key = `${settings.prefix}submissions/${owner.submissionId}/${randomUUID()}`;
      for (let attempt = 1; ; attempt++) {
        try {
          await client.send(
            new PutObjectCommand({
              Bucket: settings.bucket,
              Key: key,
              Body: file.open(),
              ContentLength: file.size,
              ContentType: file.contentType,
            }),
          );
          return { storageKey: key };
        } catch (error) {
          if (attempt >= PUT_ATTEMPTS) throw unavailable('storing a file', error);
        }
      }
    },
    async open(em, file) {
      if (file.storageKey === null) return openRowContent(em, file);
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: settings.bucket, Key: file.storageKey }),
        );
        return object.Body as Readable;
      } catch (error) {
        if (error instanceof NoSuchKey)
          throw new StoredFileMissingError(`object ${file.storageKey} is missing`);
        throw unavailable('reading a file', error);
      }
    },
    async delete(storageKeys) {
      const queue = [...storageKeys];
      const worker = async () => {
        for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
          // Deleting a missing key succeeds in S3, so a repeated sweep is harmless.
          await client.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: key }));
        }
      };
      try {
        await Promise.all(Array.from({ length: DELETE_CONCURRENCY }, worker));
      } catch (error) {
        throw unavailable('deleting files', error);
      }
    },
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: settings.bucket }));
      } catch (error) {
        throw unavailable('reaching the bucket', error);
      }
    },
  };
}
