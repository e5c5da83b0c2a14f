import { describe, expect, it } from 'vitest';
import { request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { openAppSession, postForm } from './dashboard-support';

// Adding Airtable and Notion plugins on the form's plugin page (docs/plugins.md): each
// field's error beside it, the token neither echoed back nor shown once stored.

const t = useTestStack({ form: { name: 'Records' } });

const AIRTABLE_TOKEN = `patDashboardTest1.${'9f8e7d6c5b4a3210'.repeat(4)}`;
const NOTION_TOKEN = `ntn_${'DashboardSecret'.repeat(3)}`;
const BASE = 'appDashboardTest1';
const DATABASE_HEX = '89abcdef0123456789abcdef01234567';

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

async function pluginsOfType(type: string) {
  return t.stack.sql<{ name: string; config: Record<string, unknown> }>(
    'select name, config from plugins where form_id = ? and plugin_type = ? and deleted_at is null order by id',
    [t.form.id, type],
  );
}

describe('adding an Airtable table', () => {
  it('refuses bad input with each field’s error, without echoing the token', async () => {
    const s = await session();
    const refused = await s.post(add(), {
      type: 'airtable',
      token: 'key-not-a-pat',
      base: 'Leads',
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('must be a personal access token (it starts with pat)');
    const wrongBase = await s.post(add(), {
      type: 'airtable',
      token: AIRTABLE_TOKEN,
      base: 'https://evil.example/x',
      table: 'Leads',
    });
    expect(wrongBase.status).toBe(422);
    expect(wrongBase.text).toContain('must be a base id (app followed by 14 letters and digits)');
    expect(wrongBase.text).toContain('value="https://evil.example/x"');
    expect(wrongBase.text).not.toContain(AIRTABLE_TOKEN);
    const noTable = await s.post(add(), { type: 'airtable', token: AIRTABLE_TOKEN, base: BASE });
    expect(noTable.status).toBe(422);
    expect(noTable.text).toContain('is required (the table’s name, its id tbl…, or its address)');
    expect(await pluginsOfType('airtable')).toEqual([]);
  });

  it('adds one from a pasted table address; the token is sealed and never shown', async () => {
    const s = await session();
    const form = await s.get(page());
    expect(form.text).toContain('Add an Airtable table');
    expect(form.text).toMatch(/<input type="password" name="token"/);
    const added = await s.post(add(), {
      type: 'airtable',
      token: AIRTABLE_TOKEN,
      base: `https://airtable.com/${BASE}/tblDashboardTest1/viwDashboardTest1`,
    });
    expect(added.status).toBe(303);
    const [stored] = await pluginsOfType('airtable');
    expect(stored!.name).toBe('Airtable table tblDashboardTest1');
    expect(stored!.config).toMatchObject({ base: BASE, table: 'tblDashboardTest1' });
    expect(JSON.stringify(stored!.config)).not.toContain(AIRTABLE_TOKEN);
    const shown = await s.get(page());
    expect(shown.text).toContain(`Airtable base ${BASE}, table tblDashboardTest1`);
    expect(shown.text).not.toContain(AIRTABLE_TOKEN);
  });
});

describe('adding a Notion database', () => {
  it('refuses bad input with each field’s error, without echoing the secret', async () => {
    const s = await session();
    const refused = await s.post(add(), {
      type: 'notion',
      token: NOTION_TOKEN,
      database: 'https://www.notion.so/acme/Leads?v=123',
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain(
      'must be a database id (32 hexadecimal digits) or the database’s address',
    );
    expect(refused.text).not.toContain(NOTION_TOKEN);
    const badToken = await s.post(add(), { type: 'notion', token: 'abc', database: DATABASE_HEX });
    expect(badToken.status).toBe(422);
    expect(badToken.text).toContain('must be an integration secret (ntn_… or secret_…)');
    expect(await pluginsOfType('notion')).toEqual([]);
  });

  it('adds one from a pasted database address; the secret is sealed and never shown', async () => {
    const s = await session();
    const added = await s.post(add(), {
      type: 'notion',
      token: NOTION_TOKEN,
      database: `https://www.notion.so/acme/Leads-${DATABASE_HEX}?v=fedcba9876543210fedcba9876543210`,
      name: 'Leads in Notion',
    });
    expect(added.status).toBe(303);
    const [stored] = await pluginsOfType('notion');
    expect(stored!.name).toBe('Leads in Notion');
    expect(stored!.config.database).toBe('89abcdef-0123-4567-89ab-cdef01234567');
    expect(JSON.stringify(stored!.config)).not.toContain(NOTION_TOKEN);
    const shown = await s.get(page());
    expect(shown.text).toContain('Notion database 89abcdef-0123-4567-89ab-cdef01234567');
    expect(shown.text).not.toContain(NOTION_TOKEN);
  });
});
