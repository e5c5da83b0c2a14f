import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/api-client';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { useTestStack } from '../support/fixture';

// A webhook aimed at our own ingest would post each delivery back in as a new submission.
const INGEST_HOST = 'forms.example.test';

let dns: DnsServer;

beforeAll(async () => {
  // Our public ingest host looks like any public receiver: only the loop rule refuses it.
  dns = await startDnsServer({
    [INGEST_HOST]: { A: ['93.184.216.34'] },
    'hooks.example.test': { A: ['93.184.216.35'] },
  });
});
afterAll(async () => {
  await dns?.close();
});

const t = useTestStack(() => ({
  env: { DNS_SERVERS: dns.address, INGEST_URL: `https://${INGEST_HOST}` },
  form: { name: 'Loop guard' },
}));

const create = (url: string) =>
  t.api.post(`/api/forms/${t.form.id}/plugins`, { plugin_type: 'webhook', config: { url } });

describe('a webhook pointing at this service', () => {
  it.each([
    `https://${INGEST_HOST}/f/sometoken`,
    `https://${INGEST_HOST.toUpperCase()}:443/json/sometoken`,
    `https://${INGEST_HOST}./anything`,
    `https://${INGEST_HOST}:8443/f/sometoken`,
  ])('%s is refused with 422 invalid_config saying why', async (url) => {
    const body = expectError(await create(url), 422, 'invalid_config');
    expect(JSON.stringify(body)).toMatch(/this Formward service.*in a loop/);
  });

  it('another port of our host outside the ingest paths, and another host, are accepted', async () => {
    expect((await create(`https://${INGEST_HOST}:8443/hooks`)).status).toBe(201);
    expect((await create('https://hooks.example.test/f/sometoken')).status).toBe(201);
  });
});
