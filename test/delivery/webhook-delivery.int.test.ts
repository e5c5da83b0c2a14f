import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { expectAnswer } from '../support/api-client';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { useTestStack } from '../support/fixture';
import {
  serviceSignatureValid,
  standardSignatureValid,
  startHttpsReceiver,
  type HttpsReceiver,
  type Responder,
} from '../support/https-receiver';
import { ingestResultOf, postJson, submitJson } from '../support/ingest-requests';
import { completedSubmissionWorkflow } from '../support/workflow-probes';
import { attemptsOf, fastDeliveryEnv, waitForAttempts } from '../support/delivery-attempts';

// The delivery engine end to end: real ingest, a real Temporal worker, real HTTPS receivers
// (certificates from the test CA, trusted through NODE_EXTRA_CA_CERTS), on 127.0.0.1 only.

let dns: DnsServer;
const receivers: HttpsReceiver[] = [];

beforeAll(async () => {
  dns = await startDnsServer({});
});

afterAll(async () => {
  await dns?.close();
});

const t = useTestStack(() => ({ worker: true, env: fastDeliveryEnv(dns.address) }));

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(responder?: Responder) {
  const started = await startHttpsReceiver(inject('stack').certificates, responder);
  receivers.push(started);
  return started;
}

/** A form with one webhook to `url`; returns the form and the plugin (with its secret). */
async function formWithWebhook(url: string) {
  const form = await t.api.createForm({
    name: `Webhook form ${Math.random().toString(36).slice(2)}`,
  });
  const plugin = await t.api.addWebhook(form.id, url);
  return { form, plugin };
}

const fields = { email: 'ada@example.com', name: 'Ada', message: 'Hello from the test' };

describe('a delivery that succeeds', () => {
  it('posts the specified body, signed both ways, and records the attempt', async () => {
    const hook = await receiver();
    const { form, plugin } = await formWithWebhook(`${hook.url}/hooks/formward`);
    const id = await submitJson(form, fields, {
      'user-agent': 'DeliveryTest/1',
      referer: 'https://example.com/contact',
    });

    const [request] = await hook.waitFor(1);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/hooks/formward');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['user-agent']).toBe('Formward-Webhooks/1');
    expect(request!.headers['webhook-id']).toMatch(/^dlv_[0-9a-f]{32}_\d+$/);
    expect(request!.headers['x-formward-delivery']).toBe(request!.headers['webhook-id']);
    expect(serviceSignatureValid(request!, plugin.signing_secret)).toBe(true);
    expect(serviceSignatureValid(request!, `${plugin.signing_secret}x`)).toBe(false);
    expect(standardSignatureValid(request!, plugin.signing_secret)).toBe(true);

    const body = JSON.parse(request!.body);
    expect(body).toEqual({
      event: 'submission.created',
      id,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      form_id: form.endpoint_token,
      form_name: form.name,
      ip: '127.0.0.1',
      user_agent: 'DeliveryTest/1',
      referrer: 'https://example.com/contact',
      data: fields,
    });

    const [attempt] = await waitForAttempts(t.stack, id, 1);
    expect(attempt).toMatchObject({
      delivery_id: request!.headers['webhook-id'],
      plugin_id: plugin.id,
      attempt: 1,
      status: 'succeeded',
      http_status: 200,
      error: null,
      response_body: '{"ok":true}',
      is_replay: false,
      is_test: false,
      workflow_id: `submission-${id}`,
    });
    const result = (await completedSubmissionWorkflow(t.stack, id)) as { deliveries: unknown[] };
    expect(result.deliveries).toEqual([
      expect.objectContaining({ pluginId: plugin.id, ok: true, statusCode: 200, attempts: 1 }),
    ]);
  });

  it('delivers to every enabled plugin of the form, in parallel, each with its own id', async () => {
    const [a, b] = [await receiver(), await receiver()];
    const form = await t.api.createForm({ name: 'Two webhooks' });
    const pluginA = await t.api.addWebhook(form.id, `${a.url}/a`);
    const pluginB = await t.api.addWebhook(form.id, `${b.url}/b`);
    const id = await submitJson(form, fields);
    const [[toA], [toB]] = await Promise.all([a.waitFor(1), b.waitFor(1)]);
    expect(serviceSignatureValid(toA!, pluginA.signing_secret)).toBe(true);
    expect(serviceSignatureValid(toB!, pluginB.signing_secret)).toBe(true);
    expect(toA!.headers['webhook-id']).not.toBe(toB!.headers['webhook-id']);
    const attempts = await waitForAttempts(t.stack, id, 2);
    expect(attempts.map((x) => x.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('stores the receiver answer cut at 4096 bytes', async () => {
    const hook = await receiver(() => ({ status: 200, body: 'é'.repeat(1000) + 'x'.repeat(8000) }));
    const { form } = await formWithWebhook(hook.url);
    const id = await submitJson(form, fields);
    const [attempt] = await waitForAttempts(t.stack, id, 1);
    expect(Buffer.byteLength(attempt!.response_body!)).toBeLessThanOrEqual(4096);
    expect(Buffer.byteLength(attempt!.response_body!)).toBeGreaterThan(4090);
    expect(attempt!.response_body!.startsWith('éé')).toBe(true);
  });
});

describe('retries (1 + up to 3, exponential backoff)', () => {
  it('500, 500, then 200: three attempts recorded, the same delivery id, growing intervals', async () => {
    const hook = await receiver((_request, n) => ({
      status: n <= 2 ? 500 : 200,
      body: `try ${n}`,
    }));
    const { form, plugin } = await formWithWebhook(hook.url);
    const id = await submitJson(form, fields);

    const requests = await hook.waitFor(3);
    const attempts = await waitForAttempts(t.stack, id, 3);
    expect(attempts.map((a) => [a.attempt, a.status, a.http_status, a.response_body])).toEqual([
      [1, 'pending_retry', 500, 'try 1'],
      [2, 'pending_retry', 500, 'try 2'],
      [3, 'succeeded', 200, 'try 3'],
    ]);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(requests.map((r) => r.headers['x-formward-attempt'])).toEqual(['1', '2', '3']);
    for (const r of requests) expect(serviceSignatureValid(r, plugin.signing_secret)).toBe(true);
    const first = requests[1]!.at - requests[0]!.at;
    const second = requests[2]!.at - requests[1]!.at;
    expect(first).toBeGreaterThanOrEqual(900); // WEBHOOK_RETRY_INITIAL_INTERVAL=1s
    expect(second).toBeGreaterThan(first * 1.5); // coefficient 2
  });

  it('a receiver that always fails gets four attempts, then the delivery is failed', async () => {
    const hook = await receiver(() => ({ status: 503, body: 'down' }));
    const { form, plugin } = await formWithWebhook(hook.url);
    const id = await submitJson(form, fields);
    const attempts = await waitForAttempts(t.stack, id, 4);
    expect(attempts.map((a) => a.status)).toEqual([
      'pending_retry',
      'pending_retry',
      'pending_retry',
      'failed',
    ]);
    const result = (await completedSubmissionWorkflow(t.stack, id)) as { deliveries: unknown[] };
    expect(result.deliveries).toEqual([
      expect.objectContaining({
        pluginId: plugin.id,
        ok: false,
        statusCode: 503,
        attempts: 4,
        error: 'receiver answered 503',
      }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hook.received).toHaveLength(4);
  });

  it('an answer slower than the read timeout is a failure, and the retry succeeds', async () => {
    const hook = await receiver((_request, n) => ({ status: 200, delayMs: n === 1 ? 2500 : 0 }));
    const { form } = await formWithWebhook(hook.url);
    const id = await submitJson(form, fields);
    const attempts = await waitForAttempts(t.stack, id, 2);
    expect(attempts[0]).toMatchObject({ status: 'pending_retry', http_status: null });
    expect(attempts[0]!.error).toMatch(/read timeout/);
    expect(attempts[1]).toMatchObject({ status: 'succeeded', http_status: 200 });
  });

  it('a redirect is a failure and is not followed', async () => {
    const hook = await receiver((request, n) =>
      request.path === '/moved'
        ? { status: 200 }
        : n === 1
          ? { status: 302, headers: { location: '/moved' } }
          : { status: 200 },
    );
    const { form } = await formWithWebhook(`${hook.url}/hook`);
    const id = await submitJson(form, fields);
    const attempts = await waitForAttempts(t.stack, id, 2);
    expect(attempts[0]).toMatchObject({ status: 'pending_retry', http_status: 302 });
    expect(attempts[0]!.error).toMatch(/redirect to \/moved not followed/);
    expect(attempts[1]).toMatchObject({ status: 'succeeded' });
    expect(hook.received.map((r) => r.path)).toEqual(['/hook', '/hook']);
  });

  it('a secret rotated between a failure and its retry signs the retry', async () => {
    let newSecret = '';
    let plugin: { id: string; signing_secret: string } = { id: '', signing_secret: '' };
    let formId = '';
    const hook = await receiver(async (_request, n) => {
      if (n === 1) {
        const rotated = await t.api.post(`/api/forms/${formId}/plugins/${plugin.id}/rotate_secret`);
        const rotate = 'POST /api/forms/{form_id}/plugins/{id}/rotate_secret';
        newSecret = expectAnswer(rotated, rotate, 200).plugin.signing_secret!;
        return { status: 500 };
      }
      return { status: 200 };
    });
    const created = await formWithWebhook(hook.url);
    plugin = created.plugin;
    formId = created.form.id;
    const id = await submitJson(created.form, fields);
    const [first, retry] = await hook.waitFor(2);
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(plugin.signing_secret);
    expect(serviceSignatureValid(first!, plugin.signing_secret)).toBe(true);
    expect(serviceSignatureValid(retry!, newSecret)).toBe(true);
    expect(serviceSignatureValid(retry!, plugin.signing_secret)).toBe(false);
    expect(standardSignatureValid(retry!, newSecret)).toBe(true);
    await waitForAttempts(t.stack, id, 2);
  });

  it('a plugin deleted after a failure stops its retries', async () => {
    let formId = '';
    let pluginId = '';
    const hook = await receiver(async () => {
      const deleted = await t.api.delete(`/api/forms/${formId}/plugins/${pluginId}`);
      expect(deleted.status, deleted.text).toBe(200);
      return { status: 500 };
    });
    const { form, plugin } = await formWithWebhook(hook.url);
    formId = form.id;
    pluginId = plugin.id;
    const id = await submitJson(form, fields);
    const result = (await completedSubmissionWorkflow(t.stack, id)) as { deliveries: unknown[] };
    expect(result.deliveries).toEqual([
      expect.objectContaining({ ok: false, error: expect.stringMatching(/deleted or disabled/) }),
    ]);
    expect(hook.received).toHaveLength(1);
    expect((await attemptsOf(t.stack, id)).map((a) => a.status)).toEqual(['pending_retry']);
  });
});

describe('?test=true', () => {
  it('runs each delivery once, waits for it and reports it; no retry follows', async () => {
    const hook = await receiver(() => ({ status: 500, body: 'nope' }));
    const { form, plugin } = await formWithWebhook(hook.url);
    const res = await postJson(`${form.json_url}?test=true`, fields, {
      authorization: `Bearer ${t.adminKey}`,
    });
    expect(res.status).toBe(200);
    expect(ingestResultOf(res).deliveries).toEqual([
      {
        plugin_id: plugin.id,
        plugin_type: 'webhook',
        ok: false,
        status_code: 500,
        error: 'receiver answered 500',
        duration_ms: expect.any(Number),
        attempts: 1,
        delivery_id: expect.stringMatching(/^dlv_/),
      },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 2000)); // past the first retry interval
    expect(hook.received).toHaveLength(1);
    const attempts = await attemptsOf(t.stack, ingestResultOf(res).id);
    expect(attempts).toEqual([expect.objectContaining({ status: 'failed', is_test: true })]);
  });
});

describe('delivery log and replay', () => {
  it('lists attempts per submission and per plugin, and a replay delivers again', async () => {
    const hook = await receiver();
    const { form, plugin } = await formWithWebhook(hook.url);
    const id = await submitJson(form, fields);
    await waitForAttempts(t.stack, id, 1);

    const replay = await t.api.post(`/api/submissions/${id}/replay`);
    const replayed = expectAnswer(replay, 'POST /api/submissions/{id}/replay', 202).replay;
    expect(replayed.workflow_id).toMatch(new RegExp(`^submission-${id}-replay-`));
    const [original, again] = await hook.waitFor(2);
    expect(again!.headers['webhook-id']).not.toBe(original!.headers['webhook-id']);
    expect(serviceSignatureValid(again!, plugin.signing_secret)).toBe(true);
    const attempts = await waitForAttempts(t.stack, id, 2);
    expect(attempts.map((a) => a.is_replay)).toEqual([false, true]);

    const bySubmission = await t.api.get(`/api/submissions/${id}/deliveries`);
    const submissionLog = expectAnswer(bySubmission, 'GET /api/submissions/{id}/deliveries', 200);
    expect(submissionLog.meta).toMatchObject({ total: 2, page: 1 });
    expect(submissionLog.deliveries).toEqual(submissionLog.payload);
    expect(submissionLog.deliveries[0]).toMatchObject({
      submission_id: id,
      plugin_id: plugin.id,
      plugin_type: 'webhook',
      status: 'succeeded',
      http_status: 200,
      is_replay: true,
    });
    const byPlugin = await t.api.get(`/api/forms/${form.id}/plugins/${plugin.id}/deliveries`);
    const pluginLog = expectAnswer(
      byPlugin,
      'GET /api/forms/{form_id}/plugins/{id}/deliveries',
      200,
    );
    expect(pluginLog.deliveries.map((d) => d.delivery_id)).toEqual(
      submissionLog.deliveries.map((d) => d.delivery_id),
    );
  });

  it('scopes: the log needs can_read_submissions, replay can_create_forms; other accounts see 404', async () => {
    const hook = await receiver();
    const { form } = await formWithWebhook(hook.url);
    const id = await submitJson(form, fields);
    await waitForAttempts(t.stack, id, 1);
    const formsOnly = await t.clientFor(['can_create_forms']);
    expect((await t.readonly.get(`/api/submissions/${id}/deliveries`)).status).toBe(200);
    expect((await t.readonly.post(`/api/submissions/${id}/replay`)).status).toBe(403);
    expect((await formsOnly.get(`/api/submissions/${id}/deliveries`)).status).toBe(403);
    const stranger = await t.newTenant();
    expect((await stranger.api.get(`/api/submissions/${id}/deliveries`)).status).toBe(404);
    expect((await stranger.api.post(`/api/submissions/${id}/replay`)).status).toBe(404);
  });

  it('a spam submission is not delivered and cannot be replayed', async () => {
    const hook = await receiver();
    const { form } = await formWithWebhook(hook.url);
    const id = await submitJson(form, { ...fields, _hp: 'bot' });
    const result = (await completedSubmissionWorkflow(t.stack, id)) as { deliveries: unknown[] };
    expect(result.deliveries).toEqual([]);
    const replay = await t.api.post(`/api/submissions/${id}/replay`);
    expect(replay.status).toBe(422);
    expect(hook.received).toHaveLength(0);
  });
});

describe('the private-address guard at connect time', () => {
  it('a name that resolves to a blocked address by delivery time is refused without retry', async () => {
    // At creation the name points at a public address (only DNS is asked, nothing is dialled) …
    dns.setRecords({ 'rebind.formward.test': { A: ['93.184.216.34'] } });
    const form = await t.api.createForm({ name: 'Rebinding' });
    const plugin = await t.api.addWebhook(form.id, 'https://rebind.formward.test/hook');
    // … then it is rebound to a loopback address outside WEBHOOK_ALLOW_PRIVATE.
    dns.setRecords({ 'rebind.formward.test': { A: ['127.0.0.2'] } });
    const id = await submitJson(form, fields);
    const attempts = await waitForAttempts(t.stack, id, 1);
    expect(attempts).toEqual([
      expect.objectContaining({ plugin_id: plugin.id, status: 'failed', http_status: null }),
    ]);
    // The owner reads this log: it names the host, never the internal address it resolved to.
    expect(attempts[0]!.error).toContain(
      'refusing to connect: rebind.formward.test does not resolve to a public address',
    );
    expect(attempts[0]!.error).not.toContain('127.0.0.2');
  });

  it('a name that resolves to an allowed address is dialled, with its certificate checked', async () => {
    const hook = await receiver();
    dns.setRecords({ 'hooks.formward.test': { A: ['127.0.0.1'] } });
    const form = await t.api.createForm({ name: 'By name' });
    await t.api.addWebhook(form.id, `https://hooks.formward.test:${hook.port}/named`);
    const id = await submitJson(form, fields);
    const [request] = await hook.waitFor(1);
    expect(request!.headers.host).toBe(`hooks.formward.test:${hook.port}`);
    expect((await waitForAttempts(t.stack, id, 1))[0]!.status).toBe('succeeded');
  });
});
