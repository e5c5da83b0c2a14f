import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import {
  expectAnswer,
  expectError,
  expectValidationError,
  type FormSettings,
} from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { postForm, postJson, postMultipart } from '../support/ingest-requests';
import { countSubmissions, onlySubmission } from '../support/stored-submissions';

const t = useTestStack();

const SIGNUP_FIELDS: NonNullable<FormSettings['fields']> = [
  { name: 'name', label: 'Your name', type: 'text', required: true, max_length: 80 },
  { name: 'email', label: 'E-mail', type: 'email', required: true },
  { name: 'seats', label: 'Seats', type: 'number', min: 1, max: 20 },
  { name: 'plan', label: 'Plan', type: 'radio', required: true, options: ['Free', 'Pro'] },
  { name: 'topics', label: 'Topics', type: 'checkbox', options: ['Billing', 'Bugs'] },
  { name: 'terms', label: 'I accept the terms', type: 'checkbox', required: true },
];

const json = { Accept: 'application/json' };

describe('a form built from fields', () => {
  it('is created with its fields and shows them, page_url and schema_url in every view', async () => {
    const form = await t.api.createForm({ fields: SIGNUP_FIELDS, unknown_fields: 'drop' });
    expect(form.fields).toHaveLength(6);
    expect(form.fields![0]).toEqual({ ...SIGNUP_FIELDS[0] });
    expect(form.fields![2]).toMatchObject({ name: 'seats', required: false });
    expect(form.unknown_fields).toBe('drop');
    expect(form.page).toBeNull();
    expect(form.page_url).toBeNull();
    expect(form.schema_url).toBe(`${t.stack.url}/api/forms/${form.id}/schema`);
    const read = expectAnswer(await t.api.get(`/api/forms/${form.id}`), 'GET /api/forms/{id}', 200);
    expect(read.form.fields).toEqual(form.fields);
    const list = expectAnswer(await t.api.get('/api/forms'), 'GET /api/forms', 200);
    expect(list.forms.find((f) => f.id === form.id)?.fields).toEqual(form.fields);
  });

  it('refuses a bad field list whole, naming the field and the problem, and keeps the old one', async () => {
    const form = await t.api.createForm({ fields: SIGNUP_FIELDS });
    const bad = [
      { name: 'name', label: 'Name', type: 'text' },
      { name: 'name', label: 'Again', type: 'text' },
      { name: 'plan', label: 'Plan', type: 'select' },
      { name: '_hp', label: 'Trap', type: 'text' },
      { name: 'age', label: 'Age', type: 'number', min: 9, max: 1 },
      { name: 'kind', label: 'Kind', type: 'colour' },
      { name: 'note', label: 'Note', type: 'text', options: ['a'] },
    ];
    const res = await t.api.patch(`/api/forms/${form.id}`, { fields: bad });
    const { errors } = expectError(res, 422, 'validation_failed');
    expect(errors).toEqual(
      expect.arrayContaining([
        'fields.1.name: "name" is used by an earlier field; names must be unique',
        'fields.2.options: are required for a select field',
        expect.stringMatching(/^fields\.3\.name: is reserved/),
        'fields.4.min: must not be greater than max',
        expect.stringMatching(/^fields\.5\.type: must be one of text, email/),
        'fields.6.options: are only for select, radio and checkbox fields',
      ]),
    );
    const after = expectAnswer(
      await t.api.get(`/api/forms/${form.id}`),
      'GET /api/forms/{id}',
      200,
    );
    expect(after.form.fields).toEqual(form.fields);
  });

  it('refuses a file field on a form that does not accept files, until accept_files is set too', async () => {
    const form = await t.api.createForm();
    const fields = [{ name: 'cv', label: 'CV', type: 'file', accept: ['.pdf'] }];
    const refused = await t.api.patch(`/api/forms/${form.id}`, { fields });
    expectValidationError(refused, 'fields');
    const res = await t.api.patch(`/api/forms/${form.id}`, { fields, accept_files: true });
    expect(expectAnswer(res, 'PATCH /api/forms/{id}', 200).form.fields).toHaveLength(1);
    expectValidationError(
      await t.api.patch(`/api/forms/${form.id}`, { accept_files: false }),
      'fields',
    );
  });

  it('validates /json: 422 with errors and field_errors, nothing stored; a good post is stored typed', async () => {
    const form = await t.api.createForm({ fields: SIGNUP_FIELDS, unknown_fields: 'drop' });
    const res = await postJson(form.json_url, {
      name: ' ',
      email: 'nope',
      seats: 40,
      plan: 'Gold',
    });
    const body = expectError(res, 422, 'validation_failed');
    expect(body.field_errors).toEqual({
      name: 'is required',
      email: 'must be a valid e-mail address',
      seats: 'must be at most 20',
      plan: 'must be one of the options (got "Gold")',
      terms: 'must be checked',
    });
    expect(body.errors).toEqual(
      expect.arrayContaining(['name: is required', 'terms: must be checked']),
    );
    expect(await countSubmissions(t.stack, form.id)).toBe(0);

    const ok = await postJson(form.json_url, {
      name: 'Ada',
      email: 'Ada@Example.com',
      seats: '3',
      plan: 'Pro',
      topics: ['Bugs'],
      terms: true,
      utm: 'dropped',
    });
    expect(ok.status, ok.text).toBe(200);
    const stored = await onlySubmission(t.stack, form.id);
    expect(stored.payload_json).toEqual({
      name: 'Ada',
      email: 'Ada@Example.com',
      seats: 3,
      plan: 'Pro',
      topics: ['Bugs'],
      terms: true,
    });
  });

  it('validates /f after the honeypot: a filled _hp still looks like success and is kept as spam', async () => {
    const form = await t.api.createForm({ fields: SIGNUP_FIELDS });
    const refused = await postForm(
      form.submission_url,
      { name: 'Ada', email: 'a@b.example' },
      json,
    );
    expect(expectError(refused, 422, 'validation_failed').field_errors).toEqual({
      plan: 'is required',
      terms: 'must be checked',
    });
    const page = await postForm(form.submission_url, { name: 'Ada', email: 'a@b.example' });
    expect(page.status).toBe(422);
    expect(page.text).toContain('terms: must be checked');
    expect(await countSubmissions(t.stack, form.id)).toBe(0);

    const bot = await postForm(form.submission_url, { name: '', _hp: 'https://spam.example' });
    expect(bot.status).toBe(302);
    const spam = await onlySubmission(t.stack, form.id);
    expect([spam.is_spam, spam.spam_reason]).toEqual([true, 'honeypot']);
  });

  it.each(['drop', 'reject'] as const)(
    'stores a filled honeypot shaped by the rules: unknown_fields %s keeps no unknown name, invalid values as sent',
    async (unknownFields) => {
      const form = await t.api.createForm({ fields: SIGNUP_FIELDS, unknown_fields: unknownFields });
      const bot = { _hp: 'x', name: 'Bot', email: 'nope', seats: '99', plan: 'Pro', extra: 'junk' };
      const res = await postJson(form.json_url, bot);
      expect(res.status).toBe(200);
      const page = await postForm(form.submission_url, bot);
      expect(page.status).toBe(302);
      const rows = await t.stack.sql<{ payload_json: Record<string, unknown>; is_spam: boolean }>(
        'select payload_json, is_spam from submissions where form_id = ? order by id',
        [form.id],
      );
      const shaped = { name: 'Bot', email: 'nope', seats: '99', plan: 'Pro' };
      expect(rows).toEqual([
        { payload_json: shaped, is_spam: true },
        { payload_json: shaped, is_spam: true },
      ]);
    },
  );

  it('refuses names outside the list with unknown_fields reject', async () => {
    const form = await t.api.createForm({
      fields: [{ name: 'message', label: 'Message', type: 'textarea', required: true }],
      unknown_fields: 'reject',
    });
    const res = await postJson(form.json_url, { message: 'hi', admin: true });
    expect(expectError(res, 422, 'validation_failed').field_errors).toEqual({
      admin: 'is not a field of this form',
    });
    expect((await postJson(form.json_url, { message: 'hi', _hp: '' })).status).toBe(200);
  });

  it('checks uploaded files against accept', async () => {
    const form = await t.api.createForm({
      accept_files: true,
      fields: [
        { name: 'name', label: 'Name', type: 'text', required: true },
        {
          name: 'cv',
          label: 'CV',
          type: 'file',
          required: true,
          accept: ['application/pdf', '.pdf'],
        },
      ],
    });
    const wrong = await postMultipart(
      form.submission_url,
      [
        { name: 'name', value: 'Ada' },
        { name: 'cv', filename: 'cv.exe', contentType: 'application/x-msdownload', content: 'MZ' },
      ],
      json,
    );
    expect(expectError(wrong, 422, 'validation_failed').field_errors).toEqual({
      cv: '"cv.exe" is not an accepted type (application/pdf, .pdf)',
    });
    const right = await postMultipart(
      form.submission_url,
      [
        { name: 'name', value: 'Ada' },
        { name: 'cv', filename: 'cv.pdf', contentType: 'application/pdf', content: '%PDF-1.4' },
      ],
      json,
    );
    expect(right.status, right.text).toBe(200);
    const [file] = await t.stack.sql<{ filename: string }>(
      'select f.filename from submission_files f join submissions s on s.id = f.submission_id where s.form_id = ?',
      [form.id],
    );
    expect(file?.filename).toBe('cv.pdf');
  });

  it('publishes a JSON Schema that a real validator compiles and that matches what ingest takes', async () => {
    const form = await t.api.createForm({ fields: SIGNUP_FIELDS, unknown_fields: 'reject' });
    const res = await t.api.get(`/api/forms/${form.id}/schema`);
    const schema = expectAnswer(res, 'GET /api/forms/{id}/schema', 200);
    const ajv = new Ajv2020({ strict: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    const good = { name: 'Ada', email: 'ada@example.com', plan: 'Free', terms: true };
    expect(validate(good)).toBe(true);
    expect((await postJson(form.json_url, good)).status).toBe(200);
    const bad = { ...good, plan: 'Gold' };
    expect(validate(bad)).toBe(false);
    expect((await postJson(form.json_url, bad)).status).toBe(422);

    const free = await t.api.createForm();
    const open = expectAnswer(
      await t.api.get(`/api/forms/${free.id}/schema`),
      'GET /api/forms/{id}/schema',
      200,
    );
    expect(ajv.compile(open)({ anything: 'goes' })).toBe(true);
    expectError(await t.api.get('/api/forms/999999999/schema'), 404, 'not_found');
  });

  it('generates embed_html from the fields, escaped, with the honeypot', async () => {
    const form = await t.api.createForm({
      fields: [
        { name: 'name', label: 'Name <b>"x"</b>', type: 'text', required: true },
        { name: 'plan', label: 'Plan', type: 'select', options: ['"><script>alert(1)</script>'] },
      ],
    });
    expect(form.embed_html).toContain(
      '<label>Name &lt;b&gt;&quot;x&quot;&lt;/b&gt; <input type="text" name="name" required',
    );
    expect(form.embed_html).toContain(
      '<option value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">',
    );
    expect(form.embed_html).not.toContain('<script>alert(1)');
    expect(form.embed_html).toContain('name="_hp"');
    expect(form.embed_html).not.toContain('name="message"');
  });
});
