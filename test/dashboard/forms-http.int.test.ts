import { afterAll, describe, expect, inject, it } from 'vitest';
import { expectAnswer, expectError, request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { postForm, postJson, submitJson } from '../support/ingest-requests';
import { type AppSession, openAppSession } from './dashboard-support';

// /app/forms over plain HTTP: the list with counts, create, edit with the API's validation,
// the embed snippet and examples, the test submission, deletion after a confirmation, escaping,
// CSRF, and a second account that reaches none of the first's forms.

const t = useTestStack({ worker: true, env: { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1' } });

/** The Form resource as the API reads it. */
const readForm = async (id: string) =>
  expectAnswer(await t.api.get(`/api/forms/${id}`), 'GET /api/forms/{id}', 200).form;

const receivers: HttpsReceiver[] = [];
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
});

const openApp = (email = t.email, password = t.password) =>
  openAppSession(t.stack.url, email, password);

const get = (session: AppSession, path: string) =>
  request('GET', `${t.stack.url}${path}`, { cookie: session.cookie });
const post = (session: AppSession, path: string, fields: Record<string, string> = {}) =>
  postForm(`${t.stack.url}${path}`, { _csrf: session.csrf, ...fields }, { cookie: session.cookie });

const SETTINGS = {
  name: 'Contact',
  success_redirect_url: '',
  is_active: 'on',
  accept_files: 'on',
  allowed_domains: '',
  notification_email_addresses: '',
};

/** Creates a form through the page; returns its id. */
async function createForm(session: AppSession, name: string): Promise<string> {
  const res = await post(session, '/app/forms', { ...SETTINGS, name });
  expect(res.status, res.text).toBe(303);
  return /^\/app\/forms\/(\d+)$/.exec(res.headers.get('location')!)![1]!;
}

describe('/app/forms', () => {
  it('creates a form whose page has the embed snippet and examples with copy buttons', async () => {
    const session = await openApp();
    const id = await createForm(session, 'Newsletter');
    const form = await readForm(id);
    expect(form).toMatchObject({ name: 'Newsletter', is_active: true, accept_files: true });
    const page = await get(session, `/app/forms/${id}/share`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`&lt;form action=&quot;${form.submission_url}&quot;`);
    for (const target of ['embed-html', 'example-curl', 'example-curl_form', 'example-fetch'])
      expect(page.text).toContain(`class="copy" data-copy-target="${target}"`);
    expect(page.text).toContain(`curl -X POST &#39;${form.json_url}&#39;`);
    const overview = await get(session, `/app/forms/${id}`);
    for (const rel of ['submissions', 'plugins', 'stats'])
      expect(overview.text).toContain(`href="/app/forms/${id}/${rel}"`);
  });

  it('a new form starts with uploads off, and its snippet says how to turn them on', async () => {
    const session = await openApp();
    const page = await get(session, '/app/forms/new');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<input type="checkbox" name="accept_files"> Accept file uploads/);
    const { accept_files: _, ...withoutFiles } = SETTINGS;
    const res = await post(session, '/app/forms', { ...withoutFiles, name: 'No files' });
    expect(res.status, res.text).toBe(303);
    const id = /^\/app\/forms\/(\d+)$/.exec(res.headers.get('location')!)![1]!;
    const form = await readForm(id);
    expect(form.accept_files).toBe(false);
    expect(form.embed_html).toContain('{"accept_files": true}');
    expect((await t.api.createForm({ name: 'By API' })).accept_files).toBe(false);
  });

  it('lists forms with submission and spam counts and the last submission time', async () => {
    const session = await openApp();
    const form = await t.api.createForm({ name: 'Counted' });
    await submitJson(form, { email: 'a@example.com', message: 'one' });
    await submitJson(form, { email: 'b@example.com', message: 'two' });
    await submitJson(form, { email: 'c@example.com', message: 'spam', _hp: 'filled' });
    const list = await get(session, '/app/forms');
    expect(list.status).toBe(200);
    const row = new RegExp(`<a href="/app/forms/${form.id}">Counted</a>[\\s\\S]*?</tr>`).exec(
      list.text,
    )![0];
    expect(row).toMatch(
      /<td>active<\/td>\s*<td><a [^>]+>2<\/a><\/td>\s*<td>1<\/td>\s*<td>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/td>/,
    );
  });

  it('refuses what PATCH /api/forms/{id} refuses: 422, each error next to its field', async () => {
    const session = await openApp();
    const id = await createForm(session, 'Strict');
    const res = await post(session, `/app/forms/${id}`, {
      ...SETTINGS,
      name: '',
      success_redirect_url: 'ftp://example.com/thanks',
      allowed_domains: 'example.com\nhttps://bad.example/path',
      notification_email_addresses: 'not-an-address',
    });
    expect(res.status).toBe(422);
    const errors = [...res.text.matchAll(/<p class="field-error" role="alert">([^<]*)<\/p>/g)].map(
      (m) => m[1],
    );
    expect(errors).toEqual([
      'must not be empty',
      'must be an http:// or https:// URL',
      'https://bad.example/path: must be a host name such as example.com (no scheme or path)',
      'not-an-address: must be an e-mail address',
    ]);
    expect(res.text).toContain('ftp://example.com/thanks');
    expect((await readForm(id)).name).toBe('Strict');
  });

  it('saves every updatable field', async () => {
    const session = await openApp();
    const id = await createForm(session, 'Editable');
    const res = await post(session, `/app/forms/${id}`, {
      name: 'Edited',
      success_redirect_url: 'https://example.com/thanks',
      // is_active and accept_files unticked: absent
      allowed_domains: 'Example.com\nshop.example.org, example.com',
      notification_email_addresses: 'Owner@Example.com\nowner@example.com',
    } as unknown as Record<string, string>);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/app/forms/${id}/settings`);
    const form = await readForm(id);
    expect(form).toMatchObject({
      name: 'Edited',
      success_redirect_url: 'https://example.com/thanks',
      is_active: false,
      accept_files: false,
      allowed_domains: ['example.com', 'shop.example.org'],
      notification_email_addresses: ['owner@example.com'],
    });
    // The ingest cache forgot the form: it refuses posts at once.
    expectError(await postJson(form.json_url, { email: 'x@example.com' }), 404, 'not_active');
  });

  it('shows a form name with markup as text on the list, its page and the delete page', async () => {
    const session = await openApp();
    const name = '<script>alert(1)</script><b onmouseover=alert(2)>x</b>';
    const id = await createForm(session, name);
    for (const path of ['/app/forms', `/app/forms/${id}`, `/app/forms/${id}/delete`]) {
      const page = await get(session, path);
      expect(page.status, path).toBe(200);
      expect(page.text).not.toContain('<script>alert(1)');
      expect(page.text).not.toContain('<b onmouseover');
      expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    }
  });

  it(
    'sends a test submission through the deliveries and shows each result',
    { timeout: 90_000 },
    async () => {
      const session = await openApp();
      const receiver = await startHttpsReceiver(inject('stack').certificates);
      receivers.push(receiver);
      const id = await createForm(session, 'Tested');
      const none = await post(session, `/app/forms/${id}/test`);
      expect(none.status).toBe(200);
      expect(none.text).toContain('has no webhooks');

      const plugin = await t.api.addWebhook(id, receiver.url);
      const res = await post(session, `/app/forms/${id}/test`);
      expect(res.status, res.text).toBe(200);
      expect(res.text).toMatch(
        new RegExp(`webhook <code>${plugin.id}</code></td>\\s*<td>delivered</td>\\s*<td>200</td>`),
      );
      expect(receiver.received).toHaveLength(1);
      expect(JSON.parse(receiver.received[0]!.body).data).toMatchObject({
        email: 'jane@example.com',
      });
    },
  );

  it('refuses a test submission to an inactive form: 409, nothing stored or delivered', async () => {
    const session = await openApp();
    const receiver = await startHttpsReceiver(inject('stack').certificates);
    receivers.push(receiver);
    const id = await createForm(session, 'Paused');
    await t.api.addWebhook(id, receiver.url);
    expect((await t.api.patch(`/api/forms/${id}`, { is_active: false })).status).toBe(200);
    const res = await post(session, `/app/forms/${id}/test`);
    expect(res.status).toBe(409);
    expect(res.text).toContain('This form is not active');
    expect(res.text).not.toContain('Stored as submission');
    const stored = await t.api.get(`/api/submissions?form_id=${id}&range=all`);
    expect(expectAnswer(stored, 'GET /api/submissions', 200).submissions).toEqual([]);
    expect(receiver.received).toHaveLength(0);
  });

  it('deletes a form and its submissions after a page that names the count', async () => {
    const session = await openApp();
    const id = await createForm(session, 'Doomed');
    const form = await readForm(id);
    await submitJson(form, { email: 'a@example.com', message: 'one' });
    await submitJson(form, { email: 'b@example.com', message: 'two' });
    await submitJson(form, { email: 'c@example.com', message: 'three', _hp: 'x' });
    const confirm = await get(session, `/app/forms/${id}/delete`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('its 2 submissions and 1 spam');
    const res = await post(session, `/app/forms/${id}/delete`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/app/forms');
    expect((await t.api.get(`/api/forms/${id}`)).status).toBe(404);
    const left = await t.stack.sql<{ n: string }>(
      'select count(*) as n from submissions where form_id = ?',
      [id],
    );
    expect(Number(left[0]!.n)).toBe(0);
    const ingest = await request('POST', form.json_url, { json: { email: 'x@example.com' } });
    expect(ingest.status).toBe(404);
  });

  it('a state change without the CSRF token is refused (403) and changes nothing', async () => {
    const session = await openApp();
    const id = await createForm(session, 'Guarded');
    const forged = await postForm(
      `${t.stack.url}/app/forms/${id}/delete`,
      {},
      {
        cookie: session.cookie,
      },
    );
    expect(forged.status).toBe(403);
    expect((await t.api.get(`/api/forms/${id}`)).status).toBe(200);
  });

  it("a second account reaches none of the first's forms: 404 on every page and action", async () => {
    const first = await openApp();
    const id = await createForm(first, 'First account form');
    const other = await t.newTenant();
    const second = await openApp(other.email, other.password);
    expect((await get(second, '/app/forms')).text).not.toContain('First account form');
    for (const path of [`/app/forms/${id}`, `/app/forms/${id}/delete`])
      expect((await get(second, path)).status, path).toBe(404);
    expect((await post(second, `/app/forms/${id}`, { ...SETTINGS, name: 'Taken' })).status).toBe(
      404,
    );
    expect((await post(second, `/app/forms/${id}/test`)).status).toBe(404);
    expect((await post(second, `/app/forms/${id}/delete`)).status).toBe(404);
    expect((await readForm(id)).name).toBe('First account form');
  });
});
