import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../../config/config';
import { mailboxDirectory, saveToMailbox } from './dev-mailbox';

export type MailAddress = { name?: string; address: string };

/** One message as the domain builds it; the sender comes from MAIL_FROM. */
export type OutgoingMail = {
  to: string[];
  subject: string;
  text: string;
  /** Absent: a plain-text message (the autoresponse). */
  html?: string;
  /** With angle brackets, e.g. `<submission-1.ab12@example.com>`. */
  messageId: string;
  replyTo?: MailAddress;
  headers?: Record<string, string>;
};

export type MailReceipt = {
  messageId: string;
  /** Recipients the server took (all of them for the dev mailbox). */
  accepted: string[];
  /** Recipients the server refused while taking the message for the others. */
  rejected: string[];
  /** The .eml file of a dev-mailbox message; null for SMTP. */
  file: string | null;
};

export type Mailer = {
  /** `smtp` with SMTP_URL, else `dev-mailbox`. */
  readonly kind: 'smtp' | 'dev-mailbox';
  /** The domain of MAIL_FROM, for Message-IDs. */
  readonly senderDomain: string;
  /** Sends one message; rejects on any failure (the SMTP error keeps `responseCode`). */
  send(mail: OutgoingMail): Promise<MailReceipt>;
  close(): void;
};

export type MailerConfig = Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>;

// nodemailer waits minutes by default; an activity should fail fast and let Temporal retry.
// Query parameters of SMTP_URL (e.g. `?connectionTimeout=30000`) override these.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 60_000 };

/**
 * The mailer of docs/running.md: SMTP_URL (`smtp://user:pass@host:587` with STARTTLS when the
 * server offers it, `smtps://user:pass@host:465` for implicit TLS) or, unset, the dev mailbox.
 */
export function createMailer(config: MailerConfig, logger: Logger): Mailer {
  const senderDomain = domainOf(config.mailFrom);
  return config.smtpUrl
    ? smtpMailer(config.smtpUrl, config.mailFrom, senderDomain)
    : devMailboxMailer(mailboxDirectory(config.dataDir), config.mailFrom, senderDomain, logger);
}

function smtpMailer(smtpUrl: string, from: string, senderDomain: string): Mailer {
  const protocol = safeProtocol(smtpUrl);
  if (protocol !== 'smtp:' && protocol !== 'smtps:') {
    throw new Error(`SMTP_URL must start with smtp:// or smtps:// (got ${protocol ?? 'no URL'})`);
  }
  const transport = nodemailer.createTransport({ ...SMTP_TIMEOUTS, url: smtpUrl });
  return {
    kind: 'smtp',
    senderDomain,
    async send(mail) {
      const info = await transport.sendMail({ ...toNodemailer(mail), from });
      return {
        messageId: info.messageId,
        accepted: info.accepted.map(String),
        rejected: info.rejected.map(String),
        file: null,
      };
    },
    close: () => transport.close(),
  };
}

function devMailboxMailer(
  directory: string,
  from: string,
  senderDomain: string,
  logger: Logger,
): Mailer {
  // The stream transport composes the exact bytes an SMTP server would have received.
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    kind: 'dev-mailbox',
    senderDomain,
    async send(mail) {
      const info = await transport.sendMail({ ...toNodemailer(mail), from });
      const file = await saveToMailbox(directory, info.message as Buffer, info.messageId);
      logger.info(
        { to: mail.to, subject: mail.subject, file, messageId: info.messageId },
        'mail kept in the dev mailbox (SMTP_URL is not set); see `formward mailbox`',
      );
      return { messageId: info.messageId, accepted: [...mail.to], rejected: [], file };
    },
    close: () => transport.close(),
  };
}

function toNodemailer(mail: OutgoingMail) {
  return {
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
    replyTo: mail.replyTo
      ? { name: mail.replyTo.name ?? '', address: mail.replyTo.address }
      : undefined,
    headers: mail.headers,
    // Predictable and readable in raw form; base64 would hide the text from a quick look.
    textEncoding: 'quoted-printable' as const,
  };
}

function safeProtocol(url: string): string | null {
  try {
    return new URL(url).protocol;
  } catch {
    return null;
  }
}

/** `Name <user@example.com>` or `user@example.com` → `example.com`. */
function domainOf(address: string): string {
  const match = /@([A-Za-z0-9.-]+)>?\s*$/.exec(address.trim());
  return match?.[1]?.toLowerCase() ?? 'formward.local';
}
