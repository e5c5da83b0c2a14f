import { describe, expect, it } from 'vitest';
import { createTypedPlugin } from '../../src/plugins/manage/plugins';
import { sealConfig } from '../../src/plugins/manage/plugin-secrets';
import { PLUGIN_TYPES } from '../../src/plugins/registry';
import { expectAnswer, expectError } from '../support/api-client';
import { useTestStack } from '../support/fixture';

// Airtable and Notion plugins through the API (docs/plugins.md): created in the dashboard
// only, read by everyone with the token masked, and by a readonly key without it at all.

const t = useTestStack(() => ({ form: { name: 'Record plugins' } }));

const pluginsPath = () => `/api/forms/${t.form.id}/plugins`;
const AIRTABLE_TOKEN = `patApiTestToken01.${'00112233aabbccdd'.repeat(4)}`;
const NOTION_TOKEN = `ntn_${'ApiTestSecret'.repeat(3)}`;

async function addSealed(type: 'airtable' | 'notion', config: Record<string, unknown>) {
  const plugin = await createTypedPlugin(
    t.stack.ctx.orm.em.fork(),
    {
      formId: t.form.id,
      type,
      config: sealConfig(PLUGIN_TYPES[type], config, t.stack.ctx.pluginSecrets),
    },
    0,
  );
  return plugin.id;
}

describe('Airtable and Notion plugins through the API', () => {
  it('reads them with the token masked, and a readonly key without it', async () => {
    const airtable = await addSealed('airtable', {
      token: AIRTABLE_TOKEN,
      base: 'appApiTestBase001',
      table: 'Leads',
    });
    const notion = await addSealed('notion', {
      token: NOTION_TOKEN,
      database: '01234567-89ab-cdef-0123-456789abcdef',
    });
    const full = expectAnswer(
      await t.api.get(`${pluginsPath()}/${airtable}`),
      'GET /api/forms/{form_id}/plugins/{id}',
      200,
    );
    expect(full.plugin).toMatchObject({
      plugin_type: 'airtable',
      name: 'Airtable table Leads',
      config: { token: '••••••••', base: 'appApiTestBase001', table: 'Leads' },
    });
    const readonly = expectAnswer(
      await t.readonly.get(`${pluginsPath()}/${notion}`),
      'GET /api/forms/{form_id}/plugins/{id}',
      200,
    );
    expect(readonly.plugin.config).toEqual({ database: '01234567-89ab-cdef-0123-456789abcdef' });
    for (const client of [t.api, t.readonly]) {
      const list = await client.get(pluginsPath());
      expect(list.status).toBe(200);
      expect(list.text).not.toContain(AIRTABLE_TOKEN);
      expect(list.text).not.toContain(NOTION_TOKEN);
    }
  });

  it.each(['airtable', 'notion'])(
    'POST with plugin_type %s → 422 unsupported_plugin',
    async (type) => {
      const res = await t.api.post(pluginsPath(), {
        plugin_type: type,
        config: { token: NOTION_TOKEN, database: '0123456789abcdef0123456789abcdef' },
      });
      expectError(res, 422, 'unsupported_plugin');
    },
  );
});
