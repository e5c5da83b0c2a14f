import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { TestCertificates } from './test-ca';

export type ReceivedWebhook = {
  /** ms since the epoch when the request's body was complete. */
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
};

export type Reply = {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
};

/** Decides the answer to the n-th request (1-based); may wait before answering. */
export type Responder = (request: ReceivedWebhook, n: number) => Reply | Promise<Reply>;

/** `X-Service-Signature` as a receiver checks it: HMAC-SHA256 hex, compared in constant time. */
export function serviceSignatureValid(request: ReceivedWebhook, secret: string): boolean {
  const given = Buffer.from(String(request.headers['x-service-signature'] ?? ''), 'hex');
  const expected = createHmac('sha256', secret).update(request.body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The Standard Webhooks headers, checked by the `standardwebhooks` library. */
export function standardSignatureValid(request: ReceivedWebhook, secret: string): boolean {
  try {
    new Webhook(secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id'] ?? ''),
      'webhook-timestamp': String(request.headers['webhook-timestamp'] ?? ''),
      'webhook-signature': String(request.headers['webhook-signature'] ?? ''),
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * A real HTTPS webhook receiver on 127.0.0.1 with a certificate from the test CA. It records
 * every request and answers as its responder says (200 by default).
 */
export async function startHttpsReceiver(certificates: TestCertificates, responder?: Responder) {
  const received: ReceivedWebhook[] = [];
  let respond: Responder = responder ?? (() => ({ status: 200, body: '{"ok":true}' }));
  const server = https.createServer(
    { key: fs.readFileSync(certificates.keyFile), cert: fs.readFileSync(certificates.certFile) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request: ReceivedWebhook = {
          at: Date.now(),
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        received.push(request);
        void Promise.resolve(respond(request, received.length)).then(async (reply) => {
          if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
          if (res.destroyed) return;
          res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
          res.end(reply.body ?? '');
        });
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    received,
    setResponder(next: Responder) {
      respond = next;
    },
    /** Waits until `count` requests have arrived (fails after `timeoutMs`). */
    async waitFor(count: number, timeoutMs = 20_000): Promise<ReceivedWebhook[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`receiver got ${received.length} requests, expected ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return received.slice(0, count);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type HttpsReceiver = Awaited<ReturnType<typeof startHttpsReceiver>>;
