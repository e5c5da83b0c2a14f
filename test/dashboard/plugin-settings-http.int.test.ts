import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { SECRET_MASK } from '../../src/plugins/manage/plugin-secrets';
import { request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { submitJson } from '../support/ingest-requests';
import { aroundStatements, type SentStatement } from '../support/statement-spy';
import { openAppSession, postForm } from './dashboard-support';

// A plugin's settings page over plain HTTP (docs/plugins.md): conditions, chosen fields and a
// webhook's headers, the dry run over the form's recent submissions, escaping, CSRF, and a
// viewer who may look but not change, nor see headers.

const MARKUP = '<b>x</b>';
const t = useTestStack({
  form: { name: 'Settings form' },
  env: { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1' },
});

async function session() {
  const app = await openAppSession(t.stack.url, t.email, t.password);
  return {
    get: (path: string) => request('GET', `${t.stack.url}${path}`, { cookie: app.cookie }),
    post: (path: string, fields: Record<string, string> = {}, csrf: string | null = app.csrf) =>
      postForm(t.stack.url, path, { cookie: app.cookie, csrf: csrf ?? '' }, fields),
  };
}

async function webhook(headers: unknown[] = []) {
  const res = await t.api.post(`/api/forms/${t.form.id}/plugins`, {
    plugin_type: 'webhook',
    config: { url: 'https://127.0.0.1:9/hook', headers },
  });
  expect(res.status, res.text).toBe(201);
  return (res.body as { plugin: { id: string } }).plugin.id;
}

const settings = (id: string) => `/app/forms/${t.form.id}/plugins/${id}/settings`;

async function stored(id: string) {
  const [row] = await t.stack.sql<{
    conditions: unknown;
    include_fields: unknown;
    config: { headers?: { name: string; value: string }[] };
  }>('select conditions, include_fields, config from plugins where id = ?', [id]);
  return row!;
}

describe('the plugin settings page', () => {
  it('counts the dry run without saving, saves, and counts the saved conditions', async () => {
    for (const topic of ['sales', 'Sales', 'support', 'sales', 'billing'])
      await submitJson(t.form, { topic, [`note${MARKUP}`]: 'n' });
    const id = await webhook();
    const s = await session();

    const page = await s.get(settings(id));
    expect(page.status).toBe(200);
    // Known fields are offered, escaped; no conditions: all 5 would go.
    expect(page.text).toContain('<option value="topic">');
    expect(page.text).toContain('note&lt;b&gt;x&lt;/b&gt;');
    expect(page.text).not.toContain(MARKUP);
    expect(page.text).toContain('<strong>5 of 5</strong>');

    const typed = {
      match: 'all',
      rule_0_field: 'topic',
      rule_0_op: 'equals',
      rule_0_value: 'SALES',
      include: 'topic',
      include_extra: 'email, phone',
    };
    const dry = await s.post(settings(id), { ...typed, intent: 'dry_run' });
    expect(dry.status).toBe(200);
    expect(dry.text).toContain('<strong>3 of 5</strong>');
    expect(dry.text).toContain('as typed (not saved)');
    expect((await stored(id)).conditions).toBeNull();

    const anyOf = await s.post(settings(id), {
      rule_0_field: 'topic',
      rule_0_op: 'one_of',
      rule_0_value: 'support, billing',
      intent: 'dry_run',
    });
    expect(anyOf.text).toContain('<strong>2 of 5</strong>');

    const saved = await s.post(settings(id), { ...typed, intent: 'save' });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(settings(id));
    expect(await stored(id)).toMatchObject({
      conditions: { match: 'all', rules: [{ field: 'topic', op: 'equals', value: 'SALES' }] },
      include_fields: ['topic', 'email', 'phone'],
    });
    const after = await s.get(settings(id));
    expect(after.text).toContain('<strong>3 of 5</strong>');
    expect(after.text).toContain('as saved');
    const [audit] = await t.stack.sql<{ summary: string }>(
      `select summary from audit_events where target_id = ? and action = 'plugin.settings_updated'`,
      [id],
    );
    expect(audit!.summary).toBe('conditions, include_fields on webhook plugin');
  });

  it('shows errors next to what was typed, saves nothing', async () => {
    const id = await webhook();
    const s = await session();
    const res = await s.post(settings(id), {
      rule_0_field: 'topic',
      rule_0_op: 'contains',
      rule_0_value: '',
      header_0_name: 'Host',
      header_0_value: 'evil.example',
      intent: 'save',
    });
    expect(res.status).toBe(422);
    expect(res.text).toContain('conditions.rules.0.value: must not be empty (use is_empty)');
    expect(res.text).toContain('headers.0.name: &quot;Host&quot; is set by Formward');
    expect(res.text).toContain('value="evil.example"');
    expect(await stored(id)).toMatchObject({ conditions: null, include_fields: null });
  });

  it('shows header values masked; a blank or masked value keeps the stored one', async () => {
    const id = await webhook([{ name: 'Authorization', value: 'Bearer page-secret' }]);
    const s = await session();
    const page = await s.get(settings(id));
    expect(page.text).toContain(`value="${SECRET_MASK}"`);
    expect(page.text).not.toContain('page-secret');
    const res = await s.post(settings(id), {
      header_0_name: 'Authorization',
      header_0_value: SECRET_MASK,
      header_1_name: 'X-Extra',
      header_1_value: 'plain',
      intent: 'save',
    });
    expect(res.status).toBe(303);
    const headers = (await stored(id)).config.headers!.map((h) => ({
      name: h.name,
      value: t.stack.ctx.pluginSecrets.open(h.value),
    }));
    expect(headers).toEqual([
      { name: 'Authorization', value: 'Bearer page-secret' },
      { name: 'X-Extra', value: 'plain' },
    ]);
  });

  it('refuses a post without the CSRF token and a viewer; a viewer sees no headers', async () => {
    const id = await webhook([{ name: 'X-Private-Name', value: 'v' }]);
    const s = await session();
    const forged = await s.post(
      settings(id),
      { rule_0_field: 'a', rule_0_op: 'is_empty', intent: 'save' },
      null,
    );
    expect(forged.status).toBe(403);
    expect((await stored(id)).conditions).toBeNull();

    const viewer = await t.stack.addMember(t.accountId, 'viewer');
    const seen = await request('GET', `${t.stack.url}${settings(id)}`, { cookie: viewer.cookie });
    expect(seen.status).toBe(200);
    expect(seen.text).not.toContain('X-Private-Name');
    expect(seen.text).toContain('<fieldset disabled>');
    const posted = await postForm(
      t.stack.url,
      settings(id),
      { cookie: viewer.cookie, csrf: viewer.csrf },
      { rule_0_field: 'a', rule_0_op: 'is_empty', intent: 'save' },
    );
    expect(posted.status).toBe(403);
    expect((await stored(id)).conditions).toBeNull();
  });

  it('links each plugin row to its settings', async () => {
    const id = await webhook();
    const s = await session();
    const list = await s.get(`/app/forms/${t.form.id}/plugins`);
    expect(list.text).toContain(`href="${settings(id)}"`);
  });

  it('reads only the fields the rules name, leaves big submissions out, and reads once a minute', async () => {
    const form = await t.api.createForm({ name: 'Dry run reads' });
    const unread = 'value-the-dry-run-never-reads';
    for (const topic of ['sales', 'support', 'sales'])
      await submitJson(form, { topic, note: unread });
    // Random text does not compress: stored past the 64 KiB limit.
    await submitJson(form, { topic: 'sales', essay: randomBytes(60_000).toString('base64') });
    const res = await t.api.post(`/api/forms/${form.id}/plugins`, {
      plugin_type: 'webhook',
      config: { url: 'https://127.0.0.1:9/hook' },
      conditions: { match: 'all', rules: [{ field: 'topic', op: 'equals', value: 'sales' }] },
    });
    expect(res.status, res.text).toBe(201);
    const id = (res.body as { plugin: { id: string } }).plugin.id;
    const page = `/app/forms/${form.id}/plugins/${id}/settings`;
    const s = await session();

    const reads: { statement: SentStatement; answer: string }[] = [];
    await aroundStatements(t.stack.ctx.orm, async (statement, send) => {
      const answer = await send();
      if (/\bsubmissions\b/.test(statement.sql))
        reads.push({ statement, answer: JSON.stringify(answer) });
      return answer;
    });
    try {
      const first = await s.get(page);
      expect(first.status).toBe(200);
      expect(first.text).toContain('<strong>2 of 3</strong>');
      expect(first.text).toContain('1 larger than 64 KiB was left out.');
      // The names the submissions used are offered; the big one is not read at all.
      expect(first.text).toContain('<option value="note">');
      expect(first.text).not.toContain('<option value="essay">');
      expect(reads.length).toBeGreaterThan(0);
      for (const { statement, answer } of reads) {
        expect(statement.sql).not.toMatch(/select\s+payload_json\s+from/i);
        expect(answer).not.toContain(unread);
        expect(answer.length).toBeLessThan(10_000);
      }

      reads.length = 0;
      const again = await s.get(page);
      expect(again.text).toContain('<strong>2 of 3</strong>');
      expect(reads).toEqual([]);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
