import { afterAll, describe, expect, inject, it } from 'vitest';
import { expectAnswer, request, type ApiResponse } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { submitJson } from '../support/ingest-requests';
import { signIn } from '../support/sign-in';
import { waitForAttempts } from '../support/delivery-attempts';
import { followReveal } from './dashboard-support';

// The plugins page with webhooks, the delivery-log and stats pages over plain HTTP: the API's URL rules, secrets
// shown once, enable / disable / rotate / delete, the log with the stored answer as text,
// replay, the stats numbers, CSRF, and a second account that sees none of it.

const MARKUP = '<script>alert("x")</script><img src=x onerror=alert(1)>';
const receivers: HttpsReceiver[] = [];
const t = useTestStack({
  worker: true,
  form: { name: `Form ${MARKUP}` },
  env: {
    WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
    WEBHOOK_RETRY_INITIAL_INTERVAL: '1s',
    WEBHOOK_RETRY_BACKOFF_COEFFICIENT: '1',
    TEMPORAL_UI_URL: 'http://temporal-ui.test:8233/',
  },
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

/** A signed-in browser without JavaScript: the session cookie and the page's CSRF token. */
async function session(email = t.email, password = t.password) {
  const cookie = await signIn(t.stack.url, email, password);
  const page = await request('GET', `${t.stack.url}/app`, { cookie });
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(page.text)![1]!;
  return {
    get: (path: string) => request('GET', `${t.stack.url}${path}`, { cookie }),
    /** The page a secret-revealing post redirects to, fetched as a browser would. */
    follow: (posted: ApiResponse) => followReveal(t.stack.url, cookie, posted),
    post: (path: string, fields: Record<string, string> = {}, token: string | null = csrf) =>
      request('POST', `${t.stack.url}${path}`, {
        cookie,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(token === null ? fields : { _csrf: token, ...fields }).toString(),
      }),
  };
}
type Session = Awaited<ReturnType<typeof session>>;

const secretOn = (page: ApiResponse) => /id="signing-secret">(whsec_[^<]+)</.exec(page.text)?.[1];

async function receiver(status = 200, body = '{"ok":true}') {
  const started = await startHttpsReceiver(inject('stack').certificates, () => ({ status, body }));
  receivers.push(started);
  return started;
}

/** Creates a webhook through the page; returns its id and the secret the page showed. */
async function createWebhook(s: Session, url: string, name = '', formId = t.form.id) {
  const posted = await s.post(`/app/forms/${formId}/plugins`, { type: 'webhook', url, name });
  const { page: created } = await s.follow(posted);
  const secret = secretOn(created);
  expect(secret).toMatch(/^whsec_/);
  const res = await t.api.get(`/api/forms/${formId}/plugins?per_page=100`);
  const { plugins } = expectAnswer(res, 'GET /api/forms/{form_id}/plugins', 200);
  const plugin = plugins.find((p) => (p.config as { url?: string }).url === url);
  return { id: plugin!.id, secret: secret!, page: created };
}

describe('webhooks on the plugins page', () => {
  it('creates a webhook and shows its secret once, never again', async () => {
    const s = await session();
    const hook = await receiver();
    const { id, secret, page } = await createWebhook(s, `${hook.url}/in`, `Hook ${MARKUP}`);
    expect(page.text).not.toContain(MARKUP);
    expect(page.text).toContain('Hook &lt;script&gt;');
    expect(page.text).toContain("req.get('x-service-signature')");
    const later = await s.get(`/app/forms/${t.form.id}/plugins`);
    expect(later.status).toBe(200);
    expect(later.text).toContain(`/plugins/${id}/deliveries`);
    expect(later.text).not.toContain(secret);
    expect(secretOn(later)).toBeUndefined();
  });

  it.each([
    ['http://example.com/hook', 'must use https://'],
    ['https://10.0.0.1/hook', 'is not public'],
    ['not a url', 'must be an absolute URL'],
  ])('refuses %s as the API does (422, the reason shown)', async (url, reason) => {
    const s = await session();
    const res = await s.post(`/app/forms/${t.form.id}/plugins`, { type: 'webhook', url });
    expect(res.status).toBe(422);
    expect(res.text).toContain(reason);
    expect(res.text).toContain(`value="${url}"`);
  });

  it("refuses this service's own origin (a loop)", async () => {
    const s = await session();
    const res = await s.post(`/app/forms/${t.form.id}/plugins`, {
      type: 'webhook',
      url: `${t.stack.url.replace('http:', 'https:')}/f/abc`,
    });
    expect(res.status).toBe(422);
    expect(res.text).toContain('in a loop');
  });

  it('disables, enables, rotates (old secret gone, new one shown once) and deletes', async () => {
    const s = await session();
    const hook = await receiver();
    const { id, secret } = await createWebhook(s, `${hook.url}/rotate`);
    const base = `/app/forms/${t.form.id}/plugins/${id}`;
    const state = async () =>
      expectAnswer(
        await t.api.get(`/api/forms/${t.form.id}/plugins/${id}`),
        'GET /api/forms/{form_id}/plugins/{id}',
        200,
      );

    const disabled = await s.post(`${base}/disable`);
    expect(disabled.status).toBe(303);
    expect(disabled.headers.get('location')).toBe(`/app/forms/${t.form.id}/plugins`);
    expect((await state()).plugin.enabled).toBe(false);
    expect(disabled.headers.getSetCookie().join()).toContain('formward_flash=webhook_disabled');
    expect((await state()).plugin.disabled_reason).toBe('disabled by the account');
    expect((await s.get(`/app/forms/${t.form.id}/plugins`)).text).toContain(
      'disabled by the account',
    );
    // As endpoint health leaves a plugin it disabled (docs/endpoint-health.md).
    await t.stack.sql(
      `update plugins set consecutive_failures = 5, failing_since = now(),
         disabled_reason = '5 consecutive deliveries failed since then' where id = ?`,
      [id],
    );
    const failing = (await s.get(`/app/forms/${t.form.id}/plugins`)).text;
    expect(failing).toContain('5 consecutive deliveries failed since then');
    expect(failing).toContain('5 failed in a row since');
    expect(failing).toContain('last success: never');
    await s.post(`${base}/enable`);
    expect((await state()).plugin).toMatchObject({
      enabled: true,
      disabled_reason: null,
      consecutive_failures: 0,
    });

    const { page: rotated } = await s.follow(await s.post(`${base}/rotate`));
    const fresh = secretOn(rotated);
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    expect(rotated.text).toContain('The old secret stopped working');
    const reload = await s.get(`/app/forms/${t.form.id}/plugins`);
    expect(secretOn(reload)).toBeUndefined();
    expect(reload.text).not.toContain(fresh);

    expect((await s.post(`${base}/delete`)).status).toBe(303);
    expect((await t.api.get(`/api/forms/${t.form.id}/plugins/${id}`)).status).toBe(404);
    expect((await s.post(`${base}/enable`)).status).toBe(404);
  });

  it('refuses every state change without the CSRF token', async () => {
    const s = await session();
    const hook = await receiver();
    const { id } = await createWebhook(s, `${hook.url}/csrf`);
    const base = `/app/forms/${t.form.id}/plugins`;
    const fields = { type: 'webhook', url: `${hook.url}/other` };
    expect((await s.post(base, fields, null)).status).toBe(403);
    expect((await s.post(base, fields, 'forged')).status).toBe(403);
    for (const action of ['disable', 'rotate', 'delete']) {
      expect((await s.post(`${base}/${id}/${action}`, {}, null)).status).toBe(403);
    }
    const read = await t.api.get(`/api/forms/${t.form.id}/plugins/${id}`);
    expect(expectAnswer(read, 'GET /api/forms/{form_id}/plugins/{id}', 200).plugin.enabled).toBe(
      true,
    );
  });
});

describe('delivery log', () => {
  it(
    'shows every attempt with the stored answer as text, links to Temporal, and replays',
    { timeout: 120_000 },
    async () => {
      const s = await session();
      const hook = await receiver(500, `<b>${MARKUP}</b>`);
      const form = await t.api.createForm({ name: 'Delivery log' });
      const { id } = await createWebhook(s, `${hook.url}/log`, '', form.id);
      const submissionId = await submitJson(form, { message: 'Deliver me' });
      const attempts = await waitForAttempts(t.stack, submissionId, 4, 60_000);
      expect(attempts.every((a) => a.status !== 'succeeded')).toBe(true);

      const log = await s.get(`/app/submissions/${submissionId}/deliveries`);
      expect(log.status).toBe(200);
      expect(log.text).not.toContain(MARKUP);
      expect(log.text).toContain('&lt;b&gt;&lt;script&gt;');
      expect(log.text).toContain('<td>500</td>');
      // Three failures that were retried, then the last one.
      expect((log.text.match(/<td>pending retry<\/td>/g) ?? []).length).toBe(3);
      expect((log.text.match(/<td>failed<\/td>/g) ?? []).length).toBe(1);
      expect(log.text).toContain(
        'http://temporal-ui.test:8233/namespaces/default/workflows/submission-',
      );
      expect(log.text).toContain('/history');

      const perHook = await s.get(`/app/forms/${form.id}/plugins/${id}/deliveries`);
      expect(perHook.status).toBe(200);
      expect(perHook.text).toContain(`/app/submissions/${submissionId}/deliveries`);

      const replay = await s.post(`/app/submissions/${submissionId}/replay`);
      expect(replay.status).toBe(303);
      expect(replay.headers.get('location')).toBe(`/app/submissions/${submissionId}/deliveries`);
      const after = await waitForAttempts(t.stack, submissionId, 5, 60_000);
      expect(after.at(-1)!.is_replay).toBe(true);
      expect(replay.headers.getSetCookie().join()).toContain('formward_flash=replay_started');
      const replayed = await s.get(`/app/submissions/${submissionId}/deliveries`);
      expect(replayed.text).toContain('>replay</span>');
      expect((await s.post(`/app/submissions/${submissionId}/replay`, {}, null)).status).toBe(403);
    },
  );
});

describe('stats pages', () => {
  it('show the API numbers as tables, the 30-day series, and escape form names', async () => {
    const s = await session();
    const account = await s.get('/app/stats');
    expect(account.status).toBe(200);
    const api = expectAnswer(await s.get('/api/stats'), 'GET /api/stats', 200); // session-only, like the page
    expect(account.text).toContain(`<tr><th>Forms</th><td>${api.stats.totalForms}</td></tr>`);
    expect(account.text).not.toContain(MARKUP);
    expect(account.text).toContain('Form &lt;script&gt;');
    expect(account.text).toMatch(/data-series="\{&quot;dates&quot;:\[&quot;\d{4}-\d\d-\d\d&quot;/);
    expect(account.text).not.toMatch(/<script(?![^>]*\bsrc=)/);

    const hook = await receiver();
    const statsForm = await t.api.createForm({ name: 'Stats form' });
    await createWebhook(s, `${hook.url}/stats`, '', statsForm.id);
    const submissionId = await submitJson(statsForm, { message: 'Count me' });
    await waitForAttempts(t.stack, submissionId, 1);
    const form = await s.get(`/app/forms/${statsForm.id}/stats`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<tr><th>Submissions (all time)</th><td>1</td></tr>');
    expect(form.text).toContain('delivery attempts succeeded (1 of 1)');
    const today = new Date().toISOString().slice(0, 10);
    // day, submissions, spam, deliveries succeeded, failed, median, 95th percentile
    expect(form.text).toMatch(
      new RegExp(`<tr><td>${today}</td><td>1</td><td>0</td><td>1</td><td>0</td><td>\\d+ ms</td>`),
    );
  });
});

describe('a second account', () => {
  it('sees none of the first one: 404 everywhere', async () => {
    const other = await t.newTenant();
    const s = await session(other.email, other.password);
    const first = await session();
    const hook = await receiver();
    const { id } = await createWebhook(first, `${hook.url}/private`);
    const submissionId = await submitJson(t.form, { message: 'private' });
    for (const path of [
      `/app/forms/${t.form.id}/plugins`,
      `/app/forms/${t.form.id}/plugins/${id}/deliveries`,
      `/app/forms/${t.form.id}/stats`,
      `/app/submissions/${submissionId}/deliveries`,
    ]) {
      const res = await s.get(path);
      expect(res.status, path).toBe(404);
      expect(res.text).not.toContain('private');
    }
    for (const path of [
      `/app/forms/${t.form.id}/plugins`,
      `/app/forms/${t.form.id}/plugins/${id}/delete`,
      `/app/submissions/${submissionId}/replay`,
    ]) {
      expect((await s.post(path, { type: 'webhook', url: `${hook.url}/x` })).status, path).toBe(
        404,
      );
    }
    expect((await t.api.get(`/api/forms/${t.form.id}/plugins/${id}`)).status).toBe(200);
  });
});
