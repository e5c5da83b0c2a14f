import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { request, type FormView } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { submitJson } from '../support/ingest-requests';
import { waitForAttempts } from '../support/delivery-attempts';
import { openAppSession, type AppSession } from './dashboard-support';

// The recovery pages over plain HTTP, without JavaScript (docs/recovery.md): the form with its
// default `since`, CSRF, validation, a run started and followed to the end, another account.

const t = useTestStack({
  worker: true,
  env: {
    WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
    WEBHOOK_RETRY_INITIAL_INTERVAL: '1s',
    WEBHOOK_RETRY_BACKOFF_COEFFICIENT: '1',
  },
});

let fixed = false;
let hook: HttpsReceiver;
let form: FormView;
let base: string;
beforeAll(async () => {
  hook = await startHttpsReceiver(inject('stack').certificates, () =>
    fixed ? { status: 200 } : { status: 503, body: 'down' },
  );
  form = await t.api.createForm({ name: 'Recovery pages' });
  const plugin = await t.api.addWebhook(form.id, `${hook.url}/in`);
  base = `/app/forms/${form.id}/plugins/${plugin.id}`;
});
afterAll(async () => {
  await hook?.close();
});

const get = (s: AppSession, path: string) =>
  request('GET', `${t.stack.url}${path}`, { cookie: s.cookie });
const post = (s: AppSession, path: string, fields: Record<string, string>, csrf = s.csrf) =>
  request('POST', `${t.stack.url}${path}`, {
    cookie: s.cookie,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
  });

/** `datetime-local` text in UTC, as the form takes it. */
const local = (date: Date) => date.toISOString().slice(0, 16);

describe('recovery pages', () => {
  it('links from the plugins page and offers the form, since 24 hours ago by default', async () => {
    const s = await openAppSession(t.stack.url, t.email, t.password);
    const list = await get(s, base.replace(/\/\d+$/, ''));
    expect(list.text).toContain(`href="${base}/recover"`);
    const page = await get(s, `${base}/recover`);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain(`action="${base}/recover"`);
    expect(page.text).toContain(`name="_csrf" value="${s.csrf}"`);
    const since = /name="since" required value="([^"]+)"/.exec(page.text)![1]!;
    const hoursAgo = (Date.now() - Date.parse(`${since}:00Z`)) / 3600_000;
    expect(hoursAgo).toBeGreaterThan(23.9);
    expect(hoursAgo).toBeLessThan(24.1);
  });

  it('refuses a post without the CSRF token, and a since in the future or too old', async () => {
    const s = await openAppSession(t.stack.url, t.email, t.password);
    const since = local(new Date(Date.now() - 3600_000));
    expect((await post(s, `${base}/recover`, { since }, 'wrong')).status).toBe(403);
    const future = await post(s, `${base}/recover`, {
      since: local(new Date(Date.now() + 3600_000)),
    });
    expect(future.status).toBe(422);
    expect(future.text).toContain('must not be in the future');
    const old = await post(s, `${base}/recover`, { since: '2020-01-01T00:00' });
    expect(old.status).toBe(422);
    expect(old.text).toContain('at most 90 days ago');
  });

  it('starts a run and shows its progress until it completes', async () => {
    const s = await openAppSession(t.stack.url, t.email, t.password);
    const id = await submitJson(form, { message: 'to recover' });
    await waitForAttempts(t.stack, id, 4, 30_000);
    fixed = true;

    const started = await post(s, `${base}/recover`, {
      since: local(new Date(Date.now() - 3600_000)),
    });
    expect(started.status, started.text).toBe(303);
    const progress = started.headers.get('location')!;
    expect(progress).toMatch(new RegExp(`^${base}/recoveries/\\d+$`));

    let page = await get(s, progress);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/class="recovery-total">1</);
    const deadline = Date.now() + 30_000;
    while (page.text.includes('class="recovery-status">running<')) {
      expect(page.text).toContain(`hx-get="${progress}"`); // htmx polls while it runs
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 200));
      page = await get(s, progress);
    }
    expect(page.text).toContain('class="recovery-status">completed<');
    expect(page.text).toMatch(/class="recovery-done">1</);
    expect(page.text).not.toContain('hx-get=');
    const attempts = await waitForAttempts(t.stack, id, 5);
    expect(attempts.at(-1)).toMatchObject({ attempt: 5, status: 'succeeded', is_replay: true });

    const runs = await get(s, `${base}/recover`);
    expect(runs.text).toContain(`href="${progress}"`);
  });

  it('shows a disabled webhook why it cannot recover (409)', async () => {
    const s = await openAppSession(t.stack.url, t.email, t.password);
    const disabled = await post(s, `${base}/disable`, {});
    expect(disabled.status).toBe(303);
    const res = await post(s, `${base}/recover`, { since: local(new Date(Date.now() - 60_000)) });
    expect(res.status).toBe(409);
    expect(res.text).toContain('enable it before recovering');
    expect((await post(s, `${base}/enable`, {})).status).toBe(303);
  });

  it('is not found for another account', async () => {
    const other = await t.newTenant();
    const s = await openAppSession(t.stack.url, other.email, other.password);
    expect((await get(s, `${base}/recover`)).status).toBe(404);
    expect((await get(s, `${base}/recoveries/1`)).status).toBe(404);
    const since = local(new Date(Date.now() - 3600_000));
    expect((await post(s, `${base}/recover`, { since })).status).toBe(404);
  });
});
