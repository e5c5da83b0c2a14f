import { describe, expect, it } from 'vitest';
import { request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { openAppSession, postForm } from './dashboard-support';

// One set of plugin pages for every type, under /app/forms/{id}/plugins (docs/dashboard.md):
// a webhook and a Slack plugin go through the same pages, each recorded under the names
// people already know; the old /webhooks addresses answer 301 (GET) and 308 (POST), query
// kept, and lead nowhere but the new pages.

const t = useTestStack({ form: {}, env: { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1' } });

async function session() {
  const app = await openAppSession(t.stack.url, t.email, t.password);
  return {
    ...app,
    get: (path: string) => request('GET', `${t.stack.url}${path}`, { cookie: app.cookie }),
    post: (path: string, fields: Record<string, string> = {}) =>
      postForm(t.stack.url, path, { cookie: app.cookie, csrf: app.csrf }, fields),
  };
}
type Session = Awaited<ReturnType<typeof session>>;

const pluginsPage = () => `/app/forms/${t.form.id}/plugins`;

async function addPlugin(s: Session, fields: Record<string, string>) {
  const added = await s.post(pluginsPage(), fields);
  expect(added.status, added.text).toBe(303);
  expect(added.headers.get('location')).toBe(pluginsPage());
  const [row] = await t.stack.sql<{ id: string }>(
    `select id::text from plugins where form_id = ? and name = ? and deleted_at is null`,
    [t.form.id, fields.name],
  );
  return row!.id;
}

const actionsOf = async (targetId: string) =>
  (
    await t.stack.sql<{ action: string }>(
      `select action from audit_events
        where account_id = ? and target_type = 'plugin' and target_id = ? order by id`,
      [t.accountId, targetId],
    )
  ).map((row) => row.action);

const flashOf = (res: { headers: Headers }) =>
  /formward_flash=([a-z_]+)/.exec(res.headers.getSetCookie().join())?.[1];

const KINDS = [
  {
    type: 'webhook',
    fields: { url: 'https://127.0.0.1:9/hook' },
    noun: 'webhook',
    signs: true,
  },
  {
    type: 'slack',
    fields: { url: 'https://127.0.0.1:9/services/T/B/x' },
    noun: 'plugin',
    signs: false,
  },
] as const;

describe('the plugin pages, whatever the type', () => {
  it.each(KINDS)(
    '$type: add, list, deliveries, recover, disable, enable, rotate, delete',
    async (kind) => {
      const s = await session();
      const name = `One ${kind.type}`;
      const id = await addPlugin(s, { type: kind.type, name, ...kind.fields });
      const base = `${pluginsPage()}/${id}`;

      const list = await s.get(pluginsPage());
      expect(list.status).toBe(200);
      for (const href of [`${base}/deliveries`, `${base}/recover`])
        expect(list.text).toContain(`href="${href}"`);
      for (const action of ['disable', 'delete'])
        expect(list.text).toContain(`action="${base}/${action}"`);
      expect(list.text.includes(`action="${base}/rotate"`)).toBe(kind.signs);
      expect((await s.get(`${base}/deliveries`)).status).toBe(200);
      const recover = await s.get(`${base}/recover`);
      expect(recover.status).toBe(200);
      expect(recover.text).toContain(`action="${base}/recover"`);

      const disabled = await s.post(`${base}/disable`);
      expect(disabled.status).toBe(303);
      expect(disabled.headers.get('location')).toBe(pluginsPage());
      expect(flashOf(disabled)).toBe(`${kind.noun}_disabled`);
      // Disabled: its recovery is refused with the reason, whatever the type.
      const since = new Date(Date.now() - 60_000).toISOString().slice(0, 16);
      const refused = await s.post(`${base}/recover`, { since });
      expect(refused.status).toBe(409);
      expect(refused.text).toContain('enable it before recovering');
      expect(flashOf(await s.post(`${base}/enable`))).toBe(`${kind.noun}_enabled`);
      // Only a type that signs has a secret to rotate.
      expect((await s.post(`${base}/rotate`)).status).toBe(kind.signs ? 303 : 404);
      const deleted = await s.post(`${base}/delete`);
      expect(flashOf(deleted)).toBe(`${kind.noun}_deleted`);
      expect((await s.get(`${base}/deliveries`)).status).toBe(404);

      const n = kind.noun;
      expect(await actionsOf(id)).toEqual([
        `${n}.created`,
        `${n}.disabled`,
        `${n}.enabled`,
        ...(kind.signs ? [`${n}.secret_rotated`] : []),
        `${n}.deleted`,
      ]);
    },
  );

  it('offers the add form of every type, the webhook first, each posting its type to one address', async () => {
    const s = await session();
    const page = (await s.get(pluginsPage())).text;
    for (const type of ['webhook', 'email', 'slack', 'discord']) {
      const section = new RegExp(
        `<section class="panel" id="add-${type}">[\\s\\S]*?action="${pluginsPage()}"[\\s\\S]*?name="type" value="${type}"`,
      );
      expect(page, type).toMatch(section);
    }
    expect(page.indexOf('id="add-webhook"')).toBeLessThan(page.indexOf('id="add-email"'));
    expect(page).not.toMatch(/(href|action)="[^"]*\/webhooks/);
  });
});

describe('the old /webhooks addresses', () => {
  it('answer every GET with 301 to the same page under /plugins, the query kept', async () => {
    const s = await session();
    const form = t.form.id;
    const old = `/app/forms/${form}/webhooks`;
    const now = `/app/forms/${form}/plugins`;
    for (const [from, to] of [
      [old, now],
      [`${old}?x=1`, `${now}?x=1`],
      [`${old}/12/recover`, `${now}/12/recover`],
      [`${old}/12/recoveries/34`, `${now}/12/recoveries/34`],
      [`${old}/12/deliveries?page=2`, `${now}/12/deliveries?page=2`],
    ]) {
      const res = await s.get(from!);
      expect(res.status, from).toBe(301);
      expect(res.headers.get('location'), from).toBe(to);
    }
  });

  it('answer every POST with 308, and the re-post with its token does the action once', async () => {
    const s = await session();
    const old = `/app/forms/${t.form.id}/webhooks`;
    const now = `/app/forms/${t.form.id}/plugins`;
    for (const action of ['enable', 'disable', 'delete', 'rotate', 'recover']) {
      const res = await s.post(`${old}/12/${action}?from=bookmark`);
      expect(res.status, action).toBe(308);
      expect(res.headers.get('location')).toBe(`${now}/12/${action}?from=bookmark`);
    }
    // The webhook form of a page loaded before the move posted no type: the redirect names it.
    const fields = { url: 'https://127.0.0.1:9/old-form', name: 'From an old page' };
    const created = await s.post(old, fields);
    expect(created.status).toBe(308);
    const target = created.headers.get('location')!;
    expect(target).toBe(`${now}?type=webhook`);
    // What a browser does with a 308: the same body, token included, to the new address.
    const reposted = await s.post(target, fields);
    expect(reposted.status, reposted.text).toBe(303);
    const [row] = await t.stack.sql<{ id: string; plugin_type: string }>(
      'select id::text, plugin_type from plugins where form_id = ? and name = ?',
      [t.form.id, fields.name],
    );
    expect(row!.plugin_type).toBe('webhook');
    const id = row!.id;
    const disable = await s.post(`${old}/${id}/disable`);
    expect(disable.status).toBe(308);
    expect((await s.post(disable.headers.get('location')!)).status).toBe(303);
    expect(await actionsOf(id)).toEqual(['webhook.created', 'webhook.disabled']);
  });

  it('lead nowhere else: malformed ids and other paths are 404, and a post without its token is refused', async () => {
    const s = await session();
    for (const path of [
      `/app/forms/${t.form.id}/webhooks/not-an-id/recover`,
      `/app/forms/${t.form.id}/webhooks/12/recoveries/x`,
      `/app/forms/..%2F..%2Flogin/webhooks`,
      `/app/forms/${t.form.id}/webhooks/12/anything`,
      `/app/forms/${t.form.id}/webhooks//evil.example/deliveries`,
    ]) {
      const res = await s.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('location')).toBeNull();
    }
    const forged = await postForm(
      t.stack.url,
      `/app/forms/${t.form.id}/webhooks/12/delete`,
      { cookie: s.cookie, csrf: 'forged' },
      {},
    );
    expect(forged.status).toBe(403);
  });
});
