import { describe, expect, it } from 'vitest';
import { ApiWriteBudget } from '../../src/domain/budgets/api-write-budget';
import { ApiClient, expectError, request } from '../support/api-client';
import { useTestStack } from '../support/fixture';

// The API's write rate (API_WRITE_RATE, docs/api-conventions.md, Limits) and changes that
// change nothing, which write no audit entry (docs/audit-log.md).

const RATE = 4;
const t = useTestStack({ env: { API_WRITE_RATE: String(RATE) } });

const apiKeyIdOf = async (key: string) => {
  const [row] = await t.stack.sql<{ id: string }>(
    'select id::text as id from api_keys where prefix = ?',
    [key.slice(0, 12)],
  );
  return row!.id;
};

const auditActions = (accountId: string, action: string) =>
  t.stack.sql<{ target_id: string }>(
    'select target_id from audit_events where account_id = ? and action = ?',
    [accountId, action],
  );

describe('API_WRITE_RATE', () => {
  it('answers 429 rate_limited with Retry-After past the budget of a key; reads and other credentials go on', async () => {
    const tenant = await t.newTenant();
    const form = await tenant.api.createForm({ name: 'Counted' });
    for (let n = 1; n < RATE; n++) {
      const res = await tenant.api.patch(`/api/forms/${form.id}`, { name: `Name ${n}` });
      expect(res.status, res.text).toBe(200);
    }
    const refused = await tenant.api.patch(`/api/forms/${form.id}`, { name: 'One too many' });
    const body = expectError(refused, 429, 'rate_limited');
    expect(body.message).toContain('API_WRITE_RATE');
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    // Refused before the handler: the form kept its name.
    const read = await tenant.api.get(`/api/forms/${form.id}`);
    expect(read.status).toBe(200);
    expect((read.body as { form: { name: string } }).form.name).toBe(`Name ${RATE - 1}`);
    const hook = { plugin_type: 'webhook', config: { url: 'https://93.184.216.34/hook' } };
    expectError(await tenant.api.post(`/api/forms/${form.id}/plugins`, hook), 429, 'rate_limited');

    // Another key of the account, and a member's dashboard session, have budgets of their own.
    const other = await tenant.clientFor('admin');
    expect((await other.patch(`/api/forms/${form.id}`, { name: 'Other key' })).status).toBe(200);
    const member = await t.stack.addMember(tenant.accountId, 'admin');
    const session = await request('PATCH', `${t.stack.url}/api/forms/${form.id}`, {
      cookie: member.cookie,
      headers: { 'x-csrf-token': member.csrf },
      json: { name: 'From a session' },
    });
    expect(session.status, session.text).toBe(200);

    // A second serve process counts in the same PostgreSQL rows: it sees the budget used.
    const pool = await t.stack.ctx.orm.em.getConnection().getNativeClient();
    const otherProcess = new ApiWriteBudget(pool, RATE);
    const principal = {
      kind: 'api_key' as const,
      apiKeyId: await apiKeyIdOf(tenant.adminKey),
      accountId: tenant.accountId,
      scopes: new Set<never>(),
    };
    expect(await otherProcess.consumeFor(principal)).toBeGreaterThan(0);
  });
});

describe('a change that changes nothing', () => {
  it('PATCH of a form with the same values twice writes one audit entry and keeps updated_at', async () => {
    const tenant = await t.newTenant();
    const form = await tenant.api.createForm({ name: 'Still' });
    const same = {
      name: 'Same',
      allowed_domains: ['customer.example'],
      captcha: { provider: 'turnstile', site_key: 'site', secret: 'the-secret' },
    };
    const first = await tenant.api.patch(`/api/forms/${form.id}`, same);
    expect(first.status, first.text).toBe(200);
    const updatedAt = async () =>
      (
        await t.stack.sql<{ at: string }>('select updated_at::text as at from forms where id = ?', [
          form.id,
        ])
      )[0]!.at;
    const before = await updatedAt();
    const second = await tenant.api.patch(`/api/forms/${form.id}`, same);
    expect(second.status, second.text).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await updatedAt()).toBe(before);
    expect(await auditActions(tenant.accountId, 'form.updated')).toHaveLength(1);
    // A real change is still written, naming only what changed.
    const third = await tenant.api.patch(`/api/forms/${form.id}`, { ...same, name: 'Changed' });
    expect(third.status, third.text).toBe(200);
    const [entry] = await t.stack.sql<{ summary: string }>(
      `select summary from audit_events where account_id = ? and action = 'form.updated'
        order by id desc limit 1`,
      [tenant.accountId],
    );
    expect(entry!.summary).toBe('changed name');
  });

  it('disabling a disabled plugin through the API writes no second entry', async () => {
    const tenant = await t.newTenant();
    const form = await tenant.api.createForm({ name: 'Hooked' });
    const hook = await tenant.api.addWebhook(form.id, 'https://93.184.216.34/hook');
    const path = `/api/forms/${form.id}/plugins/${hook.id}`;
    const keyTwo = await tenant.clientFor('admin');
    for (const client of [tenant.api, keyTwo]) {
      const res = await client.patch(path, { enabled: false });
      expect(res.status, res.text).toBe(200);
    }
    expect(await auditActions(tenant.accountId, 'plugin.updated')).toHaveLength(1);
  });

  it("saving a form's CAPTCHA page unchanged in the dashboard writes one entry", async () => {
    const tenant = await t.newTenant();
    const form = await tenant.api.createForm({ name: 'Dashboard' });
    const member = await t.stack.addMember(tenant.accountId, 'admin');
    const save = () =>
      request('POST', `${t.stack.url}/app/forms/${form.id}/captcha`, {
        cookie: member.cookie,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          _csrf: member.csrf,
          provider: 'turnstile',
          site_key: 'site',
          secret: 'the-secret',
        }).toString(),
      });
    for (let n = 0; n < 2; n++) expect((await save()).status).toBe(303);
    expect(await auditActions(tenant.accountId, 'form.captcha_updated')).toHaveLength(1);
    // The same secret sent again kept the stored one (read back through the API).
    const read = await new ApiClient(t.stack.url, { key: tenant.adminKey }).get(
      `/api/forms/${form.id}`,
    );
    expect((read.body as { form: { captcha: unknown } }).form.captcha).toEqual({
      provider: 'turnstile',
      site_key: 'site',
      secret_set: true,
    });
  });
});
