import { describe, expect, it } from 'vitest';
import { request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { postForm, submitJson } from '../support/ingest-requests';
import { cookieValue, hiddenCsrf, setCookie } from '../support/sign-in';
import type { AppSession } from './dashboard-support';

// The audit log of dashboard changes (docs/audit-log.md): each is recorded with the session's
// user, the client address, the action, the target and a summary, committed before the answer
// reaches the browser; refused changes and the erasure's question write nothing; /app/audit
// shows the log escaped, to owners and admins only.

// One proxy hop is trusted, so X-Forwarded-For gives each request a distinct client address.
const t = useTestStack({ env: { TRUST_PROXY: '1' } });

type Row = {
  actor_type: string;
  actor_user_id: string | null;
  actor_label: string;
  client_address: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  summary: string;
};

const rows = (action: string, accountId = t.accountId) =>
  t.stack.sql<Row>(
    `select actor_type, actor_user_id::text as actor_user_id, actor_label, client_address, action,
            target_type, target_id, summary
       from audit_events where account_id = ? and action = ? order by id`,
    [accountId, action],
  );

const userIdOf = async (email: string) =>
  (
    await t.stack.sql<{ id: string }>('select id::text as id from users where email = ?', [email])
  )[0]!.id;

/** Signs in through /login from `address`; the session and its CSRF token. */
async function signInFrom(address: string, email = t.email): Promise<AppSession> {
  const page = await request('GET', `${t.stack.url}/login`);
  const guest = `formward_login_csrf=${cookieValue(setCookie(page, 'formward_login_csrf')!)}`;
  const res = await postForm(
    `${t.stack.url}/login`,
    { email, password: t.password, _csrf: hiddenCsrf(page.text)! },
    { cookie: guest, 'x-forwarded-for': address },
  );
  expect(res.status, res.text).toBe(303);
  const cookie = `formward_session=${cookieValue(setCookie(res, 'formward_session')!)}`;
  const app = await request('GET', `${t.stack.url}/app`, { cookie });
  return { cookie, csrf: /name="csrf-token" content="([^"]+)"/.exec(app.text)![1]! };
}

const post = (
  session: AppSession,
  path: string,
  fields: Record<string, string> = {},
  address = '198.51.100.1',
) =>
  postForm(
    `${t.stack.url}${path}`,
    { _csrf: session.csrf, ...fields },
    { cookie: session.cookie, 'x-forwarded-for': address },
  );
const get = (session: AppSession, path: string, address = '198.51.100.1') =>
  request('GET', `${t.stack.url}${path}`, {
    cookie: session.cookie,
    headers: { 'x-forwarded-for': address },
  });

const SETTINGS = {
  success_redirect_url: '',
  is_active: 'on',
  allowed_domains: '',
  notification_email_addresses: '',
};

describe('dashboard changes', () => {
  it('sign-in is recorded in the account, with the user and the address', async () => {
    const before = (await rows('session.signed_in')).length;
    await signInFrom('192.0.2.44');
    const entries = await rows('session.signed_in');
    expect(entries).toHaveLength(before + 1);
    const userId = await userIdOf(t.email);
    expect(entries.at(-1)).toEqual({
      actor_type: 'user',
      actor_user_id: userId,
      actor_label: t.email,
      client_address: '192.0.2.44',
      action: 'session.signed_in',
      target_type: 'user',
      target_id: userId,
      summary: '',
    });
    // A wrong password signs nobody in: nothing is written.
    const page = await request('GET', `${t.stack.url}/login`);
    const guest = `formward_login_csrf=${cookieValue(setCookie(page, 'formward_login_csrf')!)}`;
    const wrong = await postForm(
      `${t.stack.url}/login`,
      { email: t.email, password: 'wrong password', _csrf: hiddenCsrf(page.text)! },
      { cookie: guest },
    );
    expect(wrong.status).toBe(401);
    expect(await rows('session.signed_in')).toHaveLength(before + 1);

    // Signing out is recorded for the session's user, in the account it acted in.
    const session = await signInFrom('192.0.2.45');
    const out = await post(session, '/logout', {}, '192.0.2.46');
    expect(out.status, out.text).toBe(303);
    expect(await rows('session.signed_out')).toMatchObject([
      { actor_user_id: userId, client_address: '192.0.2.46', target_id: userId },
    ]);
  });

  it('a created form is recorded with its new id before the redirect reaches the browser', async () => {
    const session = await signInFrom('192.0.2.1');
    const res = await post(
      session,
      '/app/forms',
      { ...SETTINGS, name: 'From the page' },
      '192.0.2.2',
    );
    expect(res.status, res.text).toBe(303);
    const formId = /\/app\/forms\/(\d+)$/.exec(res.headers.get('location')!)![1]!;
    // No waiting: the entry was committed before the answer was sent.
    const [entry] = await rows('form.created');
    expect(entry).toMatchObject({
      actor_type: 'user',
      actor_label: t.email,
      client_address: '192.0.2.2',
      target_type: 'form',
      target_id: formId,
      summary: 'created form “From the page”',
    });
    const updated = await post(session, `/app/forms/${formId}`, { ...SETTINGS, name: 'Renamed' });
    expect(updated.status, updated.text).toBe(303);
    expect(await rows('form.updated')).toMatchObject([{ target_id: formId }]);

    // Refused: invalid settings (422) write nothing.
    const refused = await post(session, `/app/forms/${formId}`, {
      ...SETTINGS,
      name: 'Renamed',
      success_redirect_url: 'not a url',
    });
    expect(refused.status).toBe(422);
    expect(await rows('form.updated')).toHaveLength(1);
  });

  it('revoking a key names the key; erasing records the count only after the question; export is recorded', async () => {
    const session = await signInFrom('192.0.2.3');
    const key = await t.clientFor('readonly');
    const [keyRow] = await t.stack.sql<{ id: string; name: string; prefix: string }>(
      'select id::text as id, name, prefix from api_keys where account_id = ? order by id desc limit 1',
      [t.accountId],
    );
    expect(key).toBeDefined();
    const revoked = await post(session, `/app/keys/${keyRow!.id}/revoke`, {}, '192.0.2.4');
    expect(revoked.status, revoked.text).toBe(303);
    expect(await rows('api_key.revoked')).toMatchObject([
      {
        target_type: 'api_key',
        target_id: keyRow!.id,
        client_address: '192.0.2.4',
        summary: `key “${keyRow!.name}” (${keyRow!.prefix}…)`,
      },
    ]);

    const form = await t.api.createForm({ name: 'Erasures' });
    const sender = `erase-${Date.now()}@example.com`;
    await submitJson(form, { email: sender, message: 'one' });
    await submitJson(form, { email: sender, message: 'two' });
    const question = await post(session, '/app/submissions/erase', { email: sender });
    expect(question.status).toBe(200);
    expect(await rows('submissions.erased')).toHaveLength(0);
    const erased = await post(session, '/app/submissions/erase', { email: sender, confirm: 'yes' });
    expect(erased.status).toBe(303);
    const [erasure] = await rows('submissions.erased');
    expect(erasure!.summary).toBe('erased 2 submissions of one sender');
    expect(JSON.stringify(erasure)).not.toContain(sender);

    await submitJson(form, { email: 'kept@example.com', message: 'exported' });
    const csv = await get(session, `/app/forms/${form.id}/export.csv`, '192.0.2.5');
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('exported');
    expect(await rows('submissions.exported')).toMatchObject([
      {
        target_type: 'form',
        target_id: form.id,
        client_address: '192.0.2.5',
        summary: expect.stringMatching(/^CSV export \(non-spam/) as string,
      },
    ]);
    expect(JSON.stringify(await rows('submissions.exported'))).not.toContain('kept@example.com');
  });
});

describe('/app/audit', () => {
  it('lists the entries with the filters, escaped, linked to their targets', async () => {
    const session = await signInFrom('192.0.2.6');
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const form = await t.api.createForm({ name: hostile });
    const page = await get(session, '/app/audit?target_type=form&target_id=' + form.id);
    expect(page.status, page.text).toBe(200);
    expect(page.text).not.toContain('<script>alert');
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('created form “&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).toContain(`<a href="/app/forms/${form.id}">form ${form.id}</a>`);
    expect(page.text).toContain('<code>form.created</code>');
    expect(page.text).toContain('<a href="/app/audit" aria-current="page">Audit log</a>');
    const none = await get(session, '/app/audit?action=nothing.happened');
    expect(none.text).toContain('No entries match.');
    const bad = await get(session, '/app/audit?since=yesterday');
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('From must be a date.');
  });

  it('refuses a viewer (403), who sees no link to it', async () => {
    const viewer = await t.stack.addMember(t.accountId, 'viewer');
    const session = { cookie: viewer.cookie, csrf: viewer.csrf };
    expect((await get(session, '/app/audit')).status).toBe(403);
    const home = await get(session, '/app');
    expect(home.text).not.toContain('href="/app/audit"');
  });
});
