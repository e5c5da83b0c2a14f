import escapeHtml from 'escape-html';
import type { OutgoingMail } from '../mail/mailer';
import { randomToken } from '../accounts/secrets';

/** How much of a form's name a confirmation request shows. */
export const FORM_NAME_SHOWN = 60;

/** Control, zero-width and direction-changing characters: they could hide or reorder text. */
function invisible(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/**
 * A form's name as a confirmation request shows it: the only text in that mail an attacker
 * chooses, so plain text, one line, without anything a mail client could make a link of
 * (URLs, host names, e-mail addresses), and short.
 */
export function harmlessFormName(name: string): string {
  const words = [...name]
    .map((char) => (invisible(char.codePointAt(0)!) ? ' ' : char))
    .join('')
    .split(/\s+/)
    .filter((word) => word && !/[@:/\\]|\w\.\w|^www/i.test(word));
  const text = words.join(' ');
  return text.length > FORM_NAME_SHOWN ? `${text.slice(0, FORM_NAME_SHOWN - 1)}…` : text;
}

/** The one confirmation request an address gets before any submission mail of an account. */
export function confirmationRequestMail(input: {
  to: string;
  accountId: string;
  formName: string;
  link: string;
  senderDomain: string;
}): OutgoingMail {
  const name = harmlessFormName(input.formName) || '(unnamed)';
  const lines = [
    `Formward account no. ${input.accountId} asked to e-mail this address the submissions of its form "${name}".`,
    'Nothing will be sent to you until you confirm. To receive them, open this link and press "Confirm":',
  ];
  const tail = [
    'If you do not expect these messages, ignore this one: you will not hear from that account unless you confirm.',
    'Every message you receive after confirming has a one-click unsubscribe link.',
  ];
  return {
    to: [input.to],
    subject: 'Confirm to receive form submissions by e-mail',
    text: `${lines.join('\n\n')}\n\n${input.link}\n\n${tail.join('\n\n')}\n`,
    html:
      lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
      `<p><a href="${escapeHtml(input.link)}">${escapeHtml(input.link)}</a></p>` +
      tail.map((line) => `<p>${escapeHtml(line)}</p>`).join(''),
    messageId: `<recipient-confirm-${randomToken(12)}@${input.senderDomain}>`,
    headers: { 'Auto-Submitted': 'auto-generated' },
  };
}
