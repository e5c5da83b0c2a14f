import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { TLSSocket } from 'node:tls';
import { Webhook } from 'standardwebhooks';
import type { TestCertificates } from './test-ca';

// Shared by the test suites and the benchmark (bench/e2e.ts): no test-runner imports here.

export type ReceivedWebhook = {
  /** performance.now() when the request's body was complete (monotonic ms, same clock as the bench's). */
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

const answerOk: Responder = () => ({ status: 200, body: '{"ok":true}' });

/**
 * A real HTTPS webhook receiver on 127.0.0.1 with a certificate from the test CA. It records
 * every request and answers as its responder says (200 by default).
 */
export async function startHttpsReceiver(certificates: TestCertificates, responder = answerOk) {
  const received: ReceivedWebhook[] = [];
  let connections = 0;
  let resumed = 0;
  const server = https.createServer(
    { key: fs.readFileSync(certificates.keyFile), cert: fs.readFileSync(certificates.certFile) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request: ReceivedWebhook = {
          at: performance.now(),
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        received.push(request);
        void Promise.resolve(responder(request, received.length)).then(async (reply) => {
          if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
          if (res.destroyed) return;
          res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
          res.end(reply.body ?? '');
        });
      });
    },
  );
  server.on('secureConnection', (socket: TLSSocket) => {
    connections++;
    if (socket.isSessionReused()) resumed++;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    received,
    /** TLS connections accepted so far (few means the sender reuses them). */
    connections: () => connections,
    /** Of those, the ones that resumed an earlier TLS session (no full handshake). */
    resumedConnections: () => resumed,
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
