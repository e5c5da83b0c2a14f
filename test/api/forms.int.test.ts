import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectAnswer,
  expectError,
  expectValidationError,
  rels,
  type ApiResponse,
  type FormView,
} from '../support/api-client';
import { useTestStack, type Tenant } from '../support/fixture';
import { postJson, postMultipart, submitForm, submitJson } from '../support/ingest-requests';

const t = useTestStack();

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /api/forms', () => {
  let res: ApiResponse;
  let form: FormView;

  beforeAll(async () => {
    res = await t.api.post('/api/forms', { name: 'Contact us' });
    form = expectAnswer(res, 'POST /api/forms', 201).form;
  });

  it('answers 201 with Location of the new form', () => {
    expect(form.id).toMatch(/^\d+$/);
    expect(res.headers.get('location')).toBe(`${t.stack.url}/api/forms/${form.id}`);
  });

  it('returns every Form field of the specification', () => {
    const token = form.endpoint_token;
    expect(token).toMatch(/^[a-z][a-z0-9]{15}$/);
    expect(form).toMatchObject({
      name: 'Contact us',
      success_redirect_url: null,
      is_active: true,
      accept_files: false, // new forms refuse files until turned on
      allowed_domains: [],
      notification_email_addresses: [],
      submission_url: `${t.stack.url}/f/${token}`,
      json_url: `${t.stack.url}/json/${token}`,
      autocomplete_script_url: `${t.stack.url}/f/${token}/autocomplete.js`,
      submission_count: 0,
      submission_spam_count: 0,
      last_submission_at: null,
    });
    expect(form.created_at).toMatch(ISO);
    expect(form.updated_at).toMatch(ISO);
    expect(form.help).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/docs/);
  });

  it('embed_html posts to the submission URL and has the empty _hp honeypot', () => {
    expect(form.embed_html).toContain(`action="${form.submission_url}"`);
    expect(form.embed_html).toMatch(/<input[^>]*name="_hp"[^>]*value=""/);
    expect(form.embed_html).toContain('method="POST"');
  });

  it('examples.curl is a copy-paste request to the JSON endpoint', () => {
    expect(form.examples.curl).toMatch(/^curl /);
    expect(form.examples.curl).toContain(form.json_url);
    for (const value of Object.values(form.examples)) expect(typeof value).toBe('string');
  });

  it('an endpoint token is unique per form', async () => {
    const other = await t.api.createForm({ name: 'Another' });
    expect(other.endpoint_token).not.toBe(form.endpoint_token);
    expect(other.id).not.toBe(form.id);
  });

  it('trims the name and accepts the optional fields at creation', async () => {
    const created = await t.api.createForm({
      name: '  Spaced  ',
      success_redirect_url: 'https://example.com/thanks',
      is_active: false,
      allowed_domains: ['Example.COM'],
      notification_email_addresses: ['Owner@Example.com'],
    });
    expect(created).toMatchObject({
      name: 'Spaced',
      success_redirect_url: 'https://example.com/thanks',
      is_active: false,
      allowed_domains: ['example.com'],
      notification_email_addresses: ['owner@example.com'],
    });
  });
});

describe('POST /api/forms validation', () => {
  it.each([
    ['missing name', {}, 'name'],
    ['empty name', { name: '' }, 'name'],
    ['blank name', { name: '   ' }, 'name'],
    ['numeric name', { name: 42 }, 'name'],
    ['null name', { name: null }, 'name'],
    ['too long name', { name: 'x'.repeat(201) }, 'name'],
    ['name with a NUL character', { name: 'a\u0000b' }, 'name'],
    ['is_active as string', { name: 'x', is_active: 'yes' }, 'is_active'],
    ['allowed_domains as string', { name: 'x', allowed_domains: 'a.com' }, 'allowed_domains'],
    [
      'allowed_domains with a URL',
      { name: 'x', allowed_domains: ['https://a.com/'] },
      'allowed_domains.0',
    ],
    [
      'redirect not a URL',
      { name: 'x', success_redirect_url: 'not a url' },
      'success_redirect_url',
    ],
  ])('%s → 422 validation_failed', async (_label, body, field) => {
    const res = await t.api.post('/api/forms', body);
    expectValidationError(res, field);
  });

  it('a JSON array body → 422', async () => {
    expectError(await t.api.post('/api/forms', []), 422, 'validation_failed');
  });

  it('no body at all → 422 naming the missing name', async () => {
    expectValidationError(await t.api.send('POST', '/api/forms'), 'name');
  });

  it.each([
    ['text/plain', 'name=Plain'],
    ['application/x-www-form-urlencoded', 'name=Plain'],
  ])('a %s body → 415 unsupported_media_type', async (type, body) => {
    const res = await t.api.send('POST', '/api/forms', {
      body,
      headers: { 'content-type': type },
    });
    expectError(res, 415, 'unsupported_media_type');
  });

  it('broken JSON → 400 invalid_json', async () => {
    const res = await t.api.send('POST', '/api/forms', {
      body: '{"name": "x"',
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 400, 'invalid_json');
  });

  it('a body over 1 MiB → 413 payload_too_large', async () => {
    const res = await t.api.post('/api/forms', { name: 'x'.repeat(1024 * 1024 + 10) });
    expectError(res, 413, 'payload_too_large');
  });

  it('none of the refused requests created a form', async () => {
    const list = expectAnswer(await t.api.get('/api/forms'), 'GET /api/forms', 200);
    const names = list.forms.map((f) => f.name);
    expect(names).not.toContain('Plain');
    expect(names).not.toContain('x');
  });
});

describe('GET /api/forms/{id}', () => {
  let form: FormView;

  beforeAll(async () => {
    form = await t.api.createForm({ name: 'Readable' });
    await submitJson(form, { message: 'one' });
    await submitForm(form, { message: 'two', _hp: '' });
    await submitForm(form, { message: 'spam', _hp: 'bot' });
  });

  it('by id returns the form with its counts', async () => {
    const read = expectAnswer(
      await t.api.get(`/api/forms/${form.id}`),
      'GET /api/forms/{id}',
      200,
    ).form;
    expect(read).toMatchObject({
      id: form.id,
      name: 'Readable',
      endpoint_token: form.endpoint_token,
      submission_count: 2,
      submission_spam_count: 1,
    });
    expect(read.last_submission_at).toMatch(ISO);
  });

  it('last_submission_at is the time of the newest non-spam submission', async () => {
    const res = await t.api.get(`/api/submissions?form_id=${form.id}&per_page=1`);
    const newest = expectAnswer(res, 'GET /api/submissions', 200).submissions[0]!;
    const read = expectAnswer(
      await t.api.get(`/api/forms/${form.id}`),
      'GET /api/forms/{id}',
      200,
    ).form;
    expect(read.last_submission_at).toBe(newest.created_at);
  });

  it('by endpoint token returns the same form', async () => {
    const byId = expectAnswer(await t.api.get(`/api/forms/${form.id}`), 'GET /api/forms/{id}', 200);
    const byToken = await t.api.get(`/api/forms/${form.endpoint_token}`);
    expect(expectAnswer(byToken, 'GET /api/forms/{id}', 200).form).toEqual(byId.form);
  });

  it.each(['999999999', 'nosuchtoken12345', '0', 'a%00b', '9'.repeat(25)])(
    '%s → 404 not_found',
    async (id) => {
      expectError(await t.api.get(`/api/forms/${id}`), 404, 'not_found');
    },
  );

  it('a readonly key reads the form, without update links', async () => {
    const res = await t.readonly.get(`/api/forms/${form.id}`);
    const { links } = expectAnswer(res, 'GET /api/forms/{id}', 200).form;
    expect(rels(links)).not.toContain('update');
    expect(rels(links)).not.toContain('create_plugin');
    expect(rels(links)).toContain('submissions');
    expect(
      rels(
        expectAnswer(await t.api.get(`/api/forms/${form.id}`), 'GET /api/forms/{id}', 200).form
          .links,
      ),
    ).toEqual(
      expect.arrayContaining(['update', 'create_plugin', 'submissions', 'plugins', 'stats']),
    );
  });
});

describe('PATCH /api/forms/{id}', () => {
  let form: FormView;
  const patch = (body: unknown, id: string = form.id) => t.api.patch(`/api/forms/${id}`, body);
  const patched = async (body: unknown, id?: string) =>
    expectAnswer(await patch(body, id), 'PATCH /api/forms/{id}', 200).form;
  const current = async () =>
    expectAnswer(await t.api.get(`/api/forms/${form.id}`), 'GET /api/forms/{id}', 200).form;

  beforeAll(async () => {
    form = await t.api.createForm({ name: 'Patchable' });
  });

  it('renames', async () => {
    expect((await patched({ name: 'Renamed' })).name).toBe('Renamed');
    expect((await current()).name).toBe('Renamed');
  });

  it('moves updated_at forward and keeps created_at', async () => {
    const before = await current();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const after = await patched({ name: 'Renamed again' });
    expect(after.created_at).toBe(before.created_at);
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
  });

  it('sets and clears success_redirect_url', async () => {
    const set = await patched({ success_redirect_url: 'https://example.com/thanks?x=1' });
    expect(set.success_redirect_url).toBe('https://example.com/thanks?x=1');
    const cleared = await patched({ success_redirect_url: null });
    expect(cleared.success_redirect_url).toBeNull();
  });

  it.each(['not a url', 'ftp://example.com/file', 'javascript:alert(1)'])(
    'refuses success_redirect_url %s → 422',
    async (url) => {
      expectValidationError(await patch({ success_redirect_url: url }), 'success_redirect_url');
    },
  );

  it('is_active=false makes ingest answer not_active; true re-opens it', async () => {
    const off = await patched({ is_active: false });
    expect(off.is_active).toBe(false);
    expectError(await postJson(form.json_url, { message: 'closed?' }), 404, 'not_active');
    const on = await patched({ is_active: true });
    expect(on.is_active).toBe(true);
    await submitJson(form, { message: 'open again' });
  });

  it('is_active must be a boolean', async () => {
    expectValidationError(await patch({ is_active: 'false' }), 'is_active');
  });

  it('accept_files=false refuses file parts at ingest; true takes them again', async () => {
    const off = await patched({ accept_files: false });
    expect(off.accept_files).toBe(false);
    const upload = [{ name: 'cv', filename: 'cv.txt', content: 'hello' }];
    const accept = { Accept: 'application/json' };
    expectError(await postMultipart(form.submission_url, upload, accept), 422, 'validation_failed');
    expectValidationError(await patch({ accept_files: 'no' }), 'accept_files');
    const on = await patched({ accept_files: true });
    expect(on.accept_files).toBe(true);
    expect((await postMultipart(form.submission_url, upload, accept)).status).toBe(200);
  });

  it('sets allowed_domains (normalized, de-duplicated) and empties them', async () => {
    const changed = await patched({
      allowed_domains: ['Example.com', 'forms.example.org.', 'example.com'],
    });
    expect(changed.allowed_domains).toEqual(['example.com', 'forms.example.org']);
    expect((await patched({ allowed_domains: [] })).allowed_domains).toEqual([]);
  });

  it('sets notification_email_addresses', async () => {
    const changed = await patched({
      notification_email_addresses: ['a@example.com', 'B@example.com'],
    });
    expect(changed.notification_email_addresses).toEqual(['a@example.com', 'b@example.com']);
  });

  it('refuses an invalid notification e-mail → 422 naming the entry', async () => {
    const res = await patch({ notification_email_addresses: ['ok@example.com', 'not-an-email'] });
    expectValidationError(res, 'notification_email_addresses.1');
    expect((await current()).notification_email_addresses).toEqual([
      'a@example.com',
      'b@example.com',
    ]);
  });

  it.each(['', 'nul\u0000inside'])('refuses the name %j', async (name) => {
    expectValidationError(await patch({ name }), 'name');
  });

  it('an empty object changes nothing', async () => {
    const before = await current();
    const after = await patched({});
    expect(after.name).toBe(before.name);
    expect(after.allowed_domains).toEqual(before.allowed_domains);
  });

  it('works with the endpoint token in the path', async () => {
    const byToken = await patched({ name: 'By token' }, form.endpoint_token);
    expect(byToken.id).toBe(form.id);
    expect(byToken.name).toBe('By token');
  });

  it('an unknown form → 404', async () => {
    expectError(await patch({ name: 'x' }, '987654321'), 404, 'not_found');
  });

  it('a non-JSON body → 415', async () => {
    const res = await t.api.send('PATCH', `/api/forms/${form.id}`, {
      body: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(res, 415, 'unsupported_media_type');
  });
});

describe('GET /api/forms', () => {
  it('lists only this account’s forms, newest first', async () => {
    const fresh = await t.newTenant();
    const names = ['First', 'Second', 'Third'];
    const ids: string[] = [];
    for (const name of names) ids.push((await fresh.api.createForm({ name })).id);
    const list = expectAnswer(await fresh.api.get('/api/forms'), 'GET /api/forms', 200);
    expect(list.forms.map((f) => f.id)).toEqual([...ids].reverse());
    expect(list.forms.map((f) => f.name)).toEqual(['Third', 'Second', 'First']);
    expect(list.meta.total).toBe(3);
  });

  it('an account without forms gets an empty list', async () => {
    const fresh = await t.newTenant();
    const list = expectAnswer(await fresh.api.get('/api/forms'), 'GET /api/forms', 200);
    expect(list.forms).toEqual([]);
  });

  it('list items carry the same fields as the single form', async () => {
    const fresh = await t.newTenant();
    const created = await fresh.api.createForm({ name: 'Only' });
    const list = expectAnswer(await fresh.api.get('/api/forms'), 'GET /api/forms', 200);
    const single = await fresh.api.get(`/api/forms/${created.id}`);
    expect(list.forms[0]).toEqual(expectAnswer(single, 'GET /api/forms/{id}', 200).form);
  });
});

describe('methods', () => {
  it.each([
    ['DELETE', '/api/forms', 'GET, POST'],
    ['PUT', '/api/forms', 'GET, POST'],
    ['DELETE', '/api/forms/1', 'GET, PATCH'],
    ['POST', '/api/forms/1', 'GET, PATCH'],
  ])('%s %s → 405 with Allow', async (method, path, allow) => {
    const res = await t.api.send(method, path);
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe(allow);
  });
});

describe('another account’s form', () => {
  let foreign: FormView;
  let owner: Tenant;

  beforeAll(async () => {
    owner = await t.newTenant();
    foreign = await owner.api.createForm({ name: 'Not yours' });
  });

  const attempts = (ref: string): Array<[string, string, unknown?]> => [
    ['GET', `/api/forms/${ref}`],
    ['PATCH', `/api/forms/${ref}`, { name: 'Hijacked' }],
    ['GET', `/api/forms/${ref}/plugins`],
    [
      'POST',
      `/api/forms/${ref}/plugins`,
      { plugin_type: 'webhook', config: { url: 'https://93.184.216.34/' } },
    ],
    ['GET', `/api/form_stats/${ref}`],
    ['GET', `/api/submissions?form_id=${ref}`],
    ['GET', `/api/submissions/spam?form_id=${ref}`],
  ];

  it.each(['id', 'endpoint_token'] as const)('by %s → 404 everywhere', async (field) => {
    for (const [method, path, json] of attempts(foreign[field])) {
      const res = await t.api.send(method, path, json === undefined ? {} : { json });
      expectError(res, 404, 'not_found');
    }
  });

  it('the owner’s form is unchanged and has no plugin', async () => {
    const read = await owner.api.get(`/api/forms/${foreign.id}`);
    expect(expectAnswer(read, 'GET /api/forms/{id}', 200).form.name).toBe('Not yours');
    const plugins = await owner.api.get(`/api/forms/${foreign.id}/plugins`);
    expect(expectAnswer(plugins, 'GET /api/forms/{form_id}/plugins', 200).plugins).toEqual([]);
  });

  it('the 404 looks exactly like a form that does not exist', async () => {
    const foreignRes = await t.api.get(`/api/forms/${foreign.id}`);
    const missing = await t.api.get('/api/forms/999999998');
    expect(expectError(foreignRes, 404, 'not_found')).toEqual(
      expectError(missing, 404, 'not_found'),
    );
  });
});
