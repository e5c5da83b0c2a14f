import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import busboy from 'busboy';
import type { Request } from 'express';
import { fieldsTooLargeMessage, INGEST_LIMITS } from '../../domain/submissions/limits';
import type { UploadedFile } from '../../domain/submissions/store-submission';
import { HttpError, validationFailed } from '../kit/errors/http-error';

export type ParsedFormBody = {
  fields: Record<string, string | string[]>;
  files: UploadedFile[];
  /** Removes the spooled files; call it once they are stored (or refused). */
  discard(): Promise<void>;
};

/** What becomes of a body's files: written to the spool, or read to nowhere. */
export type FileAdmission = 'write' | 'drain';

const removeFile = (file: string) => void fs.promises.rm(file, { force: true });

const tooLarge = (message: string) => new HttpError('payload_too_large', message);

/**
 * Streams an urlencoded or multipart body through busboy, enforcing docs/api-conventions.md, Limits: body size,
 * file size and count, field count, name length, value size and the fields' total. Repeated
 * names become arrays. Without `acceptFiles`, a file part that carries a name or bytes fails.
 * File parts are written to `spoolDir` while they arrive; on failure they are removed.
 * `beforeFiles`, when given, is asked once, at the first file part that has a file name, with
 * the fields read so far: until it answers nothing is written (the part waits, and the body
 * with it); it may refuse (the read fails with its error) or have the files drained unwritten.
 * A nameless part with bytes before it said yes fails with `beforeFilesRefusal`.
 */
export function parseFormBody(
  req: Request,
  options: {
    acceptFiles: boolean;
    spoolDir: string;
    /** Called with each chunk's size as it arrives; throwing ends the read with that error. */
    onReceived?: (bytes: number) => void;
    beforeFiles?: (fields: Record<string, string | string[]>) => Promise<FileAdmission>;
    /** Why a nameless file part with bytes is refused before `beforeFiles` admitted files. */
    beforeFilesRefusal?: () => Error;
  },
): Promise<ParsedFormBody> {
  const multipart = req.is('multipart/form-data') !== false;
  const bodyLimit = multipart
    ? INGEST_LIMITS.multipartBodyBytes
    : INGEST_LIMITS.urlencodedBodyBytes;
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > bodyLimit) {
    return Promise.reject(tooLarge(`the body is larger than ${bodyLimit / 1024 / 1024} MiB`));
  }

  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: {
          fieldNameSize: INGEST_LIMITS.fieldNameChars + 1,
          // One byte over each limit: busboy flags a value or file that reaches its limit
          // as truncated, and one of exactly the limit is allowed.
          fieldSize: INGEST_LIMITS.fieldValueBytes + 1,
          fields: INGEST_LIMITS.fields,
          files: INGEST_LIMITS.files,
          fileSize: INGEST_LIMITS.fileBytes + 1,
          parts: INGEST_LIMITS.fields + INGEST_LIMITS.files,
        },
      });
    } catch (error) {
      reject(
        new HttpError(
          'validation_failed@400',
          `the form body cannot be read: ${(error as Error).message}`,
        ),
      );
      return;
    }

    const fields: Record<string, string | string[]> = {};
    // A file's place is taken when its part starts, so files keep the order they were sent
    // in even when a later, smaller one finishes spooling first.
    const fileSlots: (UploadedFile | undefined)[] = [];
    const sinks: fs.WriteStream[] = [];
    const spooled: string[] = [];
    let failure: Error | null = null;
    let received = 0;
    let fieldBytes = 0;
    let pendingFiles = 0;
    let parserClosed = false;
    let admission: Promise<FileAdmission> | undefined;

    const fail = (error: Error) => {
      if (failure) return;
      failure = error;
      req.unpipe(parser);
      req.resume(); // drain what is left so the answer can be sent
      // Each sink removes its file once closed (see 'close' below): none is handed on.
      for (const sink of sinks) sink.destroy();
      for (const file of spooled.splice(0)) removeFile(file);
      reject(error);
    };
    const discard = async () => {
      await Promise.all(spooled.splice(0).map((file) => fs.promises.rm(file, { force: true })));
    };
    const finish = () => {
      if (!failure && parserClosed && pendingFiles === 0)
        resolve({ fields, files: fileSlots.filter((file) => file !== undefined), discard });
    };
    const add = (name: string, value: string) => {
      const previous = fields[name];
      fields[name] =
        previous === undefined
          ? value
          : Array.isArray(previous)
            ? [...previous, value]
            : [previous, value];
    };
    const checkName = (name: string, truncated: boolean) => {
      if (truncated || name.length > INGEST_LIMITS.fieldNameChars) {
        fail(
          new HttpError('validation_failed', 'the request failed validation', [
            `${name.slice(0, 32)}…: field name longer than ${INGEST_LIMITS.fieldNameChars} characters`,
          ]),
        );
        return false;
      }
      return true;
    };

    req.on('data', (chunk: Buffer) => {
      try {
        options.onReceived?.(chunk.length);
      } catch (error) {
        return fail(error as Error);
      }
      received += chunk.length;
      if (received > bodyLimit)
        fail(tooLarge(`the body is larger than ${bodyLimit / 1024 / 1024} MiB`));
    });

    parser.on('field', (name, value, info) => {
      if (failure || !checkName(name, info.nameTruncated)) return;
      if (info.valueTruncated || Buffer.byteLength(value) > INGEST_LIMITS.fieldValueBytes)
        return fail(
          tooLarge(`${name}: value larger than ${INGEST_LIMITS.fieldValueBytes / 1024} KiB`),
        );
      fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (fieldBytes > INGEST_LIMITS.fieldsBytes) return fail(tooLarge(fieldsTooLargeMessage));
      if (name !== '') add(name, value);
    });
    parser.on('file', (name, stream, info) => {
      if (failure || !checkName(name, false)) return stream.resume();
      const refuseFiles = () =>
        fail(validationFailed([`${name}: this form does not accept files`]));
      if (!options.acceptFiles && info.filename) {
        refuseFiles();
        return stream.resume();
      }
      const fileTooLarge = () =>
        fail(tooLarge(`${name}: file larger than ${INGEST_LIMITS.fileBytes / 1024 / 1024} MiB`));
      pendingFiles++;
      const slot = fileSlots.push(undefined) - 1;
      const spool = () => {
        // The bytes go to a file as they arrive: a slow or large upload holds disk, not memory.
        fs.mkdirSync(options.spoolDir, { recursive: true, mode: 0o700 });
        const spoolPath = path.join(options.spoolDir, randomUUID());
        const sink = fs.createWriteStream(spoolPath, { flags: 'wx', mode: 0o600 });
        sinks.push(sink);
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          if (!options.acceptFiles) return refuseFiles();
          size += chunk.length;
          if (size > INGEST_LIMITS.fileBytes) fileTooLarge();
        });
        stream.on('limit', fileTooLarge);
        sink.on('error', (error) => fail(error));
        sink.on('close', () => {
          pendingFiles--;
          // An empty file input sends a part with no name and no bytes: nothing was uploaded.
          if (!failure && !stream.truncated && (info.filename || size > 0)) {
            fileSlots[slot] = {
              fieldName: name,
              filename: (info.filename || 'upload').slice(0, 255),
              contentType: info.mimeType || 'application/octet-stream',
              size,
              open: () => fs.createReadStream(spoolPath),
            };
            spooled.push(spoolPath);
          } else {
            removeFile(spoolPath);
          }
          finish();
        });
        stream.pipe(sink);
      };
      // Read to nowhere: nothing written, nothing handed on.
      const drain = () => {
        stream.on('end', () => {
          pendingFiles--;
          finish();
        });
        stream.resume();
      };
      if (!options.beforeFiles) return spool();
      if (!admission && !info.filename) {
        // An empty file input (no name, no bytes) is no file; bytes here wait for nobody.
        const refusal =
          options.beforeFilesRefusal ?? (() => validationFailed([`${name}: refused`]));
        stream.on('data', () => fail(refusal()));
        return drain();
      }
      // Until the fields before it pass, the part is not read, and the body waits with it.
      admission ??= options.beforeFiles({ ...fields });
      admission.then(
        (decision) => (failure ? stream.resume() : decision === 'write' ? spool() : drain()),
        (error: Error) => {
          fail(error);
          stream.resume();
        },
      );
    });
    parser.on('fieldsLimit', () =>
      fail(tooLarge(`too many fields (limit ${INGEST_LIMITS.fields})`)),
    );
    parser.on('filesLimit', () => fail(tooLarge(`too many files (limit ${INGEST_LIMITS.files})`)));
    parser.on('partsLimit', () =>
      fail(tooLarge(`too many parts (limit ${INGEST_LIMITS.fields + INGEST_LIMITS.files})`)),
    );
    parser.on('error', (error: Error) =>
      fail(new HttpError('validation_failed@400', `the form body is malformed: ${error.message}`)),
    );
    parser.on('close', () => {
      parserClosed = true;
      finish();
    });
    req.on('aborted', () =>
      fail(new HttpError('validation_failed@400', 'the request was aborted')),
    );
    req.pipe(parser);
  });
}
