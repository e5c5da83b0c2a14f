import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type SinkMessage = {
  mailFrom: string;
  rcptTo: string[];
  raw: Buffer;
  /** The credentials the client logged in with, if it did. */
  auth: { username: string; password: string } | null;
};

/** An SMTP reply the sink answers with instead of accepting. */
export type SinkRefusal = { code: number; message: string };

export type SmtpSinkOptions = {
  /** Refuse RCPT TO for an address (null: accept it). */
  refuseRecipient?: (address: string) => SinkRefusal | null;
  /** Refuse the message after DATA. */
  refuseData?: SinkRefusal;
  /** Refuse every login (the server answers 535). */
  refuseLogin?: boolean;
};

const refusal = ({ code, message }: SinkRefusal) =>
  Object.assign(new Error(message), { responseCode: code });

/**
 * A real SMTP server on 127.0.0.1 (random port) that keeps every message it takes. Plain
 * text only (no STARTTLS), login optional but recorded, so a test can check SMTP_URL auth.
 */
export async function startSmtpSink(options: SmtpSinkOptions = {}) {
  const messages: SinkMessage[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.refuseLogin) return callback(new Error('Invalid username or password'));
      callback(null, { user: { username: auth.username, password: auth.password } });
    },
    onRcptTo(address, _session, callback) {
      const refused = options.refuseRecipient?.(address.address);
      callback(refused ? refusal(refused) : null);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (options.refuseData) return callback(refusal(options.refuseData));
        const user = session.user as { username: string; password: string } | undefined;
        messages.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks),
          auth: user ?? null,
        });
        callback(null);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    messages,
    /** `smtp://[user:pass@]127.0.0.1:port` with the credentials percent-encoded. */
    url(credentials?: { user: string; pass: string }) {
      const login = credentials
        ? `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@`
        : '';
      return `smtp://${login}127.0.0.1:${port}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
