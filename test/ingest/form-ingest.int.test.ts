import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import {
  contactFields,
  expectIngestResult,
  postForm,
  postMultipart,
  withoutReceipt,
} from '../support/ingest-requests';
import { countSubmissions, onlySubmission } from '../support/stored-submissions';

const t = useTestStack();

describe('POST /f/{token} (HTML forms)', () => {
  it('stores an urlencoded submission and redirects to a thank-you page', async () => {
    const form = await t.api.createForm({ name: 'Support <desk>' });
    const res = await postForm(form.submission_url, { ...contactFields, _hp: '' });
    expect(res.status).toBe(302);
    const thanksUrl = `${t.stack.url}/f/${form.endpoint_token}/thanks`;
    expect(withoutReceipt(res.headers.get('location'))).toBe(thanksUrl);

    const stored = await onlySubmission(t.stack, form.id);
    expect(stored.payload_json).toEqual(contactFields);
    expect(stored.is_spam).toBe(false);

    const thanks = await t.http.get(thanksUrl);
    expect(thanks.status).toBe(200);
    expect(thanks.headers.get('content-type')).toMatch(/^text\/html/);
    const html = thanks.text;
    expect(html).toMatch(/Thank you/i);
    expect(html).toContain('Support &lt;desk&gt;');
  });

  it('redirects to success_redirect_url when the form has one', async () => {
    const target = 'https://example.com/thanks?from=formward';
    const form = await t.api.createForm({ success_redirect_url: target });
    const res = await postForm(form.submission_url, contactFields);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(target);
    expect(await countSubmissions(t.stack, form.id)).toBe(1);
  });

  it('answers an IngestResult to a client that accepts JSON', async () => {
    const form = await t.api.createForm();
    const res = await postForm(form.submission_url, contactFields, { Accept: 'application/json' });
    const body = expectIngestResult(res, t.stack.url, form);
    expect((await onlySubmission(t.stack, form.id)).id).toBe(body.id);
  });

  it('turns repeated names into arrays and keeps single values as strings', async () => {
    const form = await t.api.createForm();
    const res = await postForm(form.submission_url, [
      ['topic', 'billing'],
      ['topic', 'bugs'],
      ['topic', 'other'],
      ['plan', 'pro'],
    ]);
    expect(res.status).toBe(302);
    const stored = await onlySubmission(t.stack, form.id);
    expect(stored.payload_json).toEqual({ topic: ['billing', 'bugs', 'other'], plan: 'pro' });
  });

  it('refuses a body type it does not take with 415 and stores nothing', async () => {
    const form = await t.api.createForm();
    const res = await t.http.send('POST', form.submission_url, {
      headers: { 'content-type': 'text/plain', accept: 'application/json' },
      body: 'email=ada@example.com',
    });
    expectError(res, 415, 'unsupported_media_type');
    expect(await countSubmissions(t.stack, form.id)).toBe(0);
  });

  it('rejects an invalid email with 422 validation_failed and stores nothing', async () => {
    const form = await t.api.createForm();
    const res = await postForm(
      form.submission_url,
      { ...contactFields, email: 'not-an-address' },
      { Accept: 'application/json' },
    );
    const body = expectError(res, 422, 'validation_failed');
    expect(body.errors).toEqual([expect.stringMatching(/^email: /)]);
    expect(await countSubmissions(t.stack, form.id)).toBe(0);
  });
});

describe('multipart uploads', () => {
  const bytes = Buffer.concat([Buffer.from([0, 255, 13, 10, 0]), randomBytes(4096)]);

  it('stores fields and files; the file url returns the exact bytes with can_read_submissions', async () => {
    const form = await t.api.createForm({ accept_files: true });
    const res = await postMultipart(form.submission_url, [
      { name: 'name', value: 'Grace' },
      { name: 'email', value: 'grace@example.com' },
      { name: '_hp', value: '' },
      { name: 'resume', filename: 'cv.bin', contentType: 'application/x-test', content: bytes },
    ]);
    expect(res.status).toBe(302);

    const stored = await onlySubmission(t.stack, form.id);
    const file = stored.payload_json.resume as Record<string, unknown>;
    expect(stored.payload_json).toEqual({
      name: 'Grace',
      email: 'grace@example.com',
      resume: {
        filename: 'cv.bin',
        content_type: 'application/x-test',
        size: bytes.length,
        url: expect.stringMatching(
          new RegExp(`^${t.stack.url}/api/submissions/${stored.id}/files/\\d+$`),
        ),
      },
    });
    const url = String(file.url);

    const reader = await t.clientFor(['can_read_submissions']);
    const download = await reader.get(url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/x-test');
    expect(download.bytes.equals(bytes)).toBe(true);

    const writer = await t.clientFor(['can_create_forms']);
    expectError(await writer.get(url), 403, 'forbidden');
    expectError(await t.http.get(url), 401, 'unauthorized');
  });

  it('ignores an empty file input', async () => {
    const form = await t.api.createForm();
    const res = await postMultipart(form.submission_url, [
      { name: 'message', value: 'no attachment' },
      { name: 'attachment', filename: '', content: '' },
    ]);
    expect(res.status).toBe(302);
    const stored = await onlySubmission(t.stack, form.id);
    expect(stored.payload_json).toEqual({ message: 'no attachment' });
    const files = await t.stack.sql('select id from submission_files where submission_id = ?', [
      stored.id,
    ]);
    expect(files).toEqual([]);
  });

  it('turns repeated multipart names, fields and files, into arrays', async () => {
    const form = await t.api.createForm({ accept_files: true });
    const res = await postMultipart(form.submission_url, [
      { name: 'color', value: 'red' },
      { name: 'color', value: 'blue' },
      { name: 'photos', filename: 'a.txt', contentType: 'text/plain', content: 'first' },
      { name: 'photos', filename: 'b.txt', contentType: 'text/plain', content: 'second!' },
    ]);
    expect(res.status).toBe(302);
    const stored = await onlySubmission(t.stack, form.id);
    expect(stored.payload_json.color).toEqual(['red', 'blue']);
    expect(stored.payload_json.photos).toEqual([
      expect.objectContaining({ filename: 'a.txt', content_type: 'text/plain', size: 5 }),
      expect.objectContaining({ filename: 'b.txt', content_type: 'text/plain', size: 7 }),
    ]);
  });
});

describe('error pages for browsers', () => {
  const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

  it.each([
    { case: 'unknown token', status: 404, form: 'missing' as const },
    { case: 'inactive form', status: 404, form: 'inactive' as const },
    { case: 'invalid email', status: 422, form: 'active' as const },
  ])('$case: an HTML page with status $status', async ({ status, form: kind }) => {
    const form =
      kind === 'missing' ? null : await t.api.createForm({ is_active: kind === 'active' });
    const url = form?.submission_url ?? `${t.stack.url}/f/doesnotexist0000`;
    const res = await postForm(url, { email: 'nope' }, { Accept: browserAccept });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = res.text;
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('Submission not accepted');
    if (form) expect(await countSubmissions(t.stack, form.id)).toBe(0);
  });
});

describe('embed assets', () => {
  it('serves the autocomplete script as JavaScript naming the token', async () => {
    const form = await t.api.createForm();
    expect(form.autocomplete_script_url).toMatch(new RegExp(`^${t.stack.url}/`));
    const res = await t.http.get(form.autocomplete_script_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^(application|text)\/javascript/);
    const script = res.text;
    expect(script).toContain(JSON.stringify(form.endpoint_token));
    expect(script).toContain(JSON.stringify(form.submission_url));
  });

  it('embed_html posts to submission_url and carries the _hp honeypot', async () => {
    const form = await t.api.createForm();
    expect(form.submission_url).toBe(`${t.stack.url}/f/${form.endpoint_token}`);
    expect(form.embed_html).toContain(`action="${form.submission_url}"`);
    expect(form.embed_html).toMatch(/<input[^>]*name="_hp"[^>]*value=""/);
  });
});
