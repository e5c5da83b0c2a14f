import { describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../src/plugins/manage/plugin-secrets';
import { expectAnswer, expectError } from '../support/api-client';
import { useTestStack } from '../support/fixture';

// A plugin's conditions, include_fields and a webhook's headers through the API
// (docs/plugins.md): create, PATCH, validation as invalid_config, masking and sealing.

const t = useTestStack(() => ({
  form: { name: 'Routed plugins' },
  env: { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1' },
}));

const pluginsPath = () => `/api/forms/${t.form.id}/plugins`;
const URL = 'https://127.0.0.1:9/hook';
const CONDITIONS = {
  match: 'any',
  rules: [
    { field: 'topic', op: 'equals', value: 'Sales' },
    { field: 'plan', op: 'one_of', value: ['pro', 'team'] },
    { field: 'email', op: 'not_empty' },
  ],
};

async function storedConfig(id: string) {
  const [row] = await t.stack.sql<{ config: { headers?: { name: string; value: string }[] } }>(
    'select config from plugins where id = ?',
    [id],
  );
  return row!.config;
}

async function createWebhook(extra: Record<string, unknown> = {}, config = {}) {
  const res = await t.api.post(pluginsPath(), {
    plugin_type: 'webhook',
    config: { url: URL, ...config },
    ...extra,
  });
  return expectAnswer(res, 'POST /api/forms/{form_id}/plugins', 201).plugin;
}

describe('plugin conditions, fields and headers through the API', () => {
  it('creates a webhook with conditions, include_fields and headers: sealed, masked, hidden', async () => {
    const plugin = await createWebhook(
      { conditions: CONDITIONS, include_fields: ['email', 'topic', 'email'] },
      { headers: [{ name: 'Authorization', value: 'Bearer top-secret-token' }] },
    );
    expect(plugin.conditions).toEqual(CONDITIONS);
    expect(plugin.include_fields).toEqual(['email', 'topic']);
    expect(plugin.config).toEqual({
      url: URL,
      headers: [{ name: 'Authorization', value: SECRET_MASK }],
    });
    const stored = await storedConfig(plugin.id);
    expect(stored.headers![0]!.name).toBe('Authorization');
    expect(JSON.stringify(stored)).not.toContain('top-secret-token');

    const read = await t.readonly.get(`${pluginsPath()}/${plugin.id}`);
    const seen = expectAnswer(read, 'GET /api/forms/{form_id}/plugins/{id}', 200).plugin;
    expect(seen.config).toEqual({ url: 'https://127.0.0.1:9' });
    expect(seen.conditions).toEqual(CONDITIONS);
    expect(read.text).not.toContain('Authorization');
    expect(read.text).not.toContain('top-secret-token');
  });

  it('refuses bad conditions, fields and headers with invalid_config naming each problem', async () => {
    const res = await t.api.post(pluginsPath(), {
      plugin_type: 'webhook',
      config: {
        url: URL,
        headers: [
          { name: 'Content-Type', value: 'text/plain' },
          { name: 'X-Service-Signature', value: 'forged' },
          { name: 'Webhook-Id', value: 'x' },
          { name: 'X-Ok', value: 'a\nb' },
        ],
      },
      conditions: { match: 'all', rules: [{ field: 'topic', op: 'equals' }] },
      include_fields: [],
    });
    const error = expectError(res, 422, 'invalid_config');
    expect(error.errors).toEqual(
      expect.arrayContaining([
        'config.headers.0.name: "Content-Type" is set by Formward and cannot be replaced',
        'config.headers.1.name: "X-Service-Signature" is set by Formward and cannot be replaced',
        'config.headers.2.name: "Webhook-Id" is set by Formward and cannot be replaced',
        'config.headers.3.value: must not contain line breaks',
        'conditions.rules.0.value: is required for equals',
        'include_fields: must name at least one field (or be null for all)',
      ]),
    );
    const list = await t.api.get(pluginsPath());
    expect(list.text).not.toContain('Webhook-Id');
  });

  it('PATCHes conditions and include_fields of any type, keeps header values given without one', async () => {
    const plugin = await createWebhook({}, { headers: [{ name: 'X-Api-Key', value: 'k-1' }] });
    const path = `${pluginsPath()}/${plugin.id}`;
    const patched = await t.api.patch(path, {
      conditions: { rules: [{ field: 'topic', op: 'contains', value: 'sale' }] },
      include_fields: ['message'],
      config: { headers: [{ name: 'x-api-key' }, { name: 'X-Tenant', value: 'acme' }] },
    });
    const view = expectAnswer(patched, 'PATCH /api/forms/{form_id}/plugins/{id}', 200).plugin;
    expect(view.conditions).toEqual({
      match: 'all',
      rules: [{ field: 'topic', op: 'contains', value: 'sale' }],
    });
    expect(view.include_fields).toEqual(['message']);
    expect(view.config.headers).toEqual([
      { name: 'x-api-key', value: SECRET_MASK },
      { name: 'X-Tenant', value: SECRET_MASK },
    ]);
    const opened = (await storedConfig(plugin.id)).headers!.map((h) => ({
      name: h.name,
      value: t.stack.ctx.pluginSecrets.open(h.value),
    }));
    expect(opened).toEqual([
      { name: 'x-api-key', value: 'k-1' },
      { name: 'X-Tenant', value: 'acme' },
    ]);
    const [entry] = await t.stack.sql<{ summary: string }>(
      `select summary from audit_events where account_id = ? and action = 'plugin.updated'
        order by id desc limit 1`,
      [t.accountId],
    );
    expect(entry!.summary).toBe('conditions, include_fields, headers on webhook plugin');

    // A new header needs a value; nothing is written when anything is refused.
    const refused = await t.api.patch(path, {
      conditions: null,
      config: { headers: [{ name: 'X-New' }] },
    });
    expect(expectError(refused, 422, 'invalid_config').errors).toEqual([
      'config.headers.0.value: is required for "X-New"',
    ]);
    const again = expectAnswer(await t.api.get(path), 'GET /api/forms/{form_id}/plugins/{id}', 200);
    expect(again.plugin.conditions).not.toBeNull();

    // Clearing: null conditions and fields, an empty header list.
    const cleared = await t.api.patch(path, {
      conditions: null,
      include_fields: null,
      config: { headers: [] },
    });
    const clearedView = expectAnswer(cleared, 'PATCH /api/forms/{form_id}/plugins/{id}', 200);
    expect(clearedView.plugin).toMatchObject({ conditions: null, include_fields: null });
    expect(clearedView.plugin.config).toEqual({ url: URL });
  });

  it('PATCH config.headers on a non-webhook → invalid_config; conditions are fine', async () => {
    const { createTypedPlugin } = await import('../../src/plugins/manage/plugins');
    const slack = await createTypedPlugin(
      t.stack.ctx.orm.em.fork(),
      { formId: t.form.id, type: 'slack', config: { url: 'https://hooks.slack.com/services/X' } },
      0,
    );
    const path = `${pluginsPath()}/${slack.id}`;
    const refused = await t.api.patch(path, { config: { headers: [{ name: 'X-A', value: '1' }] } });
    expect(expectError(refused, 422, 'invalid_config').errors).toEqual([
      'config.headers: only webhooks have headers, not slack plugins',
    ]);
    const ok = await t.api.patch(path, {
      conditions: { match: 'all', rules: [{ field: 'urgent', op: 'equals', value: true }] },
    });
    const view = expectAnswer(ok, 'PATCH /api/forms/{form_id}/plugins/{id}', 200).plugin;
    expect(view.conditions!.rules[0]).toEqual({ field: 'urgent', op: 'equals', value: 'true' });
  });

  it('a PATCH that changes nothing writes no audit entry; enabled still works alone', async () => {
    const plugin = await createWebhook({ conditions: CONDITIONS });
    const path = `${pluginsPath()}/${plugin.id}`;
    const count = async () =>
      (
        await t.stack.sql<{ n: string }>(
          `select count(*) as n from audit_events where target_id = ? and action = 'plugin.updated'`,
          [plugin.id],
        )
      )[0]!.n;
    expect((await t.api.patch(path, { conditions: CONDITIONS })).status).toBe(200);
    expect(Number(await count())).toBe(0);
    const disabled = await t.api.patch(path, { enabled: false });
    expect(
      expectAnswer(disabled, 'PATCH /api/forms/{form_id}/plugins/{id}', 200).plugin.enabled,
    ).toBe(false);
    expect(Number(await count())).toBe(1);
  });
});
