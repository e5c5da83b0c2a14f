import type { Request } from 'express';
import fs from 'node:fs/promises';
import path from 'node:path';
import { findMailboxEntry, listMailbox, mailboxDirectory } from '../../domain/mail/dev-mailbox';
import { isLoopbackUrl } from '../../domain/mail/dev-mailbox-exposure';
import { findPart, headerValue, readMimeMessage } from '../../domain/mail/mime-reader';
import type { AppContext } from '../../runtime/app-context';
import { definePage } from '../kit/routing/define-page';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * Only a browser on this machine, talking to us directly: a proxy in front (whose requests
 * come from loopback too) adds a forwarding header, and then the page is not there.
 */
function fromThisMachine(req: Request): boolean {
  const direct = !req.get('x-forwarded-for') && !req.get('forwarded');
  return direct && LOOPBACK.test(req.socket.remoteAddress ?? '');
}

/**
 * With no SMTP_URL, and BASE_URL on loopback: a proxy on this host that adds no forwarding
 * header would otherwise hand the page to anyone (start-up warns, dev-mailbox-exposure.ts).
 */
const mailboxKept = (ctx: AppContext) =>
  ctx.accounts.mailing.mailer.kind === 'dev-mailbox' && isLoopbackUrl(ctx.config.baseUrl);

/**
 * `/dev/mailbox`: the e-mails Formward kept (confirmation and reset links among them), so a
 * newcomer can follow them; signed-out pages (`guest`: never cached, as the links are
 * secrets), and only for a direct request from this machine (otherwise a 404).
 */
export const devMailboxPages = [
  definePage({
    method: 'get',
    path: '/dev/mailbox',
    access: 'guest',
    template: 'dev-mailbox',
    title: 'Dev mailbox',
    enabled: mailboxKept,
  }).handle(async ({ req, next, render }, ctx) => {
    if (!fromThisMachine(req)) return next();
    const directory = mailboxDirectory(ctx.config.dataDir);
    await render({ entries: await listMailbox(directory), directory });
  }),

  definePage({
    method: 'get',
    path: '/dev/mailbox/:file',
    access: 'guest',
    template: 'dev-mailbox-message',
    title: 'Message',
    enabled: mailboxKept,
  }).handle(async ({ req, next, params, render }, ctx) => {
    if (!fromThisMachine(req)) return next();
    const directory = mailboxDirectory(ctx.config.dataDir);
    const name = path.basename(params.file);
    const file = name.endsWith('.eml') ? await findMailboxEntry(directory, name) : null;
    if (!file || path.dirname(file) !== directory) return next();
    const message = readMimeMessage(await fs.readFile(file));
    const text = findPart(message, 'text/plain')?.body ?? '';
    await render({
      subject: headerValue(message, 'subject') ?? '',
      to: headerValue(message, 'to') ?? '',
      text,
      links: [...new Set(text.match(/https?:\/\/[^\s<>"]+/g) ?? [])],
    });
  }),
];
