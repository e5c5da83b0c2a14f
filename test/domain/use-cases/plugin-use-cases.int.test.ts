import { describe, expect, it } from 'vitest';
import { LimitReachedError } from '../../../src/domain/budgets/limit-reached';
import { findAccountForm } from '../../../src/domain/forms/forms';
import { createPlugin, PluginConfigRefusedError } from '../../../src/plugins/manage/create-plugin';
import { deletePlugin } from '../../../src/plugins/manage/delete-plugin';
import { findFormPlugin } from '../../../src/plugins/manage/plugins';
import { expectAnswer } from '../../support/api-client';
import { useTestStack } from '../../support/fixture';
import { auditEntries, dashboardOf, freshEm } from './use-case-stack';

// src/plugins/manage/create-plugin.ts and delete-plugin.ts, called directly against the real
// database, and the deletion's audit entry through the API and the dashboard.

const t = useTestStack({ form: { name: 'Plugins' } });
const HOOK = 'https://93.184.216.34/hook';

const formOf = async () => (await findAccountForm(freshEm(t), t.accountId, t.form.id))!;

const pluginRow = async (id: string) =>
  (
    await t.stack.sql<{
      plugin_type: string;
      config: Record<string, unknown>;
      signing_secret: string | null;
      enabled: boolean;
      deleted_at: string | null;
    }>(
      'select plugin_type, config, signing_secret, enabled, deleted_at from plugins where id = ?',
      [id],
    )
  )[0]!;

describe('createPlugin', () => {
  it('stores a webhook with its sealed secret, shown once', async () => {
    const form = await formOf();
    const created = await createPlugin(freshEm(t), t.stack.ctx, form, {
      type: 'webhook',
      config: { url: HOOK },
    });
    const row = await pluginRow(created.plugin.id);
    expect(row).toMatchObject({ plugin_type: 'webhook', config: { url: HOOK }, enabled: true });
    expect(created.signingSecret).toMatch(/^whsec_/);
    expect(row.signing_secret).not.toContain(created.signingSecret);
    expect(created.audit).toEqual({
      targetId: created.plugin.id,
      summary: `webhook to 93.184.216.34 on form ${form.id}`,
    });
  });

  it('stores an e-mail plugin and asks its addresses to confirm', async () => {
    const form = await formOf();
    const created = await createPlugin(freshEm(t), t.stack.ctx, form, {
      type: 'email',
      config: { recipients: ['Team@Example.org'] },
    });
    expect(await pluginRow(created.plugin.id)).toMatchObject({
      plugin_type: 'email',
      config: { recipients: ['team@example.org'] },
      signing_secret: null,
    });
    const requests = await t.stack.sql(
      `select 1 from recipient_confirmations
        where account_id = ? and address = 'team@example.org' and token_hash is not null`,
      [t.accountId],
    );
    expect(requests).toHaveLength(1);
    expect(created.audit).toEqual({
      targetId: created.plugin.id,
      summary: `email plugin on form ${form.id}`,
    });
  });

  it('refuses a URL to a private address, and a plugin past the form’s budget', async () => {
    const form = await formOf();
    const before = await t.stack.sql('select id from plugins where form_id = ?', [form.id]);
    const refused = createPlugin(freshEm(t), t.stack.ctx, form, {
      type: 'slack',
      config: { url: 'https://127.0.0.1/hook' },
    });
    await expect(refused).rejects.toBeInstanceOf(PluginConfigRefusedError);
    const config = t.stack.ctx.config;
    const full = {
      ...t.stack.ctx,
      config: { ...config, budgets: { ...config.budgets, pluginsPerForm: before.length } },
    };
    await expect(
      createPlugin(freshEm(t), full, form, { type: 'webhook', config: { url: HOOK } }),
    ).rejects.toBeInstanceOf(LimitReachedError);
    expect(await t.stack.sql('select id from plugins where form_id = ?', [form.id])).toEqual(
      before,
    );
  });
});

describe('deletePlugin', () => {
  it('soft-deletes the plugin and says what went', async () => {
    const em = freshEm(t);
    const { plugin } = await createPlugin(em, t.stack.ctx, await formOf(), {
      type: 'webhook',
      config: { url: HOOK },
    });
    const { audit } = await deletePlugin(em, plugin);
    const row = await pluginRow(plugin.id);
    expect(row.enabled).toBe(false);
    expect(row.deleted_at).not.toBeNull();
    expect(await findFormPlugin(freshEm(t), t.form.id, plugin.id)).toBeNull();
    expect(audit).toEqual({ targetId: plugin.id, summary: 'deleted webhook plugin' });
  });

  it('the API and the dashboard record a deletion alike', async () => {
    const hook = async () =>
      expectAnswer(
        await t.api.post(`/api/forms/${t.form.id}/plugins`, {
          plugin_type: 'webhook',
          config: { url: HOOK },
        }),
        'POST /api/forms/{form_id}/plugins',
        201,
      ).plugin.id;
    const byApi = await hook();
    const byPage = await hook();
    const deleted = await t.api.delete(`/api/forms/${t.form.id}/plugins/${byApi}`);
    expect(deleted.status, deleted.text).toBe(200);
    const app = await dashboardOf(t);
    await app.post(`/app/forms/${t.form.id}/plugins/${byPage}/delete`);
    const entries = [
      ...(await auditEntries(t, 'plugin.deleted')),
      ...(await auditEntries(t, 'webhook.deleted')),
    ];
    expect(entries).toEqual([
      { action: 'plugin.deleted', target_id: byApi, summary: 'deleted webhook plugin' },
      { action: 'webhook.deleted', target_id: byPage, summary: 'deleted webhook plugin' },
    ]);
    expect((await pluginRow(byPage)).deleted_at).not.toBeNull();
  });
});
