import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { request } from '../support/api-client';
import { useTestStack, type Tenant } from '../support/fixture';
import { cookieValue, setCookie } from '../support/sign-in';
import { submitJson } from '../support/ingest-requests';
import { openAppSession, postForm } from './dashboard-support';

// The budgets against amplification in the dashboard (docs/security.md, "Budgets against amplification"): each refusal
// is a page with a human message naming the limit, never a silent failure or a 500.

const t = useTestStack({
  env: { MAX_FORMS_PER_ACCOUNT: '1', MAX_PLUGINS_PER_FORM: '2', REPLAY_RATE: '1' },
});

/** A signed-in browser without JavaScript. */
async function session(tenant: Pick<Tenant, 'email' | 'password'>) {
  const app = await openAppSession(t.stack.url, tenant.email, tenant.password);
  return {
    cookie: app.cookie,
    get: (path: string, cookie = app.cookie) => request('GET', `${t.stack.url}${path}`, { cookie }),
    post: (path: string, fields: Record<string, string> = {}) =>
      postForm(t.stack.url, path, app, fields),
  };
}

describe('budgets in the dashboard', () => {
  it('a form past MAX_FORMS_PER_ACCOUNT and a plugin past MAX_PLUGINS_PER_FORM are refused with a message', async () => {
    const s = await session(t);
    const first = await s.post('/app/forms', { name: 'Only form' });
    expect(first.status, first.text).toBe(303);
    const formPath = first.headers.get('location')!;

    const second = await s.post('/app/forms', { name: 'One too many' });
    expect(second.status).toBe(409);
    expect(second.text).toMatch(
      /This account’s owner has 1 forms across the accounts they own; MAX_FORMS_PER_ACCOUNT allows at most 1 per owner/,
    );

    const webhook = await s.post(`${formPath}/plugins`, {
      type: 'webhook',
      url: 'https://93.184.216.34/hook',
    });
    expect(webhook.status, webhook.text).toBe(303);
    const email = await s.post(`${formPath}/plugins`, {
      type: 'email',
      recipients: 'ops@example.com',
    });
    expect(email.status, email.text).toBe(303);

    const overWebhook = await s.post(`${formPath}/plugins`, {
      type: 'webhook',
      url: 'https://93.184.216.35/x',
    });
    expect(overWebhook.status).toBe(409);
    expect(overWebhook.text).toMatch(
      /This form has 2 plugins; MAX_PLUGINS_PER_FORM allows at most 2/,
    );
    const overSlack = await s.post(`${formPath}/plugins`, {
      type: 'slack',
      url: 'https://93.184.216.34/slack',
    });
    expect(overSlack.status).toBe(409);
    expect(overSlack.text).toMatch(/MAX_PLUGINS_PER_FORM allows at most 2/);
    const [{ total }] = await t.stack.sql<{ total: string }>(
      `select count(*) as total from plugins p join forms f on f.id = p.form_id
        where f.account_id = ? and p.deleted_at is null`,
      [t.accountId],
    );
    expect(Number(total)).toBe(2);
  });

  it('a replay past REPLAY_RATE is refused with a message, and a second recovery while one runs', async () => {
    const tenant = await t.newTenant();
    const s = await session(tenant);
    const form = await tenant.api.createForm({ name: 'Replays' });
    const submissionId = await submitJson(form, { message: 'once more' });

    const replayed = await s.post(`/app/submissions/${submissionId}/replay`);
    expect(replayed.status).toBe(303);
    expect(cookieValue(setCookie(replayed, 'formward_flash')!)).toBe('replay_started');
    const refused = await s.post(`/app/submissions/${submissionId}/replay`);
    expect(refused.status).toBe(303);
    const flash = `formward_flash=${cookieValue(setCookie(refused, 'formward_flash')!)}`;
    expect(flash).toBe('formward_flash=replay_rate_limited');
    const page = await s.get(refused.headers.get('location')!, `${s.cookie}; ${flash}`);
    expect(page.text).toContain('REPLAY_RATE');

    // No worker on this stack: a started recovery stays running.
    const plugin = await tenant.api.addWebhook(form.id, 'https://93.184.216.34/hook');
    await t.stack.sql(
      `insert into delivery_attempts (delivery_id, submission_id, plugin_id, attempt, status,
          error, is_replay, is_test, workflow_id, workflow_run_id, started_at, finished_at)
       values (?, ?, ?, 1, 'failed', 'receiver answered 500', false, false, 'w', 'r', now(), now())`,
      [randomUUID(), submissionId, plugin.id],
    );
    const base = `/app/forms/${form.id}/plugins/${plugin.id}`;
    const since = new Date(Date.now() - 3600_000).toISOString().slice(0, 16);
    const started = await s.post(`${base}/recover`, { since });
    expect(started.status, started.text).toBe(303);
    const runPath = started.headers.get('location')!;
    const again = await s.post(`${base}/recover`, { since });
    expect(again.status).toBe(409);
    expect(again.text).toMatch(/is still running/);
    expect(again.text).toContain(`href="${runPath}"`);
  });
});
