import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { headerValue, readMimeMessage } from '../../src/domain/mail/mime-reader';
import { request } from '../support/api-client';
import { eventually } from '../support/eventually';
import { useTestStack } from '../support/fixture';
import { openAppSession, postForm } from './dashboard-support';

// The form's plugin page over plain HTTP: adding e-mail, Slack and Discord plugins with the
// domain's config check (errors next to the fields), escaping, enable / disable / delete of
// any type, CSRF, and a second account that gets 404.

const MARKUP = '<script>alert("x")</script>';
const t = useTestStack({
  form: { name: `Form ${MARKUP}` },
  env: { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1' },
});

/** A signed-in browser without JavaScript (dashboard-support.ts's session and form post). */
async function session(email = t.email, password = t.password) {
  const app = await openAppSession(t.stack.url, email, password);
  return {
    get: (path: string) => request('GET', `${t.stack.url}${path}`, { cookie: app.cookie }),
    post: (path: string, fields: Record<string, string> = {}, csrf: string | null = app.csrf) =>
      postForm(t.stack.url, path, { cookie: app.cookie, csrf: csrf ?? '' }, fields),
  };
}

const page = () => `/app/forms/${t.form.id}/plugins`;
const add = () => `/app/forms/${t.form.id}/plugins`;

async function pluginsOfType(type: string) {
  return t.stack.sql<{
    id: string;
    name: string;
    enabled: boolean;
    config: Record<string, unknown>;
  }>(
    'select id::text, name, enabled, config from plugins where form_id = ? and plugin_type = ? and deleted_at is null order by id',
    [t.form.id, type],
  );
}

describe('the plugin page', () => {
  it('adds a Slack, a Discord and an e-mail plugin, then lists every type, escaped', async () => {
    const s = await session();
    const slack = await s.post(add(), {
      type: 'slack',
      url: 'https://127.0.0.1:9/services/T/B/x',
      name: `Team ${MARKUP}`,
    });
    expect(slack.status).toBe(303);
    expect(slack.headers.get('location')).toBe(page());
    expect(
      (await s.post(add(), { type: 'discord', url: 'https://127.0.0.1:9/api/webhooks/1/t' }))
        .status,
    ).toBe(303);
    const email = await s.post(add(), {
      type: 'email',
      recipients: 'Sales@Example.com, ops@example.com',
      subject: 'New {form}\r\nBcc: x@evil.example',
    });
    expect(email.status).toBe(303);

    expect((await pluginsOfType('slack'))[0]).toMatchObject({ name: `Team ${MARKUP}` });
    expect((await pluginsOfType('email'))[0]!.config).toEqual({
      recipients: ['sales@example.com', 'ops@example.com'],
      subject: 'New {form} Bcc: x@evil.example',
    });
    const shown = await s.get(page());
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('<h1>Plugins of Form &lt;script&gt;');
    expect(shown.text).not.toContain(MARKUP);
    expect(shown.text).toContain('Team &lt;script&gt;');
    for (const label of ['Slack', 'Discord', 'E-mail']) expect(shown.text).toContain(label);
    // Each recipient with where it stands: strangers have not confirmed yet.
    for (const address of ['sales@example.com', 'ops@example.com'])
      expect(shown.text).toContain(
        `<li>${address} <span class="hint">(awaiting confirmation)</span></li>`,
      );
  });

  it('asks new e-mail recipients and notification addresses to confirm, once; the settings show where each stands', async () => {
    const s = await session();
    const mailbox = path.join(t.stack.config.dataDir, 'mailbox');
    const requestsTo = (address: string) =>
      (fs.existsSync(mailbox) ? fs.readdirSync(mailbox) : [])
        .map((file) => readMimeMessage(fs.readFileSync(path.join(mailbox, file))))
        .filter((message) => headerValue(message, 'to') === address)
        .filter((message) => headerValue(message, 'subject')?.startsWith('Confirm to receive'));

    const added = await s.post(add(), { type: 'email', recipients: 'new-one@example.org' });
    expect(added.status).toBe(303);
    await eventually(async () => requestsTo('new-one@example.org').length === 1);

    // The form's settings: a stranger and the account's own user; saved twice.
    const settings = {
      name: t.form.name,
      is_active: 'on',
      notification_email_addresses: `other@example.org\n${t.email}`,
    };
    expect((await s.post(`/app/forms/${t.form.id}`, settings)).status).toBe(303);
    expect((await s.post(`/app/forms/${t.form.id}`, settings)).status).toBe(303);
    await eventually(async () => requestsTo('other@example.org').length === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requestsTo('other@example.org')).toHaveLength(1);
    expect(requestsTo(t.email)).toHaveLength(0);
    expect(requestsTo('new-one@example.org')).toHaveLength(1);

    const shown = await s.get(`/app/forms/${t.form.id}/settings`);
    expect(shown.text).toContain(
      '<li>other@example.org: awaiting confirmation (nothing is sent to it until it follows the link e-mailed to it)</li>',
    );
    expect(shown.text).toContain(`<li>${t.email}: confirmed</li>`);
  });

  it('shows config errors next to the fields of the submitted type, with what was typed', async () => {
    const s = await session();
    const slack = await s.post(add(), { type: 'slack', url: 'http://hooks.example.com/"x' });
    expect(slack.status).toBe(422);
    expect(slack.text).toMatch(/must use https:\/\//);
    expect(slack.text).toMatch(/value="http:\/\/hooks\.example\.com\/(&#34;|&quot;)x"/);
    const internal = await s.post(add(), {
      type: 'discord',
      url: 'https://10.0.0.7/api/webhooks/1/t',
    });
    expect(internal.status).toBe(422);
    expect(internal.text).toMatch(/address 10\.0\.0\.7 is not public/);
    const loop = await s.post(add(), {
      type: 'slack',
      url: `${t.stack.url.replace('http:', 'https:')}/f/x`,
    });
    expect(loop.status).toBe(422);
    const email = await s.post(add(), { type: 'email', recipients: 'not-an-address' });
    expect(email.status).toBe(422);
    expect(email.text).toContain('must be e-mail addresses');
    const many = Array.from({ length: 11 }, (_, i) => `p${i}@example.com`).join('\n');
    expect((await s.post(add(), { type: 'email', recipients: many })).text).toContain(
      'at most 10 addresses',
    );
    expect((await s.post(add(), { type: 'zapier', url: 'https://127.0.0.1:9/x' })).status).toBe(
      422,
    );
    expect(await pluginsOfType('zapier')).toEqual([]);
  });

  it('disables, enables and deletes a plugin of any type', async () => {
    const s = await session();
    await s.post(add(), {
      type: 'discord',
      url: 'https://127.0.0.1:9/api/webhooks/9/t',
      name: 'to toggle',
    });
    const plugin = (await pluginsOfType('discord')).find((p) => p.name === 'to toggle')!;
    const base = `/app/forms/${t.form.id}/plugins/${plugin.id}`;
    expect((await s.post(`${base}/disable`)).status).toBe(303);
    expect((await pluginsOfType('discord')).find((p) => p.id === plugin.id)!.enabled).toBe(false);
    expect((await s.post(`${base}/enable`)).status).toBe(303);
    expect((await pluginsOfType('discord')).find((p) => p.id === plugin.id)!.enabled).toBe(true);
    expect((await s.post(`${base}/delete`)).status).toBe(303);
    expect((await pluginsOfType('discord')).find((p) => p.id === plugin.id)).toBeUndefined();
    expect((await s.get(`/app/forms/${t.form.id}/plugins/${plugin.id}/deliveries`)).status).toBe(
      404,
    );
  });

  it('refuses a post without the CSRF token', async () => {
    const s = await session();
    const res = await s.post(add(), { type: 'slack', url: 'https://127.0.0.1:9/csrf' }, null);
    expect(res.status).toBe(403);
    const stored = await pluginsOfType('slack');
    expect(stored.some((p) => p.config.url === 'https://127.0.0.1:9/csrf')).toBe(false);
  });

  it('another account gets 404 for the page, adding and the actions', async () => {
    const s = await session();
    await s.post(add(), { type: 'slack', url: 'https://127.0.0.1:9/mine', name: 'mine' });
    const mine = (await pluginsOfType('slack')).find((p) => p.name === 'mine')!;
    const stranger = await t.newTenant();
    const other = await session(stranger.email, stranger.password);
    expect((await other.get(page())).status).toBe(404);
    expect((await other.post(add(), { type: 'slack', url: 'https://127.0.0.1:9/x' })).status).toBe(
      404,
    );
    expect((await other.post(`/app/forms/${t.form.id}/plugins/${mine.id}/delete`)).status).toBe(
      404,
    );
    expect((await pluginsOfType('slack')).find((p) => p.id === mine.id)).toBeDefined();
  });
});
