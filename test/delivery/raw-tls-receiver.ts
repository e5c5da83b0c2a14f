import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import type { TestCertificates } from '../support/test-ca';

/** What a misbehaving receiver does once a request has arrived on its socket. */
export type RawBehaviour = (socket: tls.TLSSocket) => void;

/**
 * A raw TLS server on 127.0.0.1 (certificate from the test CA) that speaks HTTP by hand, so a
 * test can answer in ways an HTTP server library would not: a trickle, endless `102`s.
 * It writes nothing until the first bytes of a request arrive.
 */
export async function startRawTlsReceiver(certificates: TestCertificates, behaviour: RawBehaviour) {
  const sockets = new Set<tls.TLSSocket>();
  const timers = new Set<NodeJS.Timeout>();
  let requests = 0;
  const server = tls.createServer(
    { key: fs.readFileSync(certificates.keyFile), cert: fs.readFileSync(certificates.certFile) },
    (socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined); // the sender hangs up on us: expected
      socket.on('close', () => sockets.delete(socket));
      socket.once('data', () => {
        requests++;
        behaviour(socket);
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/hook`,
    requests: () => requests,
    /** Repeats `write` every `everyMs` on the socket until it closes. */
    repeat(socket: tls.TLSSocket, everyMs: number, write: () => string) {
      const timer = setInterval(() => {
        if (socket.destroyed) clearInterval(timer);
        else socket.write(write());
      }, everyMs);
      timers.add(timer);
      socket.on('close', () => clearInterval(timer));
    },
    async close() {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type RawTlsReceiver = Awaited<ReturnType<typeof startRawTlsReceiver>>;

/** A receiver that sends a 200's headers, then its body one byte every `everyMs`. */
export async function startTricklingReceiver(certificates: TestCertificates, everyMs = 300) {
  const receiver: RawTlsReceiver = await startRawTlsReceiver(certificates, (socket) => {
    socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 1000\r\n\r\n');
    receiver.repeat(socket, everyMs, () => '.');
  });
  return receiver;
}

/** A receiver that answers `102 Processing` every `everyMs`, and never a final status. */
export async function startProcessingLoopReceiver(certificates: TestCertificates, everyMs = 300) {
  const receiver: RawTlsReceiver = await startRawTlsReceiver(certificates, (socket) => {
    receiver.repeat(socket, everyMs, () => 'HTTP/1.1 102 Processing\r\n\r\n');
  });
  return receiver;
}
