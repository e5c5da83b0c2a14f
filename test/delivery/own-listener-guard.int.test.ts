import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CreatedWebhook } from '../support/api-client';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { useTestStack } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { ingestResultOf, postJson } from '../support/ingest-requests';
import { fastDeliveryEnv, waitForAttempts } from '../support/delivery-attempts';

// The loop guard at delivery time (docs/webhook-delivery.md, Address guard): the creation
// check compares host names only, so a webhook under another name that resolves to this
// Formward (or to its own listening socket) is refused when the delivery connects.

// Stands in for the TLS proxy in front of Formward: BASE_URL names it.
let proxy: HttpsReceiver;
let dns: DnsServer;

beforeAll(async () => {
  proxy = await startHttpsReceiver(inject('stack').certificates);
  dns = await startDnsServer({
    'formward.example.test': { A: ['127.0.0.1'] },
    // The attacker's name, pointing at the same address as ours.
    'hooks.formward.test': { A: ['127.0.0.1'] },
  });
});
afterAll(async () => {
  await proxy?.close();
  await dns?.close();
});

const t = useTestStack(() => ({
  worker: true,
  env: { ...fastDeliveryEnv(dns.address), BASE_URL: `https://formward.example.test:${proxy.port}` },
}));

/** A form with one webhook to `url` (accepted at creation), and one submission to it. */
async function deliverTo(url: string): Promise<{ plugin: CreatedWebhook; submissionId: string }> {
  const form = await t.api.createForm({ name: `Loop ${Math.random().toString(36).slice(2)}` });
  const plugin = await t.api.addWebhook(form.id, url);
  // INGEST_URL follows BASE_URL (the proxy): post to the stack itself.
  const res = await postJson(`${t.stack.url}/json/${form.endpoint_token}`, { message: 'hi' });
  expect(res.status, res.text).toBe(200);
  return { plugin, submissionId: ingestResultOf(res).id };
}

describe('a delivery to this Formward itself', () => {
  it('is refused when another name resolves to the address BASE_URL names, without retry', async () => {
    const before = proxy.received.length;
    const { plugin, submissionId } = await deliverTo(
      `https://hooks.formward.test:${proxy.port}/f/sometoken`,
    );
    const attempts = await waitForAttempts(t.stack, submissionId, 1);
    expect(attempts).toEqual([
      expect.objectContaining({ plugin_id: plugin.id, status: 'failed', http_status: null }),
    ]);
    expect(attempts[0]!.error).toMatch(/^refused: the address is this Formward's own listener/);
    expect(attempts[0]!.error).toContain('https://formward.example.test');
    // Given time for retries, none comes: nothing reached the proxy.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await waitForAttempts(t.stack, submissionId, 1)).toHaveLength(1);
    expect(proxy.received.length).toBe(before);
  });

  it("is refused when it dials this process's own HTTP server, without retry", async () => {
    const { port } = new URL(t.stack.url);
    const { submissionId } = await deliverTo(`https://127.0.0.1:${port}/hooks`);
    const attempts = await waitForAttempts(t.stack, submissionId, 1);
    expect(attempts.map((a) => a.status)).toEqual(['failed']);
    expect(attempts[0]!.error).toMatch(/^refused: the address is this Formward's own listener/);
    expect(attempts[0]!.error).toContain('HTTP server');
  });

  it('other ports of the same address are still delivered', async () => {
    const other = await startHttpsReceiver(inject('stack').certificates);
    try {
      const { submissionId } = await deliverTo(`https://hooks.formward.test:${other.port}/in`);
      await other.waitFor(1);
      expect((await waitForAttempts(t.stack, submissionId, 1))[0]!.status).toBe('succeeded');
    } finally {
      await other.close();
    }
  });
});
