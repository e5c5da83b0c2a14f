import { describe, expect, it } from 'vitest';
import { request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { openAppSession, postForm } from './dashboard-support';

// Adding Microsoft Teams and Telegram plugins on the form's plugin page (docs/plugins.md):
// the type's config check with its errors next to the field, and the secret (a workflow URL
// with its `sig`, a bot token) never shown again, not even on the page that refuses it.

const t = useTestStack({ form: { name: 'Contact' }, env: { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1' } });

const SIG = 'S1gNaTuReNeverShown0123';
const WORKFLOW = `https://127.0.0.1:9/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sv=1.0&sig=${SIG}`;
const TOKEN_SECRET = 'AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQr';
const TOKEN = `123456789:${TOKEN_SECRET}`;

async function session() {
  const app = await openAppSession(t.stack.url, t.email, t.password);
  return {
    get: (path: string) => request('GET', `${t.stack.url}${path}`, { cookie: app.cookie }),
    post: (path: string, fields: Record<string, string>) =>
      postForm(t.stack.url, path, { cookie: app.cookie, csrf: app.csrf }, fields),
  };
}

const page = () => `/app/forms/${t.form.id}/plugins`;
const add = () => `/app/forms/${t.form.id}/plugins`;

/** The errors shown right after a field of a type's add form, before its next field. */
function errorsAfter(html: string, type: string, field: string): string[] {
  const section = html.split(`id="add-${type}"`)[1]!.split('</section>')[0]!;
  const after = section.split(`name="${field}"`)[1]!.split('<label')[0]!;
  return [...after.matchAll(/<p class="error" role="alert">([^<]*)<\/p>/g)].map((m) => m[1]!);
}

async function pluginsOfType(type: string) {
  return t.stack.sql<{ id: string; name: string; config: Record<string, unknown> }>(
    'select id::text, name, config from plugins where form_id = ? and plugin_type = ? and deleted_at is null order by id',
    [t.form.id, type],
  );
}

describe('adding a Microsoft Teams plugin', () => {
  it('refuses a workflow URL a webhook may not have, next to the field, without echoing it', async () => {
    const s = await session();
    const plain = await s.post(add(), { type: 'teams', url: WORKFLOW.replace('https:', 'http:') });
    expect(plain.status).toBe(422);
    expect(errorsAfter(plain.text, 'teams', 'url')).toEqual([
      expect.stringMatching(/^must use https:\/\//),
    ]);
    expect(plain.text).not.toContain(SIG);
    const internal = await s.post(add(), { type: 'teams', url: 'https://10.0.0.7/x?sig=1' });
    expect(errorsAfter(internal.text, 'teams', 'url')).toEqual([
      expect.stringMatching(/address 10\.0\.0\.7 is not public/),
    ]);
    const empty = await s.post(add(), { type: 'teams', url: '' });
    expect(errorsAfter(empty.text, 'teams', 'url')).toEqual(['is required (an https:// URL)']);
    expect(await pluginsOfType('teams')).toEqual([]);
  });

  it('creates it with the URL sealed; the page shows its host, never the URL', async () => {
    const s = await session();
    const added = await s.post(add(), { type: 'teams', url: WORKFLOW });
    expect(added.status).toBe(303);
    const [stored] = await pluginsOfType('teams');
    expect(stored!.name).toBe('Teams workflow at 127.0.0.1:9');
    expect(stored!.config.host).toBe('127.0.0.1:9');
    expect(JSON.stringify(stored!.config)).not.toContain(SIG);
    const shown = await s.get(page());
    expect(shown.text).toContain('<code>https://127.0.0.1:9/…</code>');
    expect(shown.text).not.toContain(SIG);
    const api = await t.api.get(`/api/forms/${t.form.id}/plugins/${stored!.id}`);
    expect(api.text).not.toContain(SIG);
    expect(api.body).toMatchObject({
      plugin: { config: { url: '••••••••', host: '127.0.0.1:9' } },
    });
  });
});

describe('adding a Telegram plugin', () => {
  it('refuses a malformed token or chat id, each next to its field, without echoing the token', async () => {
    const s = await session();
    const bad = await s.post(add(), {
      type: 'telegram',
      token: `${TOKEN}/../x`,
      chat_id: 'general',
    });
    expect(bad.status).toBe(422);
    expect(errorsAfter(bad.text, 'telegram', 'token')).toEqual([
      expect.stringMatching(/^must be a bot token as BotFather gives it/),
    ]);
    expect(errorsAfter(bad.text, 'telegram', 'chat_id')).toEqual([
      'must be a chat id (a number, negative for groups) or @channelname',
    ]);
    // The chat id typed is given back; the token is typed again.
    expect(bad.text).toContain('value="general"');
    expect(bad.text).not.toContain(TOKEN_SECRET);
    const noChat = await s.post(add(), { type: 'telegram', token: TOKEN, chat_id: '' });
    expect(errorsAfter(noChat.text, 'telegram', 'chat_id')).toHaveLength(1);
    expect(noChat.text).not.toContain(TOKEN_SECRET);
    expect(await pluginsOfType('telegram')).toEqual([]);
  });

  it('creates it with the token sealed; the page and the API show the chat, never the token', async () => {
    const s = await session();
    const added = await s.post(add(), {
      type: 'telegram',
      token: ` ${TOKEN} `,
      chat_id: '-1001234567890',
      name: 'Sales chat',
    });
    expect(added.status).toBe(303);
    const [stored] = await pluginsOfType('telegram');
    expect(stored!.name).toBe('Sales chat');
    expect(stored!.config.chat_id).toBe('-1001234567890');
    expect(JSON.stringify(stored!.config)).not.toContain(TOKEN_SECRET);
    const shown = await s.get(page());
    expect(shown.text).toContain('Telegram chat -1001234567890');
    expect(shown.text).not.toContain(TOKEN_SECRET);
    const api = await t.api.get(`/api/forms/${t.form.id}/plugins/${stored!.id}`);
    expect(api.text).not.toContain(TOKEN_SECRET);
    expect(api.body).toMatchObject({
      plugin: { plugin_type: 'telegram', config: { token: '••••••••', chat_id: '-1001234567890' } },
    });
  });
});
