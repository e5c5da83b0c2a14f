import { describe, expect, it } from 'vitest';
import { expectError } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import {
  contactFields,
  expectIngestResult,
  postForm,
  postJson,
  withoutReceipt,
} from '../support/ingest-requests';
import { countSubmissions, onlySubmission, readSubmission } from '../support/stored-submissions';

const t = useTestStack({ form: {} });

describe('POST /json/{token}', () => {
  it('stores the object with its JSON types, normalized specials and request metadata', async () => {
    const payload = {
      email: '  Jane.Doe@Example.COM ',
      name: '  Jane Doe ',
      message: '\n Hello there \t',
      age: 42,
      ratio: 0.5,
      subscribed: true,
      nothing: null,
      tags: ['a', 1, false],
      address: { city: 'Lyon', zip: '69001' },
    };
    const res = await postJson(t.form.json_url, payload, {
      'User-Agent': 'formward-tests/1.0',
      Referer: 'https://shop.example.org/contact?x=1',
    });
    const result = expectIngestResult(res, t.stack.url, t.form);

    const submission = await readSubmission(t.api, result.id);
    expect(submission).toMatchObject({
      id: result.id,
      form_id: t.form.id,
      form_endpoint_token: t.form.endpoint_token,
      payload_json: payload,
      special_normalized: {
        email: 'jane.doe@example.com',
        name: 'Jane Doe',
        message: 'Hello there',
      },
      source_ip: '127.0.0.1',
      user_agent: 'formward-tests/1.0',
      referrer: 'https://shop.example.org/contact?x=1',
      is_spam: false,
    });
    expect(submission.payload_json).toStrictEqual(payload);
  });

  it('special_normalized is null when none of email, name, message came', async () => {
    const res = await postJson(t.form.json_url, { company: 'ACME', seats: 3 });
    const result = expectIngestResult(res, t.stack.url, t.form);
    const submission = await readSubmission(t.api, result.id);
    expect(submission.payload_json).toEqual({ company: 'ACME', seats: 3 });
    expect(submission.special_normalized).toBeNull();
  });

  it('rejects an invalid email with 422 validation_failed and stores nothing', async () => {
    const target = await t.api.createForm();
    const res = await postJson(target.json_url, { ...contactFields, email: 'jane@' });
    const body = expectError(res, 422, 'validation_failed');
    expect(body.errors).toEqual([expect.stringMatching(/^email: /)]);
    expect(await countSubmissions(t.stack, target.id)).toBe(0);
  });

  it('answers 404 not_found for an unknown token', async () => {
    expectError(
      await postJson(`${t.stack.url}/json/nosuchtoken00000`, contactFields),
      404,
      'not_found',
    );
  });

  it('answers 404 not_active for an inactive form on both endpoints and stores nothing', async () => {
    const target = await t.api.createForm();
    const patched = await t.api.patch(`/api/forms/${target.id}`, { is_active: false });
    expect(patched.status).toBe(200);
    expectError(await postJson(target.json_url, contactFields), 404, 'not_active');
    expectError(
      await postForm(target.submission_url, contactFields, { Accept: 'application/json' }),
      404,
      'not_active',
    );
    expect(await countSubmissions(t.stack, target.id)).toBe(0);
  });

  it.each(['[{"email":"a@example.com"}]', '"hello"', '42', 'true', 'null'])(
    'rejects the non-object body %s with 422',
    async (body) => {
      const target = await t.api.createForm();
      expectError(await postJson(target.json_url, body), 422, 'validation_failed');
      expect(await countSubmissions(t.stack, target.id)).toBe(0);
    },
  );

  it('accepts only test=true: ?test=maybe is 422', async () => {
    const target = await t.api.createForm();
    const body = expectError(
      await postJson(`${target.json_url}?test=maybe`, contactFields),
      422,
      'validation_failed',
    );
    expect(body.errors).toEqual([expect.stringMatching(/^test: /)]);
    expect(await countSubmissions(t.stack, target.id)).toBe(0);
  });

  it('answers 400 invalid_json for a broken body', async () => {
    const target = await t.api.createForm();
    expectError(await postJson(target.json_url, '{"email": "a@example.com",'), 400, 'invalid_json');
    expect(await countSubmissions(t.stack, target.id)).toBe(0);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded'])(
    'answers 415 unsupported_media_type for %s',
    async (type) => {
      const res = await t.http.send('POST', t.form.json_url, {
        headers: { 'content-type': type },
        body: JSON.stringify(contactFields),
      });
      expectError(res, 415, 'unsupported_media_type');
    },
  );
});

describe('honeypot', () => {
  const bot = { ...contactFields, _hp: 'http://spam.example' };

  it('on /json: answers like a success, stores as spam without _hp', async () => {
    const target = await t.api.createForm();
    const human = expectIngestResult(
      await postJson(target.json_url, contactFields),
      t.stack.url,
      target,
    );
    const spam = expectIngestResult(await postJson(target.json_url, bot), t.stack.url, target);
    expect(Object.keys(spam).sort()).toEqual(Object.keys(human).sort());

    const stored = await readSubmission(t.api, spam.id);
    expect(stored).toMatchObject({ is_spam: true, spam_reason: 'honeypot' });
    expect(stored.payload_json).toEqual(contactFields);
    expect(stored.payload_json).not.toHaveProperty('_hp');
    expect((await readSubmission(t.api, human.id)).is_spam).toBe(false);
  });

  it('on /json: whatever else the post holds (an invalid email, NUL, a lone surrogate), 200 and stored as spam', async () => {
    const target = await t.api.createForm();
    const body = `{"_hp":"x","email":"not-an-address","name":" Bot ","nul":"a\\u0000b","lone":"\\ud800"}`;
    const spam = expectIngestResult(await postJson(target.json_url, body), t.stack.url, target);
    const stored = await readSubmission(t.api, spam.id);
    expect(stored).toMatchObject({ is_spam: true, spam_reason: 'honeypot' });
    // What cannot be stored is left out; the invalid e-mail is kept but not normalised.
    expect(stored.payload_json).toEqual({ email: 'not-an-address', name: ' Bot ' });
    expect(stored.special_normalized).toEqual({ name: 'Bot' });
  });

  it('on /f: an invalid email still gets the redirect of a success', async () => {
    const target = await t.api.createForm();
    const spam = await postForm(target.submission_url, { _hp: 'x', email: 'not-an-address' });
    expect(spam.status).toBe(302);
    expect(withoutReceipt(spam.headers.get('location'))).toMatch(/\/thanks$/);
    expect(await onlySubmission(t.stack, target.id)).toMatchObject({
      is_spam: true,
      payload_json: { email: 'not-an-address' },
    });
  });

  it('on /f: the same redirect as a success, stored as spam without _hp', async () => {
    const target = await t.api.createForm();
    const human = await postForm(target.submission_url, { ...contactFields, _hp: '' });
    const spam = await postForm(target.submission_url, bot);
    expect(spam.status).toBe(302);
    expect(spam.status).toBe(human.status);
    // Each carries its own receipt (docs/receipts.md); the rest is the same.
    const location = (res: typeof spam) => withoutReceipt(res.headers.get('location'));
    expect(location(spam)).toBe(location(human));
    const text = (res: typeof spam) => res.text.replace(/\?receipt=[\w.-]+/g, '');
    expect(text(spam)).toBe(text(human));

    const rows = await t.stack.sql<{
      payload_json: unknown;
      is_spam: boolean;
      spam_reason: string | null;
    }>('select payload_json, is_spam, spam_reason from submissions where form_id = ? order by id', [
      target.id,
    ]);
    expect(rows).toEqual([
      { payload_json: contactFields, is_spam: false, spam_reason: null },
      { payload_json: contactFields, is_spam: true, spam_reason: 'honeypot' },
    ]);
  });
});
