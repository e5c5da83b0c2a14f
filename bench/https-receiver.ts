import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { TestCertificates as Certificates } from '../test/support/test-ca';

/** One webhook request as the receiver saw it. */
export type Receipt = {
  /** `id` of the JSON body: the submission id (null when the body was not such JSON). */
  submissionId: string | null;
  /** The `webhook-id` header: the delivery id, the same for every retry of one delivery. */
  webhookId: string | null;
  attempt: number | null;
  /** performance.now() when the whole body had arrived. */
  at: number;
  signatureOk: boolean;
};

export type Receiver = {
  url: string;
  receipts: Receipt[];
  /** The plugin's signing_secret, known once the plugin exists (until then nothing verifies). */
  secret: string | null;
  /** TLS connections accepted so far (few means the sender reuses them). */
  connections(): number;
  close(): Promise<void>;
};

/** `X-Service-Signature`: hex HMAC-SHA256 of the raw body, compared in constant time. */
function signatureMatches(secret: string | null, body: Buffer, header: string | undefined) {
  if (!secret || !header || !/^[0-9a-f]{64}$/i.test(header)) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(header, 'hex'));
}

function submissionIdOf(body: Buffer): string | null {
  try {
    const id = (JSON.parse(body.toString('utf8')) as { id?: unknown }).id;
    return id === undefined || id === null ? null : String(id);
  } catch {
    return null;
  }
}

/** An HTTPS webhook receiver on 127.0.0.1 that answers 200 to every POST and records it. */
export async function startReceiver(certificates: Certificates): Promise<Receiver> {
  let connections = 0;
  const receiver: Omit<Receiver, 'url'> = {
    receipts: [],
    secret: null,
    connections: () => connections,
    close: () => Promise.resolve(),
  };
  const server = https.createServer(
    {
      key: fs.readFileSync(certificates.keyFile),
      cert: fs.readFileSync(certificates.certFile),
    },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const at = performance.now();
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        const body = Buffer.concat(chunks);
        const attempt = Number(req.headers['x-formward-attempt']);
        receiver.receipts.push({
          submissionId: submissionIdOf(body),
          webhookId: (req.headers['webhook-id'] as string | undefined) ?? null,
          attempt: Number.isFinite(attempt) ? attempt : null,
          at,
          signatureOk: signatureMatches(
            receiver.secret,
            body,
            req.headers['x-service-signature'] as string | undefined,
          ),
        });
      });
    },
  );
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `https://127.0.0.1:${port}/hook`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}
