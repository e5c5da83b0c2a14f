import fs from 'node:fs';
import tls from 'node:tls';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { parseAllowList } from '../../src/outbound/address-policy';
import { createOutboundSender } from '../../src/outbound/sender';
import { startHttpsReceiver } from '../support/https-receiver';

// A new connection to a receiver seen before resumes its TLS session: a delivery after the
// keep-alive connection closed costs no full handshake (docs/webhook-delivery.md).

const { certificates } = inject('stack');
const ca = fs.readFileSync(certificates.caCertFile);

const sender = createOutboundSender({
  connectTimeoutMs: 2_000,
  readTimeoutMs: 2_000,
  allowList: parseAllowList(['127.0.0.1']),
  lookupHost: async () => ['127.0.0.1'],
  dial: (options) => tls.connect({ ...options, ca }),
});
afterAll(() => sender.close());

describe('TLS sessions of webhook receivers', () => {
  it('resumes the session on every new connection to the same receiver', async () => {
    // `Connection: close` makes every delivery open a new connection.
    const receiver = await startHttpsReceiver(certificates, () => ({
      headers: { connection: 'close' },
    }));
    try {
      const url = `https://localhost:${receiver.port}/hook`;
      for (let n = 0; n < 3; n++) {
        const result = await sender.send({
          url,
          body: '{}',
          headers: { 'content-type': 'application/json' },
        });
        expect(result.ok, result.error ?? '').toBe(true);
      }
      expect(receiver.connections()).toBe(3);
      expect(receiver.resumedConnections()).toBe(2);
    } finally {
      await receiver.close();
    }
  });
});
