import { describe, expect, it } from 'vitest';
import { createTypedPlugin } from '../../src/plugins/manage/plugins';
import { expectAnswer, expectError } from '../support/api-client';
import { useTestStack } from '../support/fixture';

// E-mail, Slack and Discord plugins are configured in the dashboard (docs/plugins.md); the API
// lists, reads and deletes them with their type and config, and creates only webhooks.

const t = useTestStack(() => ({ form: { name: 'Typed plugins' } }));

const pluginsPath = () => `/api/forms/${t.form.id}/plugins`;

async function addTyped(type: 'email' | 'slack' | 'discord', config: Record<string, unknown>) {
  const plugin = await createTypedPlugin(
    t.stack.ctx.orm.em.fork(),
    {
      formId: t.form.id,
      type,
      config: config as never,
    },
    0,
  );
  return plugin.id;
}

describe('plugins of every type through the API', () => {
  it('lists and reads each with its plugin_type and config, no secret, no rotate link', async () => {
    const email = await addTyped('email', {
      recipients: ['sales@example.com', 'ops@example.com'],
      subject: '{form}: {field:name}',
    });
    const slack = await addTyped('slack', { url: 'https://hooks.slack.com/services/T/B/SECRET' });
    const discord = await addTyped('discord', { url: 'https://discord.com/api/webhooks/1/TOKEN' });

    const list = await t.api.get(pluginsPath());
    const { plugins } = expectAnswer(list, 'GET /api/forms/{form_id}/plugins', 200);
    const byId = new Map(plugins.map((p) => [p.id, p]));
    expect(byId.get(email)).toMatchObject({
      plugin_type: 'email',
      key: 'email',
      name: 'E-mail to sales@example.com and 1 more',
      config: {
        recipients: ['sales@example.com', 'ops@example.com'],
        subject: '{form}: {field:name}',
      },
    });
    expect(byId.get(slack)).toMatchObject({
      plugin_type: 'slack',
      name: 'Slack channel at hooks.slack.com',
    });
    expect(byId.get(discord)).toMatchObject({ plugin_type: 'discord' });
    for (const id of [email, slack, discord]) {
      const one = await t.api.get(`${pluginsPath()}/${id}`);
      const { plugin } = expectAnswer(one, 'GET /api/forms/{form_id}/plugins/{id}', 200);
      expect(plugin).not.toHaveProperty('signing_secret');
      expect(plugin.links.map((l) => l.rel)).not.toContain('rotate_secret');
    }
  });

  it('shows a readonly key the Slack and Discord URLs as scheme and host only', async () => {
    const slack = await addTyped('slack', { url: 'https://hooks.slack.com/services/T/B/HIDDEN' });
    const one = await t.readonly.get(`${pluginsPath()}/${slack}`);
    const { plugin } = expectAnswer(one, 'GET /api/forms/{form_id}/plugins/{id}', 200);
    expect(plugin.config).toEqual({ url: 'https://hooks.slack.com' });
    expect((await t.readonly.get(pluginsPath())).text).not.toContain('HIDDEN');
  });

  it('rotate_secret on a non-webhook → 422 unsupported_plugin', async () => {
    const discord = await addTyped('discord', { url: 'https://discord.com/api/webhooks/2/T' });
    const res = await t.api.post(`${pluginsPath()}/${discord}/rotate_secret`);
    expectError(res, 422, 'unsupported_plugin');
  });

  it('deletes any type: gone from the list and GET', async () => {
    const email = await addTyped('email', { recipients: ['gone@example.com'], subject: 'x' });
    const res = await t.api.delete(`${pluginsPath()}/${email}`);
    const removed = expectAnswer(res, 'DELETE /api/forms/{form_id}/plugins/{id}', 200);
    expect(removed.plugin.plugin_type).toBe('email');
    expectError(await t.api.get(`${pluginsPath()}/${email}`), 404, 'not_found');
  });

  it('another account gets 404 for the typed plugins too', async () => {
    const slack = await addTyped('slack', { url: 'https://hooks.slack.com/services/T/B/X' });
    const stranger = await t.newTenant();
    expectError(await stranger.api.get(`${pluginsPath()}/${slack}`), 404, 'not_found');
    expectError(await stranger.api.delete(`${pluginsPath()}/${slack}`), 404, 'not_found');
  });

  it.each(['email', 'slack', 'discord'])(
    'POST with plugin_type %s → 422 unsupported_plugin',
    async (type) => {
      const res = await t.api.post(pluginsPath(), {
        plugin_type: type,
        config: { url: 'https://hooks.slack.com/x' },
      });
      expectError(res, 422, 'unsupported_plugin');
    },
  );
});
