import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectAnswer, expectError, hrefOf } from '../support/api-client';
import { useTestStack, type Tenant } from '../support/fixture';
import { submitJson } from '../support/ingest-requests';

// Budgets against amplification (docs/security.md, "Budgets against amplification"), with small limits so each can be
// reached: forms per account, plugins per form, replays per minute, one running recovery.

const t = useTestStack({
  env: { MAX_FORMS_PER_ACCOUNT: '3', MAX_PLUGINS_PER_FORM: '3', REPLAY_RATE: '3' },
});

const PUBLIC_URL = 'https://93.184.216.34/hook';

const addWebhook = (tenant: Tenant, formId: string) =>
  tenant.api.post(`/api/forms/${formId}/plugins`, {
    plugin_type: 'webhook',
    config: { url: PUBLIC_URL },
  });

const statuses = (answers: { status: number }[]) => answers.map((a) => a.status).sort();

describe('forms per account (MAX_FORMS_PER_ACCOUNT)', () => {
  it('refuses the form past the limit with 409 limit_reached naming it, even in parallel', async () => {
    const tenant = await t.newTenant();
    await tenant.api.createForm({ name: 'One' });
    await tenant.api.createForm({ name: 'Two' });
    // Five at once for the one place left: exactly one may get it.
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => tenant.api.post('/api/forms', { name: `Racer ${n}` })),
    );
    expect(statuses(answers)).toEqual([201, 409, 409, 409, 409]);
    const refused = expectError(
      answers.find((a) => a.status === 409)!,
      409,
      'limit_reached',
    );
    expect(refused.message).toContain('MAX_FORMS_PER_ACCOUNT');
    expect(refused.message).toMatch(/\b3\b/);
    const [{ total }] = await t.stack.sql<{ total: string }>(
      'select count(*) as total from forms where account_id = ?',
      [tenant.accountId],
    );
    expect(Number(total)).toBe(3);
    // Another account has its own budget.
    await (await t.newTenant()).api.createForm({ name: 'Elsewhere' });
  });
});

describe('plugins per form (MAX_PLUGINS_PER_FORM, all types)', () => {
  it('counts every type, refuses the plugin past the limit even in parallel, and frees a place on delete', async () => {
    const tenant = await t.newTenant();
    const form = await tenant.api.createForm({ name: 'Plugged' });
    // An e-mail plugin (dashboard-made) takes a place like a webhook.
    await t.stack.sql(
      `insert into plugins (form_id, plugin_type, name, enabled, config)
       values (?, 'email', 'Mail', true, '{"recipients":["ops@example.com"]}')`,
      [form.id],
    );
    const answers = await Promise.all([1, 2, 3, 4].map(() => addWebhook(tenant, form.id)));
    expect(statuses(answers)).toEqual([201, 201, 409, 409]);
    const refused = expectError(
      answers.find((a) => a.status === 409)!,
      409,
      'limit_reached',
    );
    expect(refused.message).toContain('MAX_PLUGINS_PER_FORM');
    expect(refused.message).toMatch(/\b3\b/);

    const { plugin: created } = expectAnswer(
      answers.find((a) => a.status === 201)!,
      'POST /api/forms/{form_id}/plugins',
      201,
    );
    const removed = await tenant.api.delete(`/api/forms/${form.id}/plugins/${created.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect((await addWebhook(tenant, form.id)).status).toBe(201);
    expectError(await addWebhook(tenant, form.id), 409, 'limit_reached');
  });
});

describe('replays per account per minute (REPLAY_RATE)', () => {
  it('answers 429 rate_limited with Retry-After past the budget, shared by every serve process', async () => {
    const tenant = await t.newTenant();
    const form = await tenant.api.createForm({ name: 'Replayed' });
    const id = await submitJson(form, { message: 'again and again' });
    const replay = () => tenant.api.post(`/api/submissions/${id}/replay`);
    for (let n = 0; n < 3; n++) expect((await replay()).status).toBe(202);
    const refused = await replay();
    const body = expectError(refused, 429, 'rate_limited');
    expect(body.message).toContain('REPLAY_RATE');
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);

    // A second serve process counts in the same PostgreSQL rows: it sees the budget used.
    const { ReplayBudget } = await import('../../src/domain/deliveries/replay-budget');
    const pool = await t.stack.ctx.orm.em.getConnection().getNativeClient();
    const otherProcess = new ReplayBudget(pool, 3);
    const em = t.stack.ctx.orm.em.fork();
    expect(await otherProcess.consume(em, tenant.accountId)).toBeGreaterThan(0);
    const fresh = await t.newTenant();
    expect(await otherProcess.consume(em, fresh.accountId)).toBe(0);
  });
});

/**
 * A new account's form with a webhook whose one delivery failed, and a request recovering
 * that webhook's failures of the last hour (no worker on this stack: a run stays running).
 */
async function webhookWithFailedDelivery(formName: string) {
  const tenant = await t.newTenant();
  const form = await tenant.api.createForm({ name: formName });
  const added = await addWebhook(tenant, form.id);
  const { plugin } = expectAnswer(added, 'POST /api/forms/{form_id}/plugins', 201);
  const submissionId = await submitJson(form, { message: 'failed once' });
  await t.stack.sql(
    `insert into delivery_attempts (delivery_id, submission_id, plugin_id, attempt, status,
        error, is_replay, is_test, workflow_id, workflow_run_id, started_at, finished_at)
     values (?, ?, ?, 1, 'failed', 'receiver answered 500', false, false, 'w', 'r', now(), now())`,
    [randomUUID(), submissionId, plugin.id],
  );
  const recover = () =>
    tenant.api.post(`/api/forms/${form.id}/plugins/${plugin.id}/recover`, {
      since: new Date(Date.now() - 3600_000).toISOString(),
    });
  return { plugin, recover };
}

describe('one running recovery per plugin', () => {
  it('answers 409 recovery_running with a link to the running one, even in parallel', async () => {
    // No worker on this stack: a started recovery stays running.
    const { plugin, recover } = await webhookWithFailedDelivery('Recovered');
    const answers = await Promise.all([recover(), recover(), recover()]);
    expect(statuses(answers)).toEqual([202, 409, 409]);
    const { recovery: started } = expectAnswer(
      answers.find((a) => a.status === 202)!,
      'POST /api/forms/{form_id}/plugins/{id}/recover',
      202,
    );
    expect(started.status).toBe('running');
    for (const answer of answers.filter((a) => a.status === 409)) {
      const body = expectError(answer, 409, 'recovery_running');
      expect(hrefOf(body.links, 'recovery')).toBe(hrefOf(started.links, 'self'));
      expect(body.message).toContain(`Recovery ${started.id}`);
    }
    const [{ running }] = await t.stack.sql<{ running: string }>(
      `select count(*) as running from plugin_recoveries where plugin_id = ? and status = 'running'`,
      [plugin.id],
    );
    expect(Number(running)).toBe(1);

    // Once it ends, the plugin may be recovered again.
    await t.stack.sql(`update plugin_recoveries set status = 'completed' where id = ?`, [
      started.id,
    ]);
    expect((await recover()).status).toBe(202);
  });

  it('a run whose workflow was terminated outside Formward, or never started, frees the plugin', async () => {
    const { recover } = await webhookWithFailedDelivery('Terminated');
    const statusOf = async (id: string) =>
      (
        await t.stack.sql<{ status: string }>('select status from plugin_recoveries where id = ?', [
          id,
        ])
      )[0]!.status;

    // Terminated in the Temporal UI: the next recovery starts, the old run reads failed.
    const first = expectAnswer(
      await recover(),
      'POST /api/forms/{form_id}/plugins/{id}/recover',
      202,
    );
    expectError(await recover(), 409, 'recovery_running');
    await t.stack.ctx.temporal.call(5000, (client) =>
      client.workflow.getHandle(`recovery-${first.recovery.id}`).terminate('by hand'),
    );
    const second = expectAnswer(
      await recover(),
      'POST /api/forms/{form_id}/plugins/{id}/recover',
      202,
    );
    expect(await statusOf(first.recovery.id)).toBe('failed');
    expect(second.recovery.status).toBe('running');

    // Recorded, but its workflow never started (the process died in between): after the
    // grace time the plugin is free again; within it, the run still counts as starting.
    await t.stack.sql('update plugin_recoveries set workflow_id = null where id = ?', [
      second.recovery.id,
    ]);
    expectError(await recover(), 409, 'recovery_running');
    await t.stack.sql(
      `update plugin_recoveries set created_at = now() - interval '3 minutes' where id = ?`,
      [second.recovery.id],
    );
    expect((await recover()).status).toBe(202);
    expect(await statusOf(second.recovery.id)).toBe('failed');
  });
});
