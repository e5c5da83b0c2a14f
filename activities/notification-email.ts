import { ApplicationFailure } from '@temporalio/activity';
import type { Logger } from 'pino';
import type { Orm } from '../src/db/orm';
import { selectNotificationRow } from '../src/db/sql/workflow-step-reads';
import type { Mailer } from '../src/domain/mail/mailer';
import { isPermanentSmtpRejection } from '../src/domain/mail/smtp-failure';
import { buildSubmissionEmail, notificationRecipients } from '../src/domain/mail/submission-email';
import { MAIL_BUDGET_EXHAUSTED, spendMailBudget } from '../src/domain/recipients/mail-budget';
import { mailRecipients } from '../src/domain/recipients/recipient-copies';
import { splitDeliverable } from '../src/domain/recipients/recipient-states';
import type { UnsubscribeTokens } from '../src/domain/recipients/unsubscribe-tokens';
import { type NotificationResult } from '../workflows/submission-contract';
import { SMTP_REJECTED_FAILURE } from '../workflows/failure-types';
import type { NotificationActivities } from '../workflows/activity-contracts';

export type NotificationDeps = {
  orm: Orm;
  mailer: Mailer;
  baseUrl: string;
  logger: Logger;
  /** Seals the one-click unsubscribe links of every copy. */
  unsubscribeTokens: UnsubscribeTokens;
  /** ACCOUNT_MAIL_PER_HOUR: submission mails (one per recipient) an account may send an hour. */
  mailPerHour: number;
};

/**
 * The notification e-mail activity: one message about an accepted, non-spam submission to
 * its form's `notification_email_addresses` that are confirmed and not unsubscribed (read at
 * attempt time, docs/security.md, "Recipients and mail"), one copy per recipient with its unsubscribe
 * link, within the account's hourly budget. Its Message-ID is stable, so a retry after an
 * unclear failure is the same message. Transient SMTP failures throw (Temporal retries); a
 * 5xx refusal of every copy fails without retry.
 */
export function createNotificationActivities(deps: NotificationDeps): NotificationActivities {
  const skip = (reason: string): NotificationResult => ({
    sent: false,
    recipients: [],
    messageId: null,
    skipped: reason,
  });

  return {
    async sendNotificationEmail(submissionId) {
      const em = deps.orm.em.fork();
      // One statement: the submission, its form and its uploads (workflow-step-reads.ts).
      const read = await selectNotificationRow(em, submissionId);
      if (!read) return skip('submission_missing');
      const { submission, form, files } = read;
      if (submission.isSpam) return skip('spam');
      if (!form) return skip('form_missing');
      const addresses = notificationRecipients(form.notificationEmailAddresses);
      if (addresses.length === 0) return skip('no_recipients');
      const { deliverable: recipients, held } = await splitDeliverable(
        em,
        form.accountId,
        addresses,
      );
      if (recipients.length === 0) return skip('no_confirmed_recipients');
      const budget = { ...deps, perHour: deps.mailPerHour };
      if (!(await spendMailBudget(em, budget, form.accountId, recipients.length))) {
        deps.logger.warn({ submissionId, formId: form.id }, 'notification e-mail over the budget');
        return skip(MAIL_BUDGET_EXHAUSTED);
      }

      const mail = buildSubmissionEmail({
        form,
        submission,
        files,
        recipients,
        baseUrl: deps.baseUrl,
        senderDomain: deps.mailer.senderDomain,
      });
      const log = deps.logger.child({ submissionId, formId: form.id, messageId: mail.messageId });

      if (held.length > 0) log.info({ held }, 'not e-mailed: unconfirmed or unsubscribed');

      try {
        const receipt = await mailRecipients(deps, mail, form.accountId);
        if (receipt.rejected.length > 0) {
          log.warn(
            { rejected: receipt.rejected },
            'notification e-mail refused for some addresses',
          );
        }
        log.info({ recipients: receipt.accepted }, 'notification e-mail sent');
        return {
          sent: true,
          recipients: receipt.accepted,
          messageId: mail.messageId,
          ...(receipt.rejected.length > 0 ? { rejected: receipt.rejected } : {}),
        };
      } catch (error) {
        if (isPermanentSmtpRejection(error)) {
          log.error({ err: error }, 'notification e-mail refused by the SMTP server; not retrying');
          const { responseCode, response } = error as { responseCode?: number; response?: string };
          throw ApplicationFailure.nonRetryable(
            `SMTP server refused the notification e-mail: ${(error as Error).message}`,
            SMTP_REJECTED_FAILURE,
            { responseCode: responseCode ?? null, response: response ?? null, recipients },
          );
        }
        log.warn({ err: error }, 'notification e-mail not sent; the activity will be retried');
        throw error;
      }
    },
  };
}
