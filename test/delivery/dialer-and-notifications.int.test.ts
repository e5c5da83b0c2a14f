import net from 'node:net';
import type tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMimeMessage, headerValue } from '../../src/domain/mail/mime-reader';
import { markRecipientConfirmed } from '../../src/domain/recipients/confirmations';
import { useTestStack } from '../support/fixture';
import { ingestResultOf, postJson, submitJson } from '../support/ingest-requests';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { completedSubmissionWorkflow } from '../support/workflow-probes';
import { attemptsOf } from '../support/delivery-attempts';

// A worker whose TLS dialer never connects (the connect timeout, without dialling any real
// unreachable address) and whose notification e-mails go to a real SMTP sink.

let sink: SmtpSink;
let dials = 0;

beforeAll(async () => {
  sink = await startSmtpSink();
});

afterAll(async () => {
  await sink?.close();
});

const t = useTestStack(() => ({
  worker: true,
  // A socket that is never connected: neither 'secureConnect' nor 'error' ever comes.
  dial: () => {
    dials++;
    return new net.Socket() as unknown as tls.TLSSocket;
  },
  env: {
    WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
    WEBHOOK_CONNECT_TIMEOUT: '400ms',
    SMTP_URL: sink.url(),
    MAIL_FROM: 'Formward <forms@formward.test>',
  },
}));

describe('the connect timeout', () => {
  it('a receiver that never accepts the connection fails after WEBHOOK_CONNECT_TIMEOUT', async () => {
    const form = await t.api.createForm({ name: 'Unreachable receiver' });
    const plugin = await t.api.addWebhook(form.id, 'https://127.0.0.1:9443/hook');
    const before = dials;
    const res = await postJson(
      `${form.json_url}?test=true`,
      { message: 'is anyone there?' },
      { authorization: `Bearer ${t.adminKey}` },
    );
    const { id, deliveries = [] } = ingestResultOf(res);
    expect(deliveries).toEqual([
      expect.objectContaining({ plugin_id: plugin.id, ok: false, status_code: null }),
    ]);
    expect(deliveries[0]!.error).toMatch(/connect timeout/);
    expect(deliveries[0]!.duration_ms).toBeGreaterThanOrEqual(380);
    expect(dials - before).toBe(1);
    const [attempt] = await attemptsOf(t.stack, id);
    expect(attempt).toMatchObject({ status: 'failed', http_status: null, is_test: true });
  });
});

describe('notification e-mails from the workflow', () => {
  it('every accepted submission is e-mailed to the form addresses through SMTP_URL', async () => {
    // Addresses that have confirmed (test/mail/recipients.int.test.ts follows the real link).
    for (const address of ['ops@example.com', 'sales@example.com']) {
      await markRecipientConfirmed(t.stack.ctx.orm.em.fork(), t.accountId, address);
    }
    const form = await t.api.createForm({
      name: 'Contact',
      notification_email_addresses: ['ops@example.com', 'sales@example.com'],
    });
    const before = sink.messages.length;
    const id = await submitJson(form, {
      email: 'jane@example.com',
      message: 'Hello from the workflow',
    });
    const result = (await completedSubmissionWorkflow(t.stack, id)) as {
      notification: { sent: boolean; recipients: string[] };
    };
    expect(result.notification).toMatchObject({
      sent: true,
      recipients: ['ops@example.com', 'sales@example.com'],
    });
    // One copy per recipient (each with its own unsubscribe link).
    expect(sink.messages.length - before).toBe(2);
    const copies = sink.messages.slice(before);
    expect(copies.map((copy) => copy.rcptTo)).toEqual([['ops@example.com'], ['sales@example.com']]);
    const message = copies[0]!;
    expect(message.mailFrom).toBe('forms@formward.test');
    const parsed = readMimeMessage(message.raw);
    expect(headerValue(parsed, 'subject')).toBe('New submission to "Contact"');
    expect(message.raw.toString('utf8')).toContain('Hello from the workflow');
  });

  it('a spam submission is not e-mailed', async () => {
    const form = await t.api.createForm({
      name: 'Spammed',
      notification_email_addresses: ['ops@example.com'],
    });
    const before = sink.messages.length;
    const id = await submitJson(form, { message: 'x', _hp: 'bot' });
    const result = (await completedSubmissionWorkflow(t.stack, id)) as { notification: unknown };
    expect(result.notification).toBeNull();
    expect(sink.messages.length).toBe(before);
  });
});
