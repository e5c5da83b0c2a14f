import type { EntityManager } from '@mikro-orm/postgresql';
import escapeHtml from 'escape-html';
import type { Logger } from 'pino';
import { accountOwnerEmail, claimOwnerNotice, takeHourlyMail } from '../../db/sql/mail-budget';
import { randomToken } from '../accounts/secrets';
import type { Mailer } from '../mail/mailer';

/** The reason recorded for a send the account's hourly budget did not cover. */
export const MAIL_BUDGET_EXHAUSTED = 'mail_budget_exhausted';

export type MailBudgetDeps = { mailer: Mailer; logger: Logger; baseUrl: string; perHour: number };

/**
 * Takes `messages` (one per recipient) from the account's budget of submission mail for this
 * hour (ACCOUNT_MAIL_PER_HOUR, held per owner summed over the accounts they own), all or none. When they do not fit, the account's owner is told,
 * at most once an hour, and false is returned: the caller records the send as skipped.
 */
export async function spendMailBudget(
  em: EntityManager,
  deps: MailBudgetDeps,
  accountId: string,
  messages: number,
): Promise<boolean> {
  if (await takeHourlyMail(em, accountId, messages, deps.perHour)) return true;
  if (await claimOwnerNotice(em, accountId)) {
    const owner = await accountOwnerEmail(em, accountId);
    if (owner) sendBudgetNotice(deps, owner);
  }
  return false;
}

/** Tells the owner without holding up the activity; a failure is logged (the hour's notice is used). */
function sendBudgetNotice(deps: MailBudgetDeps, owner: string): void {
  const page = `${deps.baseUrl}/app`;
  const lines = [
    `Your Formward account reached its limit of ${deps.perHour} submission e-mails this hour (ACCOUNT_MAIL_PER_HOUR, counted over every account you own).`,
    'Notification and e-mail plugin messages beyond it are not sent until the next hour; each one is recorded as skipped (mail_budget_exhausted) in the delivery log, and the submissions themselves are kept.',
    'E-mail plugin deliveries can be sent again later with "Recover" on the plugin page.',
  ];
  deps.mailer
    .send({
      to: [owner],
      subject: 'Formward: hourly e-mail limit reached',
      text: `${lines.join('\n\n')}\n\n${page}\n`,
      html: `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<p><a href="${escapeHtml(page)}">${escapeHtml(page)}</a></p>`,
      messageId: `<mail-budget-${randomToken(12)}@${deps.mailer.senderDomain}>`,
      headers: { 'Auto-Submitted': 'auto-generated' },
    })
    .catch((error: unknown) =>
      deps.logger.error({ err: error }, 'the mail budget notice could not be sent'),
    );
}
