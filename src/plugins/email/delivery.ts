import { isPermanentSmtpRejection } from '../../domain/mail/smtp-failure';
import { buildSubmissionEmail } from '../../domain/mail/submission-email';
import { renderSubject, type EmailPluginConfig } from './email-config';
import { MAIL_BUDGET_EXHAUSTED, spendMailBudget } from '../../domain/recipients/mail-budget';
import { mailRecipients } from '../../domain/recipients/recipient-copies';
import { splitDeliverable } from '../../domain/recipients/recipient-states';
import { SMTP_REJECTED_FAILURE } from '../../../workflows/failure-types';
import { recordSkippedAttempt } from '../delivery/record-attempt';
import type { AttemptResult, DeliverAttempt, PluginDeliveryDeps } from '../delivery/attempt';

/**
 * One attempt of an e-mail plugin (docs/plugins.md): the notification e-mail of
 * src/domain/mail/submission-email.ts to the plugin's confirmed, not unsubscribed recipients
 * (read now), one copy each with its unsubscribe link, within the account's hourly budget;
 * with its subject template filled in and `Reply-To` the submitter's `email` when valid. Its
 * Message-ID is the delivery id's, so a retry is recognisably the same message. An SMTP 5xx
 * refusal of every copy is final. No recipient left, or no budget: a `skipped` record.
 */
export const emailDelivery =
  (deps: PluginDeliveryDeps): DeliverAttempt<EmailPluginConfig> =>
  async ({ input, em, config, source, submission: stored, files }) => {
    const { form } = stored;
    const submission = {
      id: source.submissionId,
      createdAt: source.createdAt,
      payloadJson: source.payload,
      specialNormalized: stored.specialNormalized,
    };
    const { deliverable, held } = await splitDeliverable(em, form.accountId, config.recipients);
    if (deliverable.length === 0) {
      return recordSkippedAttempt(em, input, `no confirmed recipients (${held.join(', ')})`);
    }
    const budget = { ...deps, perHour: deps.mailPerHour };
    if (!(await spendMailBudget(em, budget, form.accountId, deliverable.length))) {
      return recordSkippedAttempt(em, input, MAIL_BUDGET_EXHAUSTED);
    }
    const mail = buildSubmissionEmail({
      form,
      submission,
      files,
      recipients: deliverable,
      baseUrl: deps.baseUrl,
      senderDomain: deps.mailer.senderDomain,
    });
    mail.subject = renderSubject(config.subject, {
      formName: source.formName,
      submissionId: source.submissionId,
      payload: source.payload,
    });
    mail.messageId = `<${input.deliveryId}@${deps.mailer.senderDomain}>`;

    const started = performance.now();
    let result: AttemptResult;
    let permanent = false;
    try {
      const receipt = await mailRecipients(deps, mail, form.accountId);
      result = {
        ok: true,
        statusCode: null,
        responseBody: `accepted: ${receipt.accepted.join(', ') || '(none)'}${
          receipt.rejected.length > 0 ? `; refused: ${receipt.rejected.join(', ')}` : ''
        }${held.length > 0 ? `; not confirmed: ${held.join(', ')}` : ''}`.slice(0, 4096),
        error: null,
        failure: null,
        durationMs: Math.round(performance.now() - started),
      };
    } catch (error) {
      permanent = isPermanentSmtpRejection(error);
      const message = (error as Error).message ?? String(error);
      result = {
        ok: false,
        statusCode: null,
        responseBody: null,
        error: permanent ? `SMTP server refused the message: ${message}` : message,
        failure: 'smtp',
        durationMs: Math.round(performance.now() - started),
      };
    }
    return {
      result,
      permanent,
      delivered: 'delivered',
      ...(permanent ? { failureType: SMTP_REJECTED_FAILURE } : {}),
    };
  };
