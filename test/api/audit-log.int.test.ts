import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { submitJson } from '../support/ingest-requests';
import { temporalClientOf, retentionScheduleOf, triggerPurge } from '../support/retention-runs';

// The audit log through the API (docs/audit-log.md): changes made with a key are recorded with
// the key, the client address, the action, the target and a summary; a refused change
// writes nothing; GET /api/audit_log pages, filters and refuses a readonly key; the hourly
// purge deletes entries older than AUDIT_RETENTION_DAYS.

// One proxy hop is trusted, so X-Forwarded-For gives each request a distinct client address.
const t = useTestStack({ worker: true, env: { TRUST_PROXY: '1', AUDIT_RETENTION_DAYS: '30' } });

type Entry = {
  id: string;
  occurred_at: string;
  actor: { type: string; user_id: string | null; api_key_id: string | null; label: string };
  client_address: string | null;
  action: string;
  target: { type: string | null; id: string | null };
  summary: string;
};
type Page = {
  audit_events: Entry[];
  payload: Entry[];
  meta: { page: number; per_page: number; total: number; total_pages: number };
  links: { rel: string; href: string }[];
};

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
const HOOK = 'https://93.184.216.34/hook';

async function adminKey(): Promise<{ id: string; label: string }> {
  const prefix = t.adminKey.slice(0, 12);
  const [row] = await t.stack.sql<{ id: string; name: string }>(
    'select id::text as id, name from api_keys where prefix = ?',
    [prefix],
  );
  return { id: row!.id, label: `${row!.name} (${prefix}…)` };
}

async function log(query = ''): Promise<Page> {
  const res = await t.api.get(`/api/audit_log${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as Page;
}

const entries = (accountId = t.accountId) =>
  t.stack.sql<{ action: string }>('select action from audit_events where account_id = ?', [
    accountId,
  ]);

describe('changes through the API', () => {
  it('records create, update, webhook, rotation and replay with the key, address, target and summary', async () => {
    const key = await adminKey();
    const created = await t.api.post('/api/forms', { name: 'Audited' }, from('203.0.113.10'));
    expect(created.status, created.text).toBe(201);
    const formId = (created.body as { form: { id: string } }).form.id;
    const updated = await t.api.patch(
      `/api/forms/${formId}`,
      { name: 'Audited again', is_active: true },
      from('203.0.113.11'),
    );
    expect(updated.status, updated.text).toBe(200);
    const hook = await t.api.post(
      `/api/forms/${formId}/plugins`,
      { plugin_type: 'webhook', config: { url: HOOK } },
      from('203.0.113.12'),
    );
    expect(hook.status, hook.text).toBe(201);
    const { id: pluginId, signing_secret: secret } = (
      hook.body as { plugin: { id: string; signing_secret: string } }
    ).plugin;
    const rotated = await t.api.post(
      `/api/forms/${formId}/plugins/${pluginId}/rotate_secret`,
      undefined,
      from('203.0.113.13'),
    );
    expect(rotated.status, rotated.text).toBe(200);
    const newSecret = (rotated.body as { plugin: { signing_secret: string } }).plugin
      .signing_secret;
    const form = (created.body as { form: { json_url: string } }).form;
    const submissionId = await submitJson(form, { email: 'a@example.com', message: 'hi' });
    const replay = await t.api.post(
      `/api/submissions/${submissionId}/replay`,
      undefined,
      from('203.0.113.14'),
    );
    expect(replay.status, replay.text).toBe(202);

    const page = await log(`?target_type=form&target_id=${formId}`);
    expect(page.audit_events.map((e) => e.action)).toEqual(['form.updated', 'form.created']);
    const [update, create] = page.audit_events;
    const actor = { type: 'api_key', user_id: null, api_key_id: key.id, label: key.label };
    expect(create).toMatchObject({
      actor,
      client_address: '203.0.113.10',
      target: { type: 'form', id: formId },
      summary: 'created form “Audited”',
    });
    expect(update).toMatchObject({
      actor,
      client_address: '203.0.113.11',
      summary: 'changed name', // is_active was true already: not a change
    });
    const plugin = await log(`?target_type=plugin&target_id=${pluginId}`);
    expect(plugin.audit_events.map((e) => [e.action, e.client_address])).toEqual([
      ['webhook.secret_rotated', '203.0.113.13'],
      ['webhook.created', '203.0.113.12'],
    ]);
    expect(plugin.audit_events[1]!.summary).toBe(`webhook to 93.184.216.34 on form ${formId}`);
    const replayed = await log(`?action=submission.replayed&target_id=${submissionId}`);
    expect(replayed.audit_events).toHaveLength(1);
    expect(replayed.audit_events[0]).toMatchObject({ actor, client_address: '203.0.113.14' });
    // Never a secret or a submitted value in the log.
    const all = JSON.stringify(await t.stack.sql('select * from audit_events'));
    for (const hidden of [secret, newSecret, 'a@example.com', t.adminKey])
      expect(all).not.toContain(hidden);
  });

  it('a refused change (4xx) writes nothing', async () => {
    const form = await t.api.createForm({ name: 'Refusals' });
    const before = (await entries()).length;
    const refused: ApiResponse[] = [
      await t.readonly.post('/api/forms', { name: 'Not allowed' }), // 403
      await t.api.post('/api/forms', { name: '' }), // 422
      await t.api.patch('/api/forms/999999999', { name: 'Nobody' }), // 404
      await t.api.post(`/api/forms/${form.id}/plugins`, {
        plugin_type: 'webhook',
        config: { url: 'http://not-https.example/' },
      }),
    ];
    for (const res of refused) expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await entries()).toHaveLength(before);
  });
});

describe('GET /api/audit_log', () => {
  it('pages newest first, filters by actor, action and time, and is not itself recorded', async () => {
    const tenant = await t.newTenant();
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) {
      const res = await tenant.api.post('/api/forms', { name: `Form ${n}` });
      ids.push((res.body as { form: { id: string } }).form.id);
    }
    const read = async (query: string) => {
      const res = await tenant.api.get(`/api/audit_log${query}`);
      expect(res.status, res.text).toBe(200);
      return res.body as Page;
    };
    const first = await read('?per_page=2');
    expect(first.meta).toEqual({ page: 1, per_page: 2, total: 5, total_pages: 3 });
    expect(first.audit_events.map((e) => e.target.id)).toEqual([ids[4], ids[3]]);
    expect(first.payload).toEqual(first.audit_events);
    const next = first.links.find((l) => l.rel === 'next')!.href;
    const second = (await tenant.api.get(next)).body as Page;
    expect(second.audit_events.map((e) => e.target.id)).toEqual([ids[2], ids[1]]);
    const third = await read('?per_page=2&page=3');
    expect(third.audit_events.map((e) => e.target.id)).toEqual([ids[0]]);
    expect(third.links.map((l) => l.rel)).not.toContain('next');

    // Another key of the account: the actor filter tells them apart.
    const other = await tenant.clientFor('admin');
    await other.post('/api/forms', { name: 'By the other key' });
    const otherKeyId = (
      await t.stack.sql<{ id: string }>(
        'select id::text as id from api_keys where account_id = ? order by id desc limit 1',
        [tenant.accountId],
      )
    )[0]!.id;
    const byOther = await read(`?actor=${otherKeyId}`);
    expect(byOther.audit_events.map((e) => e.summary)).toEqual(['created form “By the other key”']);
    expect((await read('?action=form.updated')).meta.total).toBe(0);
    expect((await read('?action=form.created')).meta.total).toBe(6);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await read(`?since=${encodeURIComponent(future)}`)).meta.total).toBe(0);
    expect((await read(`?until=${encodeURIComponent(future)}`)).meta.total).toBe(6);
    const bad = await tenant.api.get('/api/audit_log?since=yesterday');
    expect(bad.status).toBe(422);
    // Reading the log is not a change: still 6 entries, and none from another account.
    expect(await entries(tenant.accountId)).toHaveLength(6);
    const mine = await log('?per_page=500');
    expect(mine.audit_events.map((e) => e.target.id)).not.toContain(ids[0]);
  });

  it('refuses a readonly key (403) and reads nothing without a key (401)', async () => {
    const rels = async (client: typeof t.api) =>
      ((await client.get('/api')).body as { links: { rel: string }[] }).links.map((l) => l.rel);
    expect(await rels(t.api)).toContain('audit_log');
    expect(await rels(t.readonly)).not.toContain('audit_log');
    expect((await t.readonly.get('/api/audit_log')).status).toBe(403);
    expect((await t.http.get('/api/audit_log')).status).toBe(401);
  });
});

describe('retention', () => {
  it('the hourly purge deletes entries older than AUDIT_RETENTION_DAYS and keeps newer ones', async () => {
    const insert = (days: number, action: string) =>
      t.stack.sql(
        `insert into audit_events (account_id, occurred_at, actor_type, actor_label, action)
         values (?, now() - make_interval(days => ?), 'operator', 'test', ?)`,
        [t.accountId, days, action],
      );
    await insert(31, 'test.too_old');
    await insert(29, 'test.kept');
    const temporal = await temporalClientOf(t.stack);
    try {
      const result = await triggerPurge(temporal.client, t.stack);
      expect(result.stale.auditEvents).toBeGreaterThanOrEqual(1);
      const left = await t.stack.sql<{ action: string }>(
        "select action from audit_events where action like 'test.%'",
      );
      expect(left).toEqual([{ action: 'test.kept' }]);
    } finally {
      await retentionScheduleOf(temporal.client, t.stack)
        .delete()
        .catch(() => undefined);
      await temporal.close();
    }
  });
});
