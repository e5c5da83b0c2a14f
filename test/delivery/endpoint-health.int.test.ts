import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { findPart, headerValue, readMimeMessage } from '../../src/domain/mail/mime-reader';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import {
  expectAnswer,
  expectError,
  type AnswerBody,
  type ApiClient,
  type FormView,
} from '../support/api-client';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { useTestStack, type TestKit } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { ingestResultOf, postJson, submitJson } from '../support/ingest-requests';
import { attemptsOf, fastDeliveryEnv, waitForAttempts } from '../support/delivery-attempts';

// Endpoint health end to end (docs/endpoint-health.md): real ingest, a real worker, a real
// HTTPS receiver that fails on demand, the SMTP sink for the account's e-mail, and the
// thresholds made small through the environment.

let dns: DnsServer;
let sink: SmtpSink;
const receivers: HttpsReceiver[] = [];

beforeAll(async () => {
  dns = await startDnsServer({});
  sink = await startSmtpSink();
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await sink?.close();
  await dns?.close();
});

/** Fast retries, the SMTP sink and the health knobs of a suite. */
const stackWith = (health: Record<string, string>) => () => ({
  worker: true,
  env: { ...fastDeliveryEnv(dns.address), SMTP_URL: sink.url(), ...health },
});

/** A receiver that answers 500 to submissions whose message is `fail`, 200 to the others. */
async function failOnDemand(): Promise<HttpsReceiver> {
  const started = await startHttpsReceiver(inject('stack').certificates, (request) =>
    (JSON.parse(request.body) as { data?: { message?: string } }).data?.message === 'fail'
      ? { status: 500, body: 'down' }
      : { status: 200, body: 'ok' },
  );
  receivers.push(started);
  return started;
}

async function formWithWebhook(t: TestKit, url: string) {
  const form = await t.api.createForm({ name: `Health ${Math.random().toString(36).slice(2)}` });
  const plugin = await t.api.addWebhook(form.id, url);
  return { form, plugin, path: `/api/forms/${form.id}/plugins/${plugin.id}` };
}

const failing = { email: 'ada@example.com', message: 'fail' };
const passing = { email: 'ada@example.com', message: 'hello' };

/**
 * Submits each payload at once (each made unique: identical ones in a row are spam) and
 * waits until every delivery has settled.
 */
async function settle(t: TestKit, form: FormView, payloads: Array<Record<string, string>>) {
  const ids = await Promise.all(
    payloads.map((payload) => submitJson(form, { ...payload, n: Math.random() })),
  );
  for (const [i, id] of ids.entries()) {
    await waitForAttempts(t.stack, id, payloads[i]!.message === 'fail' ? 4 : 1);
  }
  return ids;
}

/** The plugin as the API shows it, once `check` holds (health is written after the attempt). */
type Plugin = AnswerBody<'GET /api/forms/{form_id}/plugins/{id}', 200>['plugin'];

async function pluginWhen(api: ApiClient, path: string, check: (plugin: Plugin) => boolean) {
  // Generous: the worker runs at nice 10, and on a loaded 2-core machine (the whole suite
  // running) it was seen to take over 10 s between an attempt's record and its health.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { plugin } = expectAnswer(
      await api.get(path),
      'GET /api/forms/{form_id}/plugins/{id}',
      200,
    );
    if (check(plugin) || Date.now() > deadline) return plugin;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const mailsTo = (address: string) => sink.messages.filter((m) => m.rcptTo.includes(address));

describe('after 3 exhausted deliveries (PLUGIN_DISABLE_AFTER=0s)', () => {
  const t = useTestStack(
    stackWith({ PLUGIN_DISABLE_AFTER_FAILURES: '3', PLUGIN_DISABLE_AFTER: '0s' }),
  );

  it('disables the plugin once, e-mails the account once, skips later submissions, and PATCH enabled:true resumes', async () => {
    const hook = await failOnDemand();
    const { form, plugin, path } = await formWithWebhook(t, hook.url);
    expect(plugin).toMatchObject({
      enabled: true,
      disabled_reason: null,
      consecutive_failures: 0,
      last_success_at: null,
    });

    // Three failing submissions at once: their last attempts race for the transition.
    await settle(t, form, [failing, failing, failing]);
    const disabled = await pluginWhen(t.api, path, (p) => !p.enabled);
    expect(disabled.enabled).toBe(false);
    expect(disabled.consecutive_failures).toBe(3);
    expect(disabled.disabled_reason).toMatch(
      /^3 consecutive deliveries failed since \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    );

    const deadline = Date.now() + 10_000;
    while (mailsTo(t.email).length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000)); // room for a second one
    const mails = mailsTo(t.email);
    expect(mails).toHaveLength(1);
    const message = readMimeMessage(mails[0]!.raw);
    expect(headerValue(message, 'subject')).toBe(`Formward: webhook "${plugin.name}" was disabled`);
    const text = findPart(message, 'text/plain')!.body;
    expect(text).toContain(`was disabled: ${disabled.disabled_reason}.`);
    expect(text).toContain(`${t.stack.url}/app/forms/${form.id}/plugins`);
    expect(text).toContain('"enabled": true');

    // Disabled: the next submission records one `skipped` attempt and sends nothing.
    const sent = hook.received.length;
    const [skippedId] = await settle(t, form, [passing]);
    const [skipped] = await attemptsOf(t.stack, skippedId!);
    expect(skipped).toMatchObject({
      plugin_id: plugin.id,
      attempt: 1,
      status: 'skipped',
      http_status: null,
      error: `plugin disabled: ${disabled.disabled_reason}`,
      is_replay: false,
      is_test: false,
    });
    expect(skipped!.delivery_id).toMatch(new RegExp(`^dlv_[0-9a-f]{32}_${plugin.id}$`));
    expect(await attemptsOf(t.stack, skippedId!)).toHaveLength(1);
    const log = await t.api.get(`${path}/deliveries`);
    const { deliveries } = expectAnswer(
      log,
      'GET /api/forms/{form_id}/plugins/{id}/deliveries',
      200,
    );
    expect(deliveries[0]).toMatchObject({ submission_id: skippedId, status: 'skipped' });

    // A `?test=true` run records no skipped attempt.
    const test = await postJson(`${form.json_url}?test=true`, passing, {
      authorization: `Bearer ${t.adminKey}`,
    });
    expect(test.status, test.text).toBe(200);
    expect(ingestResultOf(test).deliveries).toEqual([]);
    expect(await attemptsOf(t.stack, ingestResultOf(test).id)).toEqual([]);
    expect(hook.received).toHaveLength(sent);

    // Enabling resets the health; deliveries resume.
    const enabled = await t.api.patch(path, { enabled: true });
    expect(
      expectAnswer(enabled, 'PATCH /api/forms/{form_id}/plugins/{id}', 200).plugin,
    ).toMatchObject({
      enabled: true,
      disabled_reason: null,
      consecutive_failures: 0,
    });
    const [resumedId] = await settle(t, form, [passing]);
    expect(await attemptsOf(t.stack, resumedId!)).toEqual([
      expect.objectContaining({ status: 'succeeded', attempt: 1 }),
    ]);
    const healthy = await pluginWhen(t.api, path, (p) => p.last_success_at !== null);
    expect(Date.parse(healthy.last_success_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect(mailsTo(t.email)).toHaveLength(1);
  });

  it('a success in between starts the count again', async () => {
    const hook = await failOnDemand();
    const { form, path } = await formWithWebhook(t, hook.url);
    await settle(t, form, [failing, failing]);
    expect((await pluginWhen(t.api, path, (p) => p.consecutive_failures === 2)).enabled).toBe(true);
    await settle(t, form, [passing]);
    const reset = await pluginWhen(t.api, path, (p) => p.consecutive_failures === 0);
    expect(reset).toMatchObject({ enabled: true, consecutive_failures: 0 });
    expect(reset.last_success_at).not.toBeNull();
    await settle(t, form, [failing, failing]);
    const after = await pluginWhen(t.api, path, (p) => p.consecutive_failures === 2);
    expect(after).toMatchObject({ enabled: true, consecutive_failures: 2, disabled_reason: null });
  });

  it('PATCH disables with a reason, validates its body and stays within the account', async () => {
    const hook = await failOnDemand();
    const { plugin, path } = await formWithWebhook(t, hook.url);
    const off = await t.api.patch(path, { enabled: false });
    const { plugin: disabled } = expectAnswer(off, 'PATCH /api/forms/{form_id}/plugins/{id}', 200);
    expect(disabled).toMatchObject({
      enabled: false,
      disabled_reason: 'disabled by the account',
    });
    expect(disabled.links).toEqual(
      expect.arrayContaining([expect.objectContaining({ rel: 'update', method: 'PATCH' })]),
    );

    for (const body of [{}, { enabled: 'yes' }, { enabled: true, name: 'x' }]) {
      expectError(await t.api.patch(path, body), 422, 'validation_failed');
    }
    expectError(await t.readonly.patch(path, { enabled: true }), 403, 'forbidden');
    const other = await t.newTenant();
    expectError(await other.api.patch(path, { enabled: true }), 404, 'not_found');
    const otherForm = await other.api.createForm({ name: 'Other' });
    expectError(
      await other.api.patch(`/api/forms/${otherForm.id}/plugins/${plugin.id}`, { enabled: true }),
      404,
      'not_found',
    );
    expect(
      expectAnswer(await t.api.get(path), 'GET /api/forms/{form_id}/plugins/{id}', 200).plugin
        .enabled,
    ).toBe(false);
  });
});

describe('the span condition (PLUGIN_DISABLE_AFTER=1h)', () => {
  const t = useTestStack(
    stackWith({ PLUGIN_DISABLE_AFTER_FAILURES: '1', PLUGIN_DISABLE_AFTER: '1h' }),
  );

  it('keeps a plugin enabled while its failures span less than PLUGIN_DISABLE_AFTER', async () => {
    const hook = await failOnDemand();
    const { form, path } = await formWithWebhook(t, hook.url);
    await settle(t, form, [failing, failing]);
    const plugin = await pluginWhen(t.api, path, (p) => p.consecutive_failures === 2);
    expect(plugin).toMatchObject({ enabled: true, consecutive_failures: 2, disabled_reason: null });
    expect(mailsTo(t.email)).toEqual([]);
  });
});
