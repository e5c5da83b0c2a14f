import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Challenge } from 'altcha-lib' with { 'resolution-mode': 'import' };
import { describe, expect, it } from 'vitest';
import { expectError, request, type FormView } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { contactFields, multipart, postMultipart } from '../support/ingest-requests';
import { onlySubmission } from '../support/stored-submissions';
import { solveAltcha } from '../support/altcha-solution';

// On a form with a CAPTCHA that accepts files, the CAPTCHA is checked at the first file part,
// before any byte of a file is written (docs/captcha.md): a file before a passing CAPTCHA is
// refused at once with 422 captcha_failed, and nothing reaches the spool directory, the
// files table or the upload reservations.

const t = useTestStack();
const MIB = 1024 * 1024;

const uploadsDir = () => path.join(t.stack.config.dataDir, 'uploads');
const spooledBytes = () =>
  fs.existsSync(uploadsDir())
    ? fs
        .readdirSync(uploadsDir())
        .reduce((sum, name) => sum + fs.statSync(path.join(uploadsDir(), name)).size, 0)
    : 0;

async function uploadForm(): Promise<FormView> {
  return t.api.createForm({
    name: 'Uploads with ALTCHA',
    accept_files: true,
    captcha: { provider: 'altcha' },
  });
}

/** A solved ALTCHA challenge of the form, as its widget fills the `altcha` field. */
async function solvedAltcha(form: FormView): Promise<string> {
  const res = await request('GET', `${t.stack.url}/f/${form.endpoint_token}/challenge`);
  return solveAltcha(res.body as Challenge);
}

/** What the storage holds for the form: file rows, kept and reserved bytes, submissions. */
async function stored(form: FormView) {
  const [row] = await t.stack.sql<{ files: string; submissions: string; bytes: string }>(
    `select (select count(*) from submission_files where form_id = ?) as files,
            (select count(*) from submissions where form_id = ?) as submissions,
            (select coalesce(sum(used_bytes + reserved_bytes), 0) from form_file_usage
              where form_id = ?) as bytes`,
    [form.id, form.id, form.id],
  );
  return {
    files: Number(row!.files),
    submissions: Number(row!.submissions),
    bytes: Number(row!.bytes),
  };
}

describe('a form with a CAPTCHA and file uploads', () => {
  it('puts the widget before where file inputs go in embed_html', async () => {
    const form = await uploadForm();
    const widget = form.embed_html.indexOf('<altcha-widget');
    expect(widget).toBeGreaterThan(0);
    expect(widget).toBeLessThan(form.embed_html.indexOf('type="file"'));
  });

  it('refuses a file sent before the CAPTCHA at once, before a byte of it is written', async () => {
    const form = await uploadForm();
    const { body, contentType } = multipart([
      { name: 'attachment', filename: 'big.bin', content: Buffer.alloc(4 * MIB, 7) },
      { name: 'altcha', value: await solvedAltcha(form) },
    ]);
    let largestSpool = 0;
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(form.submission_url, {
        method: 'POST',
        headers: {
          'content-type': contentType,
          'content-length': body.length,
          accept: 'application/json',
        },
      });
      req.on('error', () => undefined); // the server may close the rest of the upload
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      // Half the file goes out; the answer must come before the rest is even sent.
      req.write(body.subarray(0, 2 * MIB));
      const watch = setInterval(() => (largestSpool = Math.max(largestSpool, spooledBytes())), 20);
      const giveUp = setTimeout(() => {
        clearInterval(watch);
        reject(
          new Error(`no answer while the upload was half sent (spooled ${largestSpool} bytes)`),
        );
        req.destroy();
      }, 5_000);
      req.on('response', () => {
        clearTimeout(giveUp);
        clearInterval(watch);
        req.end(body.subarray(2 * MIB));
      });
    });
    expect(answer.status, answer.text).toBe(422);
    const error = JSON.parse(answer.text) as { error: string; message: string };
    expect(error.error).toBe('captcha_failed');
    expect(error.message).toMatch(/CAPTCHA must come before the files/);
    expect(largestSpool).toBe(0);
    expect(await stored(form)).toEqual({ files: 0, submissions: 0, bytes: 0 });
  });

  it('a wrong CAPTCHA before the file writes nothing; the right order with a solved one stores the file', async () => {
    const form = await uploadForm();
    const file = { name: 'attachment', filename: 'cv.txt', content: 'my cv' };
    const wrong = await postMultipart(
      form.submission_url,
      [{ name: 'altcha', value: 'not-a-solution' }, file],
      { accept: 'application/json' },
    );
    expectError(wrong, 422, 'captcha_failed');
    expect(spooledBytes()).toBe(0);
    expect(await stored(form)).toEqual({ files: 0, submissions: 0, bytes: 0 });

    const fields = Object.entries(contactFields).map(([name, value]) => ({ name, value }));
    const right = await postMultipart(
      form.submission_url,
      [...fields, { name: 'altcha', value: await solvedAltcha(form) }, file],
      { accept: 'application/json' },
    );
    expect(right.status, right.text).toBe(200);
    const submission = await onlySubmission(t.stack, form.id);
    expect(submission.payload_json.attachment).toMatchObject({ filename: 'cv.txt', size: 5 });
    expect(submission.payload_json).not.toHaveProperty('altcha');
    expect(await stored(form)).toEqual({ files: 1, submissions: 1, bytes: 5 });
  });

  it('an empty file input before the CAPTCHA is no file: the submission passes', async () => {
    const form = await uploadForm();
    const res = await postMultipart(
      form.submission_url,
      [
        { name: 'attachment', filename: '', content: '' },
        { name: 'message', value: 'no file chosen' },
        { name: 'altcha', value: await solvedAltcha(form) },
      ],
      { accept: 'application/json' },
    );
    expect(res.status, res.text).toBe(200);
    expect(await stored(form)).toEqual({ files: 0, submissions: 1, bytes: 0 });
  });
});
