import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { expectAnswer, request } from '../support/api-client';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { useTestStack } from '../support/fixture';
import {
  serviceSignatureValid,
  startHttpsReceiver,
  type HttpsReceiver,
} from '../support/https-receiver';
import { ingestResultOf, postJson } from '../support/ingest-requests';
import { fastDeliveryEnv } from '../support/delivery-attempts';
import { eventually } from '../support/eventually';

// A submitter's edit reaches the form's webhook as `submission.updated`, after the
// `submission.created` of the submission itself; a spam edit reaches nothing
// (docs/manage-links.md, docs/webhooks.md). Real ingest, worker and HTTPS receiver.

let dns: DnsServer;
let hook: HttpsReceiver | undefined;

beforeAll(async () => {
  dns = await startDnsServer({});
});

afterAll(async () => {
  await hook?.close();
  await dns?.close();
});

const t = useTestStack(() => ({ worker: true, env: fastDeliveryEnv(dns.address) }));

/** The workflow that made a delivery, once its attempt is recorded (just after the receiver answered). */
async function workflowOfDelivery(deliveryId: string | string[] | undefined): Promise<string> {
  const [row] = await eventually(
    async () => {
      const rows = await t.stack.sql<{ workflow_id: string }>(
        'select workflow_id from delivery_attempts where delivery_id = ?',
        [deliveryId],
      );
      return rows.length > 0 && rows;
    },
    { what: `the attempt of delivery ${deliveryId} recorded` },
  );
  return row!.workflow_id;
}

describe('events on deliveries', () => {
  it('created, then updated with the new version; a spam edit is not delivered', async () => {
    hook = await startHttpsReceiver(inject('stack').certificates);
    const form = await t.api.createForm({ name: 'Events', submitter_access: 'edit' });
    const plugin = await t.api.addWebhook(form.id, `${hook.url}/events`);
    const result = ingestResultOf(
      await postJson(form.json_url, { name: 'Ada', email: 'ada@example.com' }),
    );
    const link = result.manage_url!;

    const [created] = await hook.waitFor(1);
    expect(JSON.parse(created!.body)).toMatchObject({
      event: 'submission.created',
      id: result.id,
      data: { name: 'Ada' },
    });

    const edited = expectAnswer(
      await postJson(link, { name: 'Ada Lovelace', email: 'ada@example.com' }),
      'POST /s/{submission_id}/{secret}',
      200,
    );
    expect(edited.submission.version).toBe(2);
    const [, updated] = await hook.waitFor(2);
    expect(serviceSignatureValid(updated!, plugin.signing_secret)).toBe(true);
    expect(JSON.parse(updated!.body)).toMatchObject({
      event: 'submission.updated',
      id: result.id,
      form_id: form.endpoint_token,
      data: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    expect(await workflowOfDelivery(updated!.headers['webhook-id'])).toBe(
      `submission-${result.id}-v2`,
    );

    // A spam edit (a filled honeypot) starts nothing: a later good edit is the next request.
    await postJson(link, { name: 'Spam', email: 'ada@example.com', _hp: 'x' });
    await postJson(link, { name: 'Ada K.', email: 'ada@example.com' });
    const [, , third] = await hook.waitFor(3);
    expect(JSON.parse(third!.body)).toMatchObject({
      event: 'submission.updated',
      data: { name: 'Ada K.' },
    });
    // Version 3 was the spam one: the good edit is version 4.
    expect(await workflowOfDelivery(third!.headers['webhook-id'])).toBe(
      `submission-${result.id}-v4`,
    );
  });

  it('deleted: the ids only, to the webhook, in a workflow of its own', async () => {
    const receiver = await startHttpsReceiver(inject('stack').certificates);
    try {
      const form = await t.api.createForm({ name: 'Deletes', submitter_access: 'edit_delete' });
      const plugin = await t.api.addWebhook(form.id, `${receiver.url}/events`);
      const result = ingestResultOf(
        await postJson(form.json_url, { name: 'Ada', email: 'ada@example.com' }),
      );
      await receiver.waitFor(1);
      const gone = await request('POST', `${result.manage_url}/delete`, {
        headers: { accept: 'application/json' },
      });
      expect(gone.status).toBe(200);
      const [, deleted] = await receiver.waitFor(2);
      expect(serviceSignatureValid(deleted!, plugin.signing_secret)).toBe(true);
      const body = JSON.parse(deleted!.body);
      expect(body).toEqual({
        event: 'submission.deleted',
        id: result.id,
        form_id: form.endpoint_token,
        deleted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
    } finally {
      await receiver.close();
    }
  });
});
