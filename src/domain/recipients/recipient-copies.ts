import type { Mailer, MailReceipt, OutgoingMail } from '../mail/mailer';
import { isPermanentSmtpRejection } from '../mail/smtp-failure';
import type { UnsubscribeTokens } from './unsubscribe-tokens';

export type CopyDeps = { mailer: Mailer; tokens: UnsubscribeTokens; baseUrl: string };

/** Where a recipient's one-click unsubscribe goes (GET shows a button, POST unsubscribes). */
export function unsubscribeUrl(deps: CopyDeps, accountId: string, address: string): string {
  const token = deps.tokens.issue({ accountId, address });
  return `${deps.baseUrl}/recipients/unsubscribe?token=${token}`;
}

/**
 * The message as one recipient gets it: addressed to them alone, with the RFC 8058 one-click
 * unsubscribe headers (plain headers, set before any DKIM signing, so they are signed too).
 */
export function copyFor(mail: OutgoingMail, to: string, unsubscribe: string): OutgoingMail {
  return {
    ...mail,
    to: [to],
    headers: {
      ...mail.headers,
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

export type CopiesReceipt = { accepted: string[]; rejected: string[]; firstRefusal: unknown };

/**
 * Sends one copy per recipient, each with its own unsubscribe link and the same Message-ID
 * (as mailing lists do). A copy the server refuses for good is counted as rejected and the
 * others still go; any other failure is thrown, and a retry sends every copy again under the
 * same Message-ID, which mail clients recognise as the same message.
 */
export async function sendCopies(
  deps: CopyDeps,
  mail: OutgoingMail,
  accountId: string,
): Promise<CopiesReceipt> {
  const receipt: CopiesReceipt = { accepted: [], rejected: [], firstRefusal: null };
  for (const to of mail.to) {
    let sent: MailReceipt;
    try {
      sent = await deps.mailer.send(copyFor(mail, to, unsubscribeUrl(deps, accountId, to)));
    } catch (error) {
      if (!isPermanentSmtpRejection(error)) throw error;
      receipt.rejected.push(to);
      receipt.firstRefusal ??= error;
      continue;
    }
    receipt.accepted.push(...sent.accepted);
    receipt.rejected.push(...sent.rejected);
  }
  return receipt;
}

/**
 * A submission's mail to its recipients (the notification, an e-mail plugin): sendCopies with
 * the worker's unsubscribe tokens, and when every copy was refused for good, that refusal
 * thrown, since no retry changes it.
 */
export async function mailRecipients(
  deps: { mailer: Mailer; unsubscribeTokens: UnsubscribeTokens; baseUrl: string },
  mail: OutgoingMail,
  accountId: string,
): Promise<CopiesReceipt> {
  const receipt = await sendCopies({ ...deps, tokens: deps.unsubscribeTokens }, mail, accountId);
  if (receipt.accepted.length === 0 && receipt.firstRefusal) throw receipt.firstRefusal;
  return receipt;
}
