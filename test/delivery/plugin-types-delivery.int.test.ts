import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { readMimeHeaders } from '../../src/domain/mail/mime-reader';
import { createTypedPlugin } from '../../src/plugins/manage/plugins';
import { markRecipientConfirmed } from '../../src/domain/recipients/confirmations';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { useTestStack } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver, type Responder } from '../support/https-receiver';
import { ingestResultOf, postJson, submitJson } from '../support/ingest-requests';
import { attemptsOf, waitForAttempts } from '../support/delivery-attempts';

// E-mail, Slack and Discord plugins end to end: real ingest, a real worker, Slack- and
// Discord-shaped HTTPS receivers on 127.0.0.1 (test CA) and the SMTP sink (docs/plugins.md).

let smtp: SmtpSink;
const receivers: HttpsReceiver[] = [];

beforeAll(async () => {
  smtp = await startSmtpSink();
});

const t = useTestStack(() => ({
  worker: true,
  env: {
    SMTP_URL: smtp.url(),
    WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
    WEBHOOK_RETRY_INITIAL_INTERVAL: '1s',
    WEBHOOK_CONNECT_TIMEOUT: '1s',
    WEBHOOK_READ_TIMEOUT: '1s',
  },
}));

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await smtp?.close();
});

async function receiver(responder?: Responder) {
  const started = await startHttpsReceiver(inject('stack').certificates, responder);
  receivers.push(started);
  return started;
}

async function formWith(type: 'email' | 'slack' | 'discord', config: Record<string, unknown>) {
  const form = await t.api.createForm({ name: `Team <b>${type}</b> & co` });
  const plugin = await createTypedPlugin(
    t.stack.ctx.orm.em.fork(),
    {
      formId: form.id,
      type,
      config: config as never,
    },
    0,
  );
  return { form, plugin };
}

const HOSTILE = {
  name: 'Mallory',
  email: 'mallory@example.com',
  message: '<!channel> @everyone **ping** <@U123> <https://evil.example|click here>',
  essay: 'x'.repeat(10_000),
};

describe('Slack plugin', () => {
  it('posts Block Kit with every value escaped and cut, and records the attempt', async () => {
    const slack = await receiver(() => ({ status: 200, body: 'ok' }));
    const { form, plugin } = await formWith('slack', { url: `${slack.url}/services/T/B/x` });
    const id = await submitJson(form, HOSTILE);
    const [request] = await slack.waitFor(1);
    expect(request!.path).toBe('/services/T/B/x');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers).not.toHaveProperty('webhook-signature');
    const body = JSON.parse(request!.body);
    expect(body.text).toBe('New submission to Team &lt;b&gt;slack&lt;/b&gt; &amp; co');
    const texts: string[] = body.blocks
      .filter((b: { type: string }) => b.type === 'section')
      .map((b: { text: { text: string } }) => b.text.text);
    expect(texts).toContain(
      '*message*\n&lt;!channel&gt; @everyone **ping** &lt;@U123&gt; &lt;https://evil.example|click here&gt;',
    );
    expect(request!.body).not.toContain('<!channel>');
    const essay = texts.find((text) => text.startsWith('*essay*'))!;
    expect(essay.length).toBeLessThanOrEqual(3000);
    const attempts = await waitForAttempts(t.stack, id, 1);
    expect(attempts).toEqual([
      expect.objectContaining({
        plugin_id: plugin.id,
        status: 'succeeded',
        http_status: 200,
        response_body: 'ok',
      }),
    ]);
  });

  it('a 429 with Retry-After is retried after it, under the same delivery id', async () => {
    const slack = await receiver((_req, n) =>
      n === 1
        ? { status: 429, headers: { 'retry-after': '2' }, body: 'rate_limited' }
        : { status: 200 },
    );
    const { form } = await formWith('slack', { url: slack.url });
    const id = await submitJson(form, { message: 'hello' });
    const [first, second] = await slack.waitFor(2, 20_000);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_900);
    const attempts = await waitForAttempts(t.stack, id, 2);
    expect(attempts.map((a) => [a.attempt, a.status, a.http_status])).toEqual([
      [1, 'pending_retry', 429],
      [2, 'succeeded', 200],
    ]);
    expect(new Set(attempts.map((a) => a.delivery_id)).size).toBe(1);
  });

  it('an address refused at connect time fails at once, without a retry', async () => {
    // Created past the dashboard's check: the guarded connector still refuses 127.0.0.2.
    const slack = await receiver();
    const { form } = await formWith('slack', { url: slack.url.replace('127.0.0.1', '127.0.0.2') });
    const id = await submitJson(form, { message: 'hello' });
    const attempts = await waitForAttempts(t.stack, id, 1);
    expect(attempts).toEqual([expect.objectContaining({ status: 'failed', http_status: null })]);
    expect(attempts[0]!.error).toMatch(/refusing to connect to 127\.0\.0\.2/);
    expect(slack.received).toHaveLength(0);
  });
});

describe('Discord plugin', () => {
  it('posts an embed with markdown escaped and no mentions allowed', async () => {
    const discord = await receiver(() => ({ status: 204 }));
    const { form } = await formWith('discord', { url: `${discord.url}/api/webhooks/1/tok` });
    const id = await submitJson(form, HOSTILE);
    const [request] = await discord.waitFor(1);
    const body = JSON.parse(request!.body);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.content.length).toBeLessThanOrEqual(2000);
    const fields: Array<{ name: string; value: string }> = body.embeds[0].fields;
    expect(fields.find((f) => f.name === 'message')!.value).toBe(
      '\\<\\!channel\\> \\@everyone \\*\\*ping\\*\\* \\<\\@U123\\> \\<https\\://evil.example\\|click here\\>',
    );
    expect(fields.find((f) => f.name === 'essay')!.value.length).toBeLessThanOrEqual(1024);
    expect(await waitForAttempts(t.stack, id, 1)).toEqual([
      expect.objectContaining({ status: 'succeeded', http_status: 204 }),
    ]);
  });

  it('a redirect is a failure and is not followed; ?test=true reports it', async () => {
    const discord = await receiver(() => ({
      status: 302,
      headers: { location: 'https://127.0.0.1:1/x' },
    }));
    const { form, plugin } = await formWith('discord', { url: discord.url });
    const res = await postJson(
      `${form.json_url}?test=true`,
      { message: 'hi' },
      {
        authorization: `Bearer ${t.adminKey}`,
      },
    );
    expect(res.status).toBe(200);
    expect(ingestResultOf(res).deliveries).toEqual([
      expect.objectContaining({
        plugin_id: plugin.id,
        plugin_type: 'discord',
        ok: false,
        status_code: 302,
        attempts: 1,
        error: 'redirect to https://127.0.0.1:1/x not followed',
      }),
    ]);
    expect(discord.received).toHaveLength(1);
    const attempts = await attemptsOf(t.stack, ingestResultOf(res).id);
    expect(attempts).toEqual([expect.objectContaining({ status: 'failed', is_test: true })]);
  });
});

describe('E-mail plugin', () => {
  it('sends to its recipients with the subject template and Reply-To the submitter', async () => {
    // Recipients that have confirmed (test/mail/recipients.int.test.ts follows the real link).
    for (const address of ['sales@example.com', 'ops@example.com']) {
      await markRecipientConfirmed(t.stack.ctx.orm.em.fork(), t.accountId, address);
    }
    const { form, plugin } = await formWith('email', {
      recipients: ['sales@example.com', 'ops@example.com'],
      subject: '[{form}] from {field:name}',
    });
    const id = await submitJson(form, { ...HOSTILE, name: 'Mallory\r\nBcc: x@evil.example' });
    const attempts = await waitForAttempts(t.stack, id, 1);
    expect(attempts).toEqual([
      expect.objectContaining({ plugin_id: plugin.id, status: 'succeeded', http_status: null }),
    ]);
    const sent = smtp.messages.find((m) => m.rcptTo.includes('sales@example.com'));
    expect(sent).toBeDefined();
    // One copy per recipient, under the delivery's one Message-ID.
    expect(sent!.rcptTo).toEqual(['sales@example.com']);
    const copy = smtp.messages.find((m) => m.rcptTo.includes('ops@example.com'));
    expect(copy!.rcptTo).toEqual(['ops@example.com']);
    const headers = readMimeHeaders(sent!.raw);
    const header = (name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value;
    expect(header('subject')).toBe('[Team <b>email</b> & co] from Mallory Bcc: x@evil.example');
    expect(header('reply-to')).toContain('mallory@example.com');
    expect(header('bcc')).toBeUndefined();
    expect(header('message-id')).toMatch(new RegExp(`^<${attempts[0]!.delivery_id}@`));
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
  });
});
