import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/api-client';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { useTestStack } from '../support/fixture';

// FORM_PAGES_TARGET (the host custom domains point at) serves every form's page and ingest
// path: it is one of this Formward's own addresses for the loop guard (docs/webhook-delivery.md,
// Address guard), at creation by its name and at connect time by the addresses it resolves to.

const TARGET = 'pages.formward.test';
const TARGET_ADDRESS = '93.184.216.34';

let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer({
    [TARGET]: { A: [TARGET_ADDRESS] },
    // Another name for the same address, which the creation check cannot tell apart.
    'hooks.elsewhere.test': { A: [TARGET_ADDRESS] },
  });
});
afterAll(async () => {
  await dns?.close();
});

const t = useTestStack(() => ({
  form: { name: 'Loop form' },
  env: { DNS_SERVERS: dns.address, FORM_PAGES_TARGET: TARGET },
}));

describe('FORM_PAGES_TARGET in the loop guard', () => {
  it.each([`https://${TARGET}/hooks`, `https://PAGES.formward.test./f/token`])(
    'refuses a webhook to %s at creation (invalid_config)',
    async (url) => {
      const res = await t.api.post(`/api/forms/${t.form.id}/plugins`, {
        plugin_type: 'webhook',
        config: { url },
      });
      const error = expectError(res, 422, 'invalid_config');
      expect(JSON.stringify(error)).toContain('this Formward service');
    },
  );

  it("takes the addresses it resolves to, on HTTPS's port, as this Formward's own listener", async () => {
    // What a delivery's connect-time check asks (guarded-connector.ts) before dialling.
    const listener = await t.stack.ctx.ownListeners.find(TARGET_ADDRESS, 443);
    expect(listener).toBe(`https://${TARGET}`);
    await expect(t.stack.ctx.ownListeners.assertNotOwn(TARGET_ADDRESS, 443)).rejects.toThrow(
      /refused: the address is this Formward's own listener \(93\.184\.216\.34 port 443/,
    );
    // A webhook under another name was accepted at creation; its delivery is refused there.
    const res = await t.api.post(`/api/forms/${t.form.id}/plugins`, {
      plugin_type: 'webhook',
      config: { url: 'https://hooks.elsewhere.test/in' },
    });
    expect(res.status, res.text).toBe(201);
    expect(await t.stack.ctx.ownListeners.find(TARGET_ADDRESS, 8443)).toBeNull();
  });
});
