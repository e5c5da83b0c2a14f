import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contactFields,
  expectError,
  expectIngestResult,
  postForm,
  postJson,
  startIngestHarness,
  type FormView,
  type IngestHarness,
} from './helpers';

let h: IngestHarness;
let form: FormView;

beforeAll(async () => {
  h = await startIngestHarness();
  form = await h.createForm();
});
afterAll(async () => {
  await h?.stop();
});

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
    const res = await postJson(form.json_url, payload, {
      'User-Agent': 'formward-tests/1.0',
      Referer: 'https://shop.example.org/contact?x=1',
    });
    const result = await expectIngestResult(res, h.stack.url, form);

    const submission = await h.readSubmission(result.id);
    expect(submission).toMatchObject({
      id: result.id,
      form_id: form.id,
      form_endpoint_token: form.endpoint_token,
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
    const res = await postJson(form.json_url, { company: 'ACME', seats: 3 });
    const result = await expectIngestResult(res, h.stack.url, form);
    const submission = await h.readSubmission(result.id);
    expect(submission.payload_json).toEqual({ company: 'ACME', seats: 3 });
    expect(submission.special_normalized).toBeNull();
  });

  it('rejects an invalid email with 422 validation_failed and stores nothing', async () => {
    const target = await h.createForm();
    const res = await postJson(target.json_url, { ...contactFields, email: 'jane@' });
    const body = await expectError(res, 422, 'validation_failed');
    expect(body.errors).toEqual([expect.stringMatching(/^email: /)]);
    expect(await h.countSubmissions(target.id)).toBe(0);
  });

  it('answers 404 not_found for an unknown token', async () => {
    await expectError(
      await postJson(`${h.stack.url}/json/nosuchtoken00000`, contactFields),
      404,
      'not_found',
    );
  });

  it('answers 404 not_active for an inactive form on both endpoints and stores nothing', async () => {
    const target = await h.createForm();
    const patched = await h.api(`/api/forms/${target.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ is_active: false }),
    });
    expect(patched.status).toBe(200);
    await expectError(await postJson(target.json_url, contactFields), 404, 'not_active');
    await expectError(
      await postForm(target.submission_url, contactFields, { Accept: 'application/json' }),
      404,
      'not_active',
    );
    expect(await h.countSubmissions(target.id)).toBe(0);
  });

  it.each(['[{"email":"a@example.com"}]', '"hello"', '42', 'true', 'null'])(
    'rejects the non-object body %s with 422',
    async (body) => {
      const target = await h.createForm();
      await expectError(await postJson(target.json_url, body), 422, 'validation_failed');
      expect(await h.countSubmissions(target.id)).toBe(0);
    },
  );

  it('accepts only test=true: ?test=maybe is 422', async () => {
    const target = await h.createForm();
    const body = await expectError(
      await postJson(`${target.json_url}?test=maybe`, contactFields),
      422,
      'validation_failed',
    );
    expect(body.errors).toEqual([expect.stringMatching(/^test: /)]);
    expect(await h.countSubmissions(target.id)).toBe(0);
  });

  it('answers 400 invalid_json for a broken body', async () => {
    const target = await h.createForm();
    await expectError(
      await postJson(target.json_url, '{"email": "a@example.com",'),
      400,
      'invalid_json',
    );
    expect(await h.countSubmissions(target.id)).toBe(0);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded'])(
    'answers 415 unsupported_media_type for %s',
    async (type) => {
      const res = await fetch(form.json_url, {
        method: 'POST',
        headers: { 'Content-Type': type },
        body: JSON.stringify(contactFields),
      });
      await expectError(res, 415, 'unsupported_media_type');
    },
  );
});

describe('honeypot', () => {
  const bot = { ...contactFields, _hp: 'http://spam.example' };

  it('on /json: answers like a success, stores as spam without _hp', async () => {
    const target = await h.createForm();
    const human = await expectIngestResult(
      await postJson(target.json_url, contactFields),
      h.stack.url,
      target,
    );
    const spam = await expectIngestResult(
      await postJson(target.json_url, bot),
      h.stack.url,
      target,
    );
    expect(Object.keys(spam).sort()).toEqual(Object.keys(human).sort());

    const stored = await h.readSubmission(spam.id);
    expect(stored).toMatchObject({ is_spam: true, spam_reason: 'honeypot' });
    expect(stored.payload_json).toEqual(contactFields);
    expect(stored.payload_json).not.toHaveProperty('_hp');
    expect((await h.readSubmission(human.id)).is_spam).toBe(false);
  });

  it('on /f: the same redirect as a success, stored as spam without _hp', async () => {
    const target = await h.createForm();
    const human = await postForm(target.submission_url, { ...contactFields, _hp: '' });
    const spam = await postForm(target.submission_url, bot);
    expect(spam.status).toBe(302);
    expect(spam.status).toBe(human.status);
    expect(spam.headers.get('location')).toBe(human.headers.get('location'));
    expect(await spam.text()).toBe(await human.text());

    const rows = await h.stack.sql<{
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
