import { describe, expect, it } from 'vitest';
import { request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { submitForm } from '../support/ingest-requests';
import { openAppSession, postForm } from './dashboard-support';

// What a viewer sees of a plugin (docs/teams.md): webhook, Slack and Discord URLs are
// capability URLs, so pages and answers show a viewer only their scheme and host, while
// admins and the owner see them in full.

const t = useTestStack({
  form: { name: 'Redacted plugins' },
  env: { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1' },
});

const WEBHOOK_URL = 'https://127.0.0.1:9/hooks/webhook-capability-token-1';
const SLACK_URL = 'https://127.0.0.1:9/services/T000/B000/slack-capability-token-2';
const DISCORD_URL = 'https://127.0.0.1:9/api/webhooks/1/discord-capability-token-3';
const MASKED = 'https://127.0.0.1:9/…';
const REDIRECT_TARGET = 'https://127.0.0.1:9/elsewhere/redirect-capability-token-4';

const get = (path: string, cookie: string) => request('GET', `${t.stack.url}${path}`, { cookie });

/** The form's webhook, Slack and Discord plugins, and one failed attempt naming a URL. */
async function pluginsWithAnAttempt() {
  const webhook = await t.api.addWebhook(t.form.id, WEBHOOK_URL);
  const owner = await openAppSession(t.stack.url, t.email, t.password);
  for (const [type, url] of [
    ['slack', SLACK_URL],
    ['discord', DISCORD_URL],
  ] as const) {
    const added = await postForm(t.stack.url, `/app/forms/${t.form.id}/plugins`, owner, {
      type,
      url,
    });
    expect(added.status, added.text).toBe(303);
  }
  const submissionId = await submitForm(t.form, { email: 'a@example.com' });
  await t.stack.sql(
    `insert into delivery_attempts (delivery_id, submission_id, plugin_id, attempt, status,
        http_status, error, duration_ms, started_at, finished_at)
     values (?, ?, ?, 1, 'failed', 302, ?, 40, now(), now())`,
    [
      `dlv_redaction_${submissionId}`,
      submissionId,
      webhook.id,
      `redirect to ${REDIRECT_TARGET} not followed`,
    ],
  );
  return { webhookId: webhook.id, submissionId };
}

describe('plugin URLs by role', () => {
  it('a viewer sees scheme and host on the plugins page, delivery logs and the API; an admin sees them whole', async () => {
    const { webhookId, submissionId } = await pluginsWithAnAttempt();
    const viewer = await t.stack.addMember(t.accountId, 'viewer');
    const admin = await t.stack.addMember(t.accountId, 'admin');
    const pages = [
      [`/app/forms/${t.form.id}/plugins`, [WEBHOOK_URL, SLACK_URL, DISCORD_URL]],
      [`/app/forms/${t.form.id}/plugins/${webhookId}/deliveries`, [WEBHOOK_URL, REDIRECT_TARGET]],
      [`/app/submissions/${submissionId}/deliveries`, [REDIRECT_TARGET]],
    ] as const;
    for (const [path, secrets] of pages) {
      const seen = await get(path, viewer.cookie);
      expect(seen.status, path).toBe(200);
      for (const secret of secrets) {
        expect(seen.text, `${path} (viewer)`).not.toContain(secret);
        // Not even the token alone, in any other form.
        expect(seen.text, `${path} (viewer)`).not.toContain(secret.split('/').at(-1)!);
      }
      expect(seen.text, path).toContain(MASKED);
      const full = await get(path, admin.cookie);
      for (const secret of secrets) expect(full.text, `${path} (admin)`).toContain(secret);
    }

    // The API answers a viewer's session the same way (and a readonly key).
    const api = `${t.stack.url}/api/forms/${t.form.id}/plugins`;
    const asViewer = await request('GET', api, { cookie: viewer.cookie });
    expect(asViewer.status).toBe(200);
    for (const secret of [WEBHOOK_URL, SLACK_URL, DISCORD_URL])
      expect(asViewer.text).not.toContain(secret);
    const readonly = await t.readonly.get(`/api/submissions/${submissionId}/deliveries`);
    expect(readonly.status).toBe(200);
    expect(readonly.text).not.toContain(REDIRECT_TARGET);
    expect(readonly.text).toContain(MASKED);
    const adminApi = await t.api.get(`/api/submissions/${submissionId}/deliveries`);
    expect(adminApi.text).toContain(REDIRECT_TARGET);
  });
});
