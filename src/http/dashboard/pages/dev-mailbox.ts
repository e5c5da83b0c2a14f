import type { Request, Router } from 'express';
import fs from 'node:fs/promises';
import path from 'node:path';
import { findMailboxEntry, listMailbox, mailboxDirectory } from '../../../domain/mail/dev-mailbox';
import { isLoopbackUrl } from '../../../domain/mail/dev-mailbox-exposure';
import { findPart, headerValue, readMimeMessage } from '../../../domain/mail/mime-reader';
import type { AppContext } from '../../../runtime/app-context';
import { noStore } from '../../middleware/no-store';
import { guestCsrfToken } from '../guest-csrf';
import { sendPage } from '../send-page';

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
 * `/dev/mailbox`: with no SMTP_URL, the e-mails Formward kept (confirmation and reset links
 * among them), so a newcomer can follow them. Nothing is there when SMTP_URL is set, nor when
 * BASE_URL is not loopback: a proxy on this host that adds no forwarding header would
 * otherwise hand the page to anyone (start-up warns, dev-mailbox-exposure.ts).
 */
export function devMailboxPages(router: Router, ctx: AppContext): void {
  if (ctx.accounts.mailing.mailer.kind !== 'dev-mailbox') return;
  if (!isLoopbackUrl(ctx.config.baseUrl)) return;
  // The kept mails hold confirmation and reset links.
  router.use('/dev/mailbox', noStore);
  const directory = mailboxDirectory(ctx.config.dataDir);
  const chrome = (req: Request, res: Parameters<typeof guestCsrfToken>[1]) => ({
    csrfToken: guestCsrfToken(req, res, ctx.urls.base),
  });

  router.get('/dev/mailbox', async (req, res, next) => {
    if (!fromThisMachine(req)) return next();
    const entries = await listMailbox(directory);
    await sendPage(res, 200, 'dev-mailbox', 'Dev mailbox', chrome(req, res), {
      entries,
      directory,
    });
  });

  router.get('/dev/mailbox/:file', async (req, res, next) => {
    if (!fromThisMachine(req)) return next();
    const name = path.basename(req.params.file);
    const file = name.endsWith('.eml') ? await findMailboxEntry(directory, name) : null;
    if (!file || path.dirname(file) !== directory) return next();
    const message = readMimeMessage(await fs.readFile(file));
    const text = findPart(message, 'text/plain')?.body ?? '';
    await sendPage(res, 200, 'dev-mailbox-message', 'Message', chrome(req, res), {
      subject: headerValue(message, 'subject') ?? '',
      to: headerValue(message, 'to') ?? '',
      text,
      links: [...new Set(text.match(/https?:\/\/[^\s<>"]+/g) ?? [])],
    });
  });
}
