import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestStack } from '../support/fixture';
import { postMultipart } from '../support/ingest-requests';
import { startS3Server, type S3Server } from '../support/s3-server';
import { openAppSession } from './dashboard-support';
import { appPost } from './team-support';

// Deleting an account whose uploads live in a real S3-compatible store (versitygw): the
// objects go through the file store with the account, another account's stay.

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
}, 600_000); // a cold `go install` of versitygw
afterAll(() => s3?.close());

const t = useTestStack(() => ({ env: s3.env() }));

async function upload(submissionUrl: string, name: string) {
  const res = await postMultipart(
    submissionUrl,
    [{ name: 'cv', filename: name, contentType: 'text/plain', content: `bytes of ${name}` }],
    { accept: 'application/json' },
  );
  expect(res.status, res.text).toBe(200);
}

describe('deleting an account with files in S3', () => {
  it('deletes its objects, and only its', async () => {
    const kept = await t.api.createForm({ name: 'Kept', accept_files: true });
    await upload(kept.submission_url, 'kept.txt');
    const doomed = await t.newTenant();
    const form = await doomed.api.createForm({ name: 'Doomed', accept_files: true });
    await upload(form.submission_url, 'a.txt');
    await upload(form.submission_url, 'b.txt');
    expect(await s3.keys()).toHaveLength(3);
    const [keptKey] = await t.stack.sql<{ storage_key: string }>(
      `select f.storage_key from submission_files f join submissions s on s.id = f.submission_id
        where s.account_id = ?`,
      [t.accountId],
    );

    const session = await openAppSession(t.stack.url, doomed.email, doomed.password);
    const deleted = await appPost(t.stack.url, session, '/app/account/delete', {
      name: doomed.email,
    });
    expect(deleted.status, deleted.text).toBe(200);
    await expect.poll(() => s3.keys(), { timeout: 10_000 }).toEqual([keptKey!.storage_key]);
  });
});
