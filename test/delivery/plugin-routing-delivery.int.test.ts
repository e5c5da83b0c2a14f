import { afterAll, describe, expect, inject, it } from 'vitest';
import { countRecoveryCandidates } from '../../src/db/sql/plugin-recoveries';
import { expectAnswer } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import {
  serviceSignatureValid,
  startHttpsReceiver,
  type HttpsReceiver,
} from '../support/https-receiver';
import { ingestResultOf, postJson, submitJson } from '../support/ingest-requests';
import { attemptsOf, FAST_DELIVERY_ENV, waitForAttempts } from '../support/delivery-attempts';

// Conditions, include_fields and webhook headers end to end (docs/plugins.md): real ingest, a
// real worker and HTTPS receivers on 127.0.0.1 (test CA).

const receivers: HttpsReceiver[] = [];
const t = useTestStack(() => ({ worker: true, env: FAST_DELIVERY_ENV }));

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver() {
  const started = await startHttpsReceiver(inject('stack').certificates);
  receivers.push(started);
  return started;
}

describe('plugin conditions and chosen fields in delivery', () => {
  it('skips a webhook whose conditions fail, sends only the chosen fields with its headers', async () => {
    const hook = await receiver();
    const chat = await receiver();
    const form = await t.api.createForm({ name: 'Routed' });
    const created = await t.api.post(`/api/forms/${form.id}/plugins`, {
      plugin_type: 'webhook',
      config: {
        url: `${hook.url}/in`,
        headers: [{ name: 'Authorization', value: 'Bearer receiver-token' }],
      },
      conditions: { match: 'all', rules: [{ field: 'topic', op: 'equals', value: 'Sales' }] },
      include_fields: ['email', 'topic'],
    });
    const webhook = expectAnswer(created, 'POST /api/forms/{form_id}/plugins', 201).plugin;
    // A Slack plugin of the same form, with a field choice of its own.
    const { createTypedPlugin } = await import('../../src/plugins/manage/plugins');
    const slack = await createTypedPlugin(
      t.stack.ctx.orm.em.fork(),
      {
        formId: form.id,
        type: 'slack',
        config: { url: `${chat.url}/services/T/B/x` },
        includeFields: ['message'],
      },
      0,
    );

    const payload = {
      topic: 'sales',
      email: 'ada@example.com',
      message: 'hello there',
      card: '4111',
    };
    const sentId = await submitJson(form, payload);
    const [request] = await hook.waitFor(1);
    expect(request!.headers.authorization).toBe('Bearer receiver-token');
    expect(serviceSignatureValid(request!, webhook.signing_secret!)).toBe(true);
    expect(request!.headers['content-type']).toBe('application/json');
    const body = JSON.parse(request!.body);
    expect(body.data).toEqual({ email: 'ada@example.com', topic: 'sales' });
    const [message] = await chat.waitFor(1);
    expect(message!.body).toContain('hello there');
    expect(message!.body).not.toContain('ada@example.com');
    expect(message!.body).not.toContain('4111');
    await waitForAttempts(t.stack, sentId, 2);

    const skippedId = await submitJson(form, { ...payload, topic: 'support' });
    await chat.waitFor(2);
    const attempts = await waitForAttempts(t.stack, skippedId, 2);
    const skipped = attempts.find((a) => a.plugin_id === webhook.id)!;
    expect(skipped).toMatchObject({ status: 'skipped', is_test: false });
    expect(skipped.error).toMatch(/^conditions: /);
    expect(hook.received).toHaveLength(1);

    // Neither a failure for its health nor a candidate for a recovery.
    const health = await t.api.get(`/api/forms/${form.id}/plugins/${webhook.id}`);
    expect(expectAnswer(health, 'GET /api/forms/{form_id}/plugins/{id}', 200).plugin).toMatchObject(
      { enabled: true, consecutive_failures: 0 },
    );
    const window = {
      pluginId: webhook.id,
      since: new Date(Date.now() - 3_600_000),
      until: new Date(),
    };
    expect(await countRecoveryCandidates(t.stack.ctx.orm.em.fork(), window)).toBe(0);

    // A test run: the skip is recorded as a test record; the answer lists what was sent.
    const test = await postJson(
      `${form.json_url}?test=true`,
      { topic: 'other' },
      {
        authorization: `Bearer ${t.adminKey}`,
      },
    );
    expect(test.status, test.text).toBe(200);
    const answer = ingestResultOf(test);
    expect(answer.deliveries!.map((d) => d.plugin_id)).toEqual([slack.id]);
    const testAttempts = await attemptsOf(t.stack, answer.id);
    expect(testAttempts.find((a) => a.plugin_id === webhook.id)).toMatchObject({
      status: 'skipped',
      is_test: true,
    });
  }, 60_000);
});
