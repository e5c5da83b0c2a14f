import { describe, expect, it } from 'vitest';
import { expectError } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { ingestResultOf, type Part, postJson, postMultipart } from '../support/ingest-requests';
import type { TestStack } from '../support/test-stack';
import { countSubmissions, onlySubmission } from '../support/stored-submissions';

// docs/api-conventions.md (Ingest, Limits): accept_files, the 1 MiB cap on a submission's
// fields, spam keeps no files, and the storage quotas for uploaded files.
const KIB = 1024;
const json = { Accept: 'application/json' };

const file = (name: string, size: number): Part => ({
  name,
  filename: `${name}.bin`,
  contentType: 'application/octet-stream',
  content: Buffer.alloc(size, 7),
});

async function storedFiles(stack: TestStack, formId: string): Promise<number> {
  const [row] = await stack.sql<{ n: number }>(
    `select count(*)::int as n from submission_files f
       join submissions s on s.id = f.submission_id where s.form_id = ?`,
    [formId],
  );
  return row!.n;
}

describe('uploads', () => {
  const t = useTestStack();

  it('accept_files=false refuses a file part with 422 and stores nothing', async () => {
    const form = await t.api.createForm({ accept_files: false });
    expect(form.accept_files).toBe(false);
    const res = await postMultipart(
      form.submission_url,
      [{ name: 'message', value: 'hello' }, file('resume', 100)],
      json,
    );
    const body = expectError(res, 422, 'validation_failed');
    expect(body.errors).toEqual([expect.stringMatching(/^resume: .*files/)]);
    expect(await countSubmissions(t.stack, form.id)).toBe(0);
    expect(await storedFiles(t.stack, form.id)).toBe(0);
  });

  it('accept_files=false still takes multipart fields and an empty file input', async () => {
    const form = await t.api.createForm({ accept_files: false });
    const res = await postMultipart(form.submission_url, [
      { name: 'message', value: 'no attachment' },
      { name: 'attachment', filename: '', content: '' },
    ]);
    expect(res.status, res.text).toBe(302);
    expect((await onlySubmission(t.stack, form.id)).payload_json).toEqual({
      message: 'no attachment',
    });
  });

  it('a honeypot-flagged submission is stored as spam without its files', async () => {
    const form = await t.api.createForm({ accept_files: true });
    const res = await postMultipart(form.submission_url, [
      { name: 'message', value: 'buy now' },
      { name: '_hp', value: 'gotcha' },
      file('payload', 4 * KIB),
    ]);
    expect(res.status).toBe(302);
    const stored = await onlySubmission(t.stack, form.id);
    expect(stored.is_spam).toBe(true);
    expect(stored.payload_json).toEqual({ message: 'buy now' });
    expect(await storedFiles(t.stack, form.id)).toBe(0);
  });

  describe('the fields of a submission, files aside, are at most 1 MiB', () => {
    // Each value under the 100 KiB value limit, 11 of them over 1 MiB in all.
    const fields = Object.fromEntries(
      Array.from({ length: 11 }, (_, i) => [`f${i}`, 'x'.repeat(100_000)]),
    );

    it('multipart fields over 1 MiB → 413, nothing stored', async () => {
      const form = await t.api.createForm();
      const parts = Object.entries(fields).map(([name, value]) => ({ name, value }));
      const res = await postMultipart(form.submission_url, parts, json);
      const body = expectError(res, 413, 'payload_too_large');
      expect(body.message).toContain('1 MiB');
      expect(await countSubmissions(t.stack, form.id)).toBe(0);
    });

    it('JSON fields over 1 MiB → 413', async () => {
      const form = await t.api.createForm();
      expectError(await postJson(form.json_url, fields), 413, 'payload_too_large');
    });

    it('a 10-field multipart submission of 1 MB with a 100 KiB file is accepted', async () => {
      const form = await t.api.createForm({ accept_files: true });
      const parts = Object.entries(fields)
        .slice(0, 10)
        .map(([name, value]) => ({ name, value }));
      const res = await postMultipart(form.submission_url, [...parts, file('f', 100 * KIB)], json);
      expect(res.status, res.text).toBe(200);
    });
  });
});

describe('storage quotas for uploaded files', () => {
  const t = useTestStack({
    env: { FILE_QUOTA_PER_FORM: '10KiB', FILE_QUOTA_PER_ACCOUNT: '16KiB' },
  });

  it('refuses an upload past the form quota with 413 naming the limit, before storing', async () => {
    const form = await t.api.createForm({ accept_files: true });
    const first = await postMultipart(form.submission_url, [file('a', 6 * KIB)], json);
    expect(first.status, first.text).toBe(200);
    const second = await postMultipart(form.submission_url, [file('b', 5 * KIB)], json);
    const body = expectError(second, 413, 'payload_too_large');
    expect(body.message).toMatch(/form.*10 KiB/);
    expect(await countSubmissions(t.stack, form.id)).toBe(1);
    expect(await storedFiles(t.stack, form.id)).toBe(1);
    // Fields alone still go through: the quota is about files.
    const text = await postMultipart(form.submission_url, [{ name: 'm', value: 'hi' }], json);
    expect(text.status, text.text).toBe(200);
  });

  it("refuses an upload past the account's quota across its forms", async () => {
    const tenant = await t.newTenant();
    const one = await tenant.api.createForm({ accept_files: true });
    const two = await tenant.api.createForm({ accept_files: true });
    const first = await postMultipart(one.submission_url, [file('a', 9 * KIB)], json);
    expect(first.status, first.text).toBe(200);
    const second = await postMultipart(two.submission_url, [file('b', 8 * KIB)], json);
    const body = expectError(second, 413, 'payload_too_large');
    expect(body.message).toMatch(/account.*16 KiB/);
    expect(await countSubmissions(t.stack, two.id)).toBe(0);
  });

  /** Bytes of the form's stored files, and the counters the quota is reserved from. */
  async function kept(formId: string, accountId: string) {
    const [row] = await t.stack.sql<{ files: string; form: string; account: string }>(
      `select (select coalesce(sum(size), 0) from submission_files where form_id = ?) as files,
              (select used_bytes + reserved_bytes from form_file_usage where form_id = ?) as form,
              (select used_bytes + reserved_bytes from account_file_usage where account_id = ?)
                as account`,
      [formId, formId, accountId],
    );
    return { files: Number(row!.files), form: Number(row!.form), account: Number(row!.account) };
  }

  it('parallel uploads near the quota never pass it; the refused get 413 and store nothing', async () => {
    const tenant = await t.newTenant();
    const form = await tenant.api.createForm({ accept_files: true });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        postMultipart(
          form.submission_url,
          [{ name: 'n', value: String(i) }, file('f', 3 * KIB)],
          json,
        ),
      ),
    );
    const stored = answers.filter((res) => res.status === 200);
    for (const res of answers.filter((answer) => answer.status !== 200))
      expectError(res, 413, 'payload_too_large');
    // 10 KiB a form: three 3 KiB uploads fit, a fourth would not.
    expect(stored).toHaveLength(3);
    expect(await countSubmissions(t.stack, form.id)).toBe(3);
    expect(await kept(form.id, tenant.accountId)).toEqual({
      files: 9 * KIB,
      form: 9 * KIB,
      account: 9 * KIB,
    });

    // The account's 16 KiB across its forms holds under the same race.
    const second = await tenant.api.createForm({ accept_files: true });
    const more = await Promise.all(
      Array.from({ length: 8 }, () =>
        postMultipart(second.submission_url, [file('g', 2 * KIB)], json),
      ),
    );
    expect(more.filter((res) => res.status === 200)).toHaveLength(3);
    expect((await kept(second.id, tenant.accountId)).files).toBe(6 * KIB);
    expect((await kept(second.id, tenant.accountId)).account).toBe(15 * KIB);
  });

  it('deleting a submission gives its bytes back to the quota', async () => {
    const tenant = await t.newTenant();
    const form = await tenant.api.createForm({ accept_files: true });
    const first = await postMultipart(form.submission_url, [file('a', 8 * KIB)], json);
    expect(first.status, first.text).toBe(200);
    expectError(
      await postMultipart(form.submission_url, [file('b', 8 * KIB)], json),
      413,
      'payload_too_large',
    );
    // As the dashboard's delete and retention do: the file rows go by cascade.
    await t.stack.sql('delete from submissions where id = ?', [ingestResultOf(first).id]);
    expect(await kept(form.id, tenant.accountId)).toEqual({ files: 0, form: 0, account: 0 });
    const again = await postMultipart(form.submission_url, [file('b', 8 * KIB)], json);
    expect(again.status, again.text).toBe(200);
  });
});

describe('many large uploads to one account, files kept in PostgreSQL', () => {
  const t = useTestStack();

  it("another account's submission is answered while they are written, not after them", async () => {
    const other = await t.newTenant();
    const otherForm = await other.api.createForm();
    const form = await t.api.createForm({ accept_files: true });
    // Nearly twice as many uploads as the connection pool (20) has connections, 2 MiB each.
    let answered = 0;
    const uploads = Array.from({ length: 36 }, (_, i) =>
      postMultipart(form.submission_url, [file(`f${i}`, 2 * 1024 * KIB)], json).then((res) => {
        answered++;
        return res;
      }),
    );
    await Promise.race(uploads);
    const submitted = await postJson(otherForm.json_url, { message: 'not held up' });
    const listed = await other.api.get('/api/forms');
    const uploadsAnsweredBefore = answered;
    expect(submitted.status, submitted.text).toBe(200);
    expect(listed.status).toBe(200);
    for (const res of await Promise.all(uploads)) expect(res.status, res.text).toBe(200);
    // Uploads take turns writing (UPLOAD_WRITE_CONCURRENCY), leaving connections to others:
    // most were still being written. Had they held the pool (20), the answer would have
    // waited for at least 36 - 20 + 1 = 17 of them.
    expect(uploadsAnsweredBefore).toBeLessThan(12);
    expect(await countSubmissions(t.stack, form.id)).toBe(36);
  });
});
