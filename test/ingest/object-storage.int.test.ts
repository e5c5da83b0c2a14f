import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';
import { createAppContext } from '../../src/runtime/app-context';
import { expectAnswer, expectError, request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { ingestResultOf, type Part, postJson, postMultipart } from '../support/ingest-requests';
import { startS3Server, type S3Server } from '../support/s3-server';
import { countSubmissions, readSubmission } from '../support/stored-submissions';

/** The download link of an uploaded file, as payload_json holds it. */
const fileUrl = (file: unknown) => (file as { url: string }).url;

// docs/running.md, File storage: with FILE_STORAGE_URL the bytes of uploads live in an
// S3-compatible bucket (a real versitygw here), the rows keep their metadata.
const json = { Accept: 'application/json' };
const upload = (name: string, content: Buffer, contentType = 'application/octet-stream'): Part => ({
  name,
  filename: `${name}.bin`,
  contentType,
  content,
});

describe('uploads in an S3-compatible object store', () => {
  let s3: S3Server;
  beforeAll(async () => {
    s3 = await startS3Server();
  }, 600_000); // a cold `go install` of versitygw, when .ci/run did not build it first
  afterAll(() => s3?.close());
  const t = useTestStack(() => ({
    env: { ...s3.env(), FILE_QUOTA_PER_FORM: '4MiB' },
    form: { accept_files: true },
  }));

  const fileRows = (submissionId: string) =>
    t.stack.sql<{ id: string; storage_key: string | null; has_content: boolean; size: number }>(
      `select id, storage_key, content is not null as has_content, size
         from submission_files where submission_id = ? order by id`,
      [submissionId],
    );

  async function submitWithFiles(files: Part[]): Promise<string> {
    const res = await postMultipart(
      t.form.submission_url,
      [{ name: 'message', value: 'see attached' }, ...files],
      json,
    );
    expect(res.status, res.text).toBe(200);
    return ingestResultOf(res).id;
  }

  it('stores the files as objects, serves identical bytes, and deletes them with the submission', async () => {
    const photo = randomBytes(3 * 1024 * 1024 + 17);
    const note = Buffer.from('plain text\n');
    const id = await submitWithFiles([upload('photo', photo), upload('note', note, 'text/plain')]);

    const rows = await fileRows(id);
    expect(rows.map((row) => [row.has_content, Number(row.size)])).toEqual([
      [false, photo.length],
      [false, note.length],
    ]);
    const keys = rows.map((row) => row.storage_key!);
    for (const key of keys)
      expect(key).toMatch(new RegExp(`^uploads/submissions/${id}/[0-9a-f-]{36}$`));
    expect(await s3.keys()).toEqual([...keys].sort());

    const submission = await readSubmission(t.api, id);
    for (const [field, bytes] of [
      ['photo', photo],
      ['note', note],
    ] as const) {
      const download = await t.api.get(fileUrl(submission.payload_json[field]));
      expect(download.status, download.text).toBe(200);
      expect(download.headers.get('content-length')).toBe(String(bytes.length));
      expect(download.bytes.equals(bytes)).toBe(true);
    }
    expect(submission.payload_json.note).toMatchObject({
      content_type: 'text/plain',
      size: note.length,
    });

    await t.stack.sql('delete from submissions where id = ?', [id]);
    await expect.poll(() => s3.keys(), { timeout: 10_000 }).toEqual([]);
    // The sweep forgets the keys once the objects are gone (its transaction may end just after).
    const queued = () =>
      t.stack
        .sql<{ n: number }>('select count(*)::int as n from file_object_deletions')
        .then(([row]) => row!.n);
    await expect.poll(queued, { timeout: 5_000 }).toBe(0);
  });

  it('deleting a form deletes the objects of its submissions', async () => {
    const form = await t.api.createForm({ accept_files: true });
    const res = await postMultipart(form.submission_url, [upload('cv', randomBytes(1000))], json);
    expect(res.status, res.text).toBe(200);
    expect(await s3.keys()).toHaveLength(1);
    await t.stack.sql('delete from forms where id = ?', [form.id]);
    await expect.poll(() => s3.keys(), { timeout: 10_000 }).toEqual([]);
  });

  it('the storage quota counts files in the bucket as it counts rows', async () => {
    const form = await t.api.createForm({ accept_files: true });
    const first = await postMultipart(
      form.submission_url,
      [upload('a', randomBytes(3 << 20))],
      json,
    );
    expect(first.status, first.text).toBe(200);
    const before = await s3.keys();
    const second = await postMultipart(
      form.submission_url,
      [upload('b', randomBytes(2 << 20))],
      json,
    );
    expect(expectError(second, 413, 'payload_too_large').message).toMatch(/form .*4 MiB/);
    expect(await s3.keys()).toEqual(before);
  });

  it('uploads held up by a slow bucket stall no other account: its ingest and API answer meanwhile', async () => {
    const store = t.stack.ctx.fileStore;
    const realPut = store.put.bind(store);
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let writing = 0;
    store.put = async (file, owner) => {
      writing++;
      await gate;
      return realPut(file, owner);
    };
    const other = await t.newTenant();
    const otherForm = await other.api.createForm();
    const form = await t.api.createForm({ accept_files: true });
    // More uploads than the connection pool (20) has connections.
    const uploads = Array.from({ length: 25 }, (_, i) =>
      postMultipart(form.submission_url, [upload(`f${i}`, randomBytes(16 * 1024))], json),
    );
    try {
      await expect.poll(() => writing, { timeout: 10_000 }).toBeGreaterThan(0);
      // Let every upload arrive and take whatever it takes while its file is written.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const elsewhere = Promise.all([
        postJson(otherForm.json_url, { message: 'not held up' }),
        other.api.get('/api/forms'),
        t.api.get(`/api/forms/${form.id}`),
      ]);
      const outcome = await Promise.race([
        elsewhere.then(() => 'answered'),
        new Promise((resolve) => setTimeout(() => resolve('stalled'), 15_000)),
      ]);
      expect(outcome).toBe('answered');
      const [submitted, listed, read] = await elsewhere;
      expect(submitted.status, submitted.text).toBe(200);
      expect(listed.status).toBe(200);
      expect(read.status).toBe(200);
      expect(await countSubmissions(t.stack, form.id)).toBe(0); // still being written
    } finally {
      openGate();
      store.put = realPut;
    }
    for (const res of await Promise.all(uploads)) expect(res.status, res.text).toBe(200);
    expect(await countSubmissions(t.stack, form.id)).toBe(25);
  });

  it('spam keeps no objects', async () => {
    const before = await s3.keys();
    const res = await postMultipart(
      t.form.submission_url,
      [{ name: '_hp', value: 'bot' }, upload('payload', randomBytes(2048))],
      json,
    );
    expect(res.status, res.text).toBe(200);
    expect(await s3.keys()).toEqual(before);
  });

  it('readiness reports the store', async () => {
    const res = await request('GET', `${t.stack.url}/readyz`);
    expect(expectAnswer(res, 'GET /readyz', 200).checks).toMatchObject({ file_storage: 'ok' });
  });

  it('an unreachable store: ingest answers 503 unavailable, and nothing accepted is lost', async () => {
    const kept = randomBytes(64 * 1024);
    const keptId = await submitWithFiles([upload('kept', kept)]);
    const before = await countSubmissions(t.stack, t.form.id);

    await s3.stop();
    try {
      const res = await postMultipart(
        t.form.submission_url,
        [{ name: 'message', value: 'during the outage' }, upload('lost', randomBytes(4096))],
        json,
      );
      expectError(res, 503, 'unavailable');
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.text).not.toContain(s3.endpoint); // the cause is logged, not answered
      expect(await countSubmissions(t.stack, t.form.id)).toBe(before);
      const ready = await request('GET', `${t.stack.url}/readyz`);
      const { checks } = expectAnswer(ready, 'GET /readyz', 503);
      expect(checks).toMatchObject({ file_storage: 'unavailable' });
      const submission = await readSubmission(t.api, keptId);
      expectError(await t.api.get(fileUrl(submission.payload_json.kept)), 503, 'unavailable');
    } finally {
      await s3.start();
    }

    const submission = await readSubmission(t.api, keptId);
    const download = await t.api.get(fileUrl(submission.payload_json.kept));
    expect(download.status).toBe(200);
    expect(download.bytes.equals(kept)).toBe(true);
  });

  it('start-up stops with an error naming the bucket, without credentials, when it is unreachable', async () => {
    const env = s3.env();
    const config = loadConfig({
      ...env,
      FILE_STORAGE_URL: env.FILE_STORAGE_URL!.replace(/127\.0\.0\.1:\d+/, '127.0.0.1:9'),
      DATA_DIR: t.stack.config.dataDir,
      LOG_LEVEL: 'silent',
    });
    const started = createAppContext(config, {
      databaseUrl: 'postgres://unused@127.0.0.1:9/unused',
      temporalAddress: '127.0.0.1:9',
    });
    await expect(started).rejects.toThrow(
      /^FILE_STORAGE_URL: file storage s3:\/\/formward-test\/uploads\/ at http:\/\/127\.0\.0\.1:9/,
    );
    await started.catch((error: Error) => {
      expect(error.message).not.toContain(env.AWS_SECRET_ACCESS_KEY);
      expect(error.message).not.toContain(env.AWS_ACCESS_KEY_ID);
    });
  });
});
