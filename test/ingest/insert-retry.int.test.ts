import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Readable } from 'node:stream';
import { postgresFileStore } from '../../src/domain/files/postgres-file-store';
import { formTotals } from '../../src/db/sql/submission-counts';
import { nextSubmissionId } from '../../src/db/sql/submission-inserts';
import {
  insertSubmission,
  storeSubmission,
  type NewSubmission,
} from '../../src/domain/submissions/store-submission';
import { Semaphore } from '../../src/domain/concurrency/semaphore';
import { useTestStack } from '../support/fixture';
import { aroundStatements } from '../support/statement-spy';

// PostgreSQL may commit the insert and the connection drop before its answer arrives; the
// retry then must find the row, not store the submission a second time.

const t = useTestStack({ form: { name: 'Retried inserts' } });

const files = {
  quota: { perFormBytes: 0, perAccountBytes: 0 },
  store: postgresFileStore,
  writeSlots: new Semaphore(4),
  url: (submissionId: string, fileId: string) => `/s/${submissionId}/files/${fileId}`,
};

function submission(message: string, withFile = false): NewSubmission {
  const content = Buffer.from(`attachment of ${message}`);
  return {
    formId: t.form.id,
    accountId: t.accountId,
    payload: { message },
    special: { message },
    sourceIp: '203.0.113.9',
    userAgent: null,
    referrer: null,
    spamReason: null,
    fillMs: null,
    receivedAt: new Date(),
    files: withFile
      ? [
          {
            fieldName: 'cv',
            filename: 'cv.txt',
            contentType: 'text/plain',
            size: content.length,
            open: () => Readable.from([content]),
          },
        ]
      : [],
  };
}

const em = (): EntityManager => t.stack.ctx.orm.em.fork();

async function storedWith(message: string) {
  const rows = await t.stack.sql<{ id: string; payload_json: Record<string, unknown> }>(
    "select id::text, payload_json from submissions where form_id = ? and payload_json->>'message' = ?",
    [t.form.id, message],
  );
  const fileRows = await t.stack.sql<{ n: number }>(
    'select count(*)::int as n from submission_files where submission_id = any(?::bigint[])',
    [`{${rows.map((row) => row.id).join(',')}}`],
  );
  return { rows, files: fileRows[0]!.n };
}

/** A connection error as node-postgres reports a server that went away (admin_shutdown). */
const connectionLost = () =>
  Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01',
  });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the insert, run twice with the same id', () => {
  it.each([
    ['without files', false],
    ['with a file', true],
  ])(
    '%s stores one row (and its files once) and returns the same submission',
    async (_, withFile) => {
      const message = `twice ${withFile ? 'with' : 'without'} a file`;
      const before = await formTotals(em(), t.form.id);
      const id = await nextSubmissionId(em());
      const first = await insertSubmission(em(), id, submission(message, withFile), files);
      const second = await insertSubmission(em(), id, submission(message, withFile), files);
      expect(second).toEqual(first);
      expect(first.id).toBe(id);
      const stored = await storedWith(message);
      expect(stored.rows.map((row) => row.id)).toEqual([id]);
      expect(stored.files).toBe(withFile ? 1 : 0);
      if (withFile) expect(stored.rows[0]!.payload_json.cv).toMatchObject({ filename: 'cv.txt' });
      expect((await formTotals(em(), t.form.id)).total).toBe(before.total + 1);
    },
  );
});

describe('storeSubmission after a commit whose answer was lost', () => {
  it('without files: the retried insert finds the row', async () => {
    let dropped = false;
    await aroundStatements(t.stack.ctx.orm, async (statement, send) => {
      const result = await send();
      if (!dropped && /insert into "?submissions"?/i.test(statement.sql)) {
        dropped = true; // committed (autocommit), then the answer is lost
        throw connectionLost();
      }
      return result;
    });
    const stored = await storeSubmission(em(), submission('lost answer'), files);
    expect(dropped).toBe(true);
    expect((await storedWith('lost answer')).rows.map((row) => row.id)).toEqual([stored.id]);
  });

  it('with a file: the retried transaction finds the row and its file', async () => {
    const manager = em();
    const transactional = manager.transactional.bind(manager);
    let dropped = false;
    vi.spyOn(manager, 'transactional').mockImplementation(async (...args) => {
      const result = await transactional(...args);
      if (!dropped) {
        dropped = true; // committed, then the answer is lost
        throw connectionLost();
      }
      return result;
    });
    const usage = () =>
      t.stack.sql<{ used: string; reserved: string }>(
        'select used_bytes as used, reserved_bytes as reserved from form_file_usage where form_id = ?',
        [t.form.id],
      );
    const [before] = await usage();
    const stored = await storeSubmission(manager, submission('lost commit', true), files);
    expect(dropped).toBe(true);
    const found = await storedWith('lost commit');
    expect(found.rows.map((row) => row.id)).toEqual([stored.id]);
    expect(found.files).toBe(1);
    // The file counts once against the quota, and nothing stays reserved.
    const [after] = await usage();
    const size = Buffer.byteLength('attachment of lost commit');
    expect(Number(after!.used) - Number(before?.used ?? 0)).toBe(size);
    expect(Number(after!.reserved)).toBe(0);
  });
});
