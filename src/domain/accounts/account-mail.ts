import escapeHtml from 'escape-html';
import type { Logger } from 'pino';
import type { Mailer, OutgoingMail } from '../mail/mailer';
import { copyFor } from '../recipients/recipient-copies';
import { randomToken } from './secrets';

/** The account e-mails of the dashboard, each with the one link it is about. */
export type AccountMail =
  | { kind: 'confirm'; to: string; link: string }
  | { kind: 'reset'; to: string; link: string }
  | { kind: 'already_registered'; to: string; link: string }
  | { kind: 'invitation'; to: string; link: string; unsubscribe: string };

const TEXTS: Record<AccountMail['kind'], { subject: string; lead: string; tail: string }> = {
  confirm: {
    subject: 'Confirm your Formward account',
    lead: 'Follow this link to confirm your e-mail address and start using Formward:',
    tail: 'The link works for 48 hours. If you did not sign up, ignore this message.',
  },
  reset: {
    subject: 'Reset your Formward password',
    lead: 'Follow this link to choose a new password:',
    tail: 'The link works for one hour and once. If you did not ask for it, ignore this message.',
  },
  already_registered: {
    subject: 'Your Formward account',
    lead: 'Someone tried to sign up with this address, which already has an account. If you forgot your password, reset it here:',
    tail: 'If this was not you, ignore this message; nothing has changed.',
  },
  invitation: {
    subject: 'You are invited to a Formward account',
    lead: 'A member of a Formward account invited this address to join it. Follow this link to accept:',
    tail: 'The link works for 7 days and once. If you do not expect it, ignore this message.',
  },
};

/**
 * Sends one account e-mail without making the request wait for it: the answer to a sign-up
 * or a reset request must not take longer when the address has an account (no enumeration
 * by timing). A failure is logged; the person can ask again.
 */
export function sendAccountMail(mailer: Mailer, logger: Logger, mail: AccountMail): void {
  const text = TEXTS[mail.kind];
  // An invitation is mail a stranger's account causes: it ends with a way to refuse them all.
  const optOut = mail.kind === 'invitation' ? mail.unsubscribe : null;
  const outro = optOut ? `\n\n${INVITATION_OPT_OUT} ${optOut}` : '';
  const message: OutgoingMail = {
    to: [mail.to],
    subject: text.subject,
    text: `${text.lead}\n\n${mail.link}\n\n${text.tail}${outro}\n`,
    html:
      `<p>${escapeHtml(text.lead)}</p><p><a href="${escapeHtml(mail.link)}">${escapeHtml(mail.link)}</a></p><p>${escapeHtml(text.tail)}</p>` +
      (optOut
        ? `<p>${escapeHtml(INVITATION_OPT_OUT)} <a href="${escapeHtml(optOut)}">${escapeHtml(optOut)}</a></p>`
        : ''),
    messageId: `<account-${randomToken(12)}@${mailer.senderDomain}>`,
  };
  mailer
    .send(optOut ? copyFor(message, mail.to, optOut) : message)
    .catch((error: unknown) =>
      logger.error({ err: error, kind: mail.kind }, 'an account e-mail could not be sent'),
    );
}

const INVITATION_OPT_OUT = 'To receive no more invitations from this Formward, from any account:';
