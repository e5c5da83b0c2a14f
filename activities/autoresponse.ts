import { ApplicationFailure, Context } from '@temporalio/activity';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Orm } from '../src/db/orm';
import { selectAutoresponseRow } from '../src/db/sql/workflow-step-reads';
import type { DeliveryStatus } from '../src/db/entities/delivery-attempt';
import {
  claimAutoresponseWithinCaps,
  isUnsubscribed,
  releaseAutoresponse,
  type AutoresponseSend,
} from '../src/db/sql/autoresponse-sends';
import { recipientStates } from '../src/db/sql/recipients';
import { clientNetwork } from '../src/domain/net/client-network';
import { upsertAttempt } from '../src/db/sql/delivery-attempts';
import { buildAutoresponseMail } from '../src/domain/autoresponse/autoresponse-mail';
import type { AddressKeys } from '../src/domain/mail/address-keys';
import type { Mailer } from '../src/domain/mail/mailer';
import { isPermanentSmtpRejection } from '../src/domain/mail/smtp-failure';
import { MAIL_BUDGET_EXHAUSTED, spendMailBudget } from '../src/domain/recipients/mail-budget';
import { copyFor, unsubscribeUrl } from '../src/domain/recipients/recipient-copies';
import type { UnsubscribeTokens } from '../src/domain/recipients/unsubscribe-tokens';
import type { Receipts } from '../src/domain/receipts/receipts';
import { mailManageLink } from '../src/domain/manage/mail-link';
import {
  REDELIVERY,
  type AutoresponseInput,
  type AutoresponseResult,
} from '../workflows/submission-contract';
import { DELIVERY_FAILED, SMTP_REJECTED_FAILURE } from '../workflows/failure-types';
import type { AutoresponseActivities } from '../workflows/activity-contracts';
import { attemptNumberOf } from '../src/plugins/delivery/attempt-number';

export type AutoresponseDeps = {
  orm: Orm;
  mailer: Mailer;
  logger: Logger;
  baseUrl: string;
  /** INGEST_URL: where the manage link the mail carries points (docs/manage-links.md). */
  ingestUrl: string;
  unsubscribeTokens: UnsubscribeTokens;
  /** Keys the address and network in the ledger the caps count. */
  addressKeys: AddressKeys;
  /** Signs the submission's receipt, which the mail carries (docs/receipts.md). */
  receipts: Receipts;
  /** ACCOUNT_MAIL_PER_HOUR: the autoresponse takes one message of it. */
  mailPerHour: number;
  /** AUTORESPONSE_INTERVAL: at most one autoresponse per form and address in this time. */
  autoresponseIntervalMs: number;
  /** AUTORESPONSE_PER_ADDRESS and AUTORESPONSE_PER_CLIENT (docs/autoresponse.md). */
  autoresponseCaps: { perAddress: number; perClientHour: number };
};

const emailSchema = z.email();

type Attempt = {
  status: DeliveryStatus;
  error: string | null;
  responseBody: string | null;
  durationMs: number;
  startedAt: Date;
};

/** Records one attempt in the submission's delivery log, with `plugin_type` `autoresponse`. */
async function recordAttempt(em: EntityManager, input: AutoresponseInput, attempt: Attempt) {
  const { info } = Context.current();
  await upsertAttempt(em, {
    deliveryId: input.deliveryId,
    submissionId: input.submissionId,
    pluginId: null,
    pluginType: 'autoresponse',
    attempt: attemptNumberOf(),
    status: attempt.status,
    httpStatus: null,
    error: attempt.error,
    durationMs: attempt.durationMs,
    responseBody: attempt.responseBody,
    isReplay: input.mode === REDELIVERY,
    isTest: input.mode === 'test',
    workflowId: info.workflowExecution?.workflowId ?? '',
    workflowRunId: info.workflowExecution?.runId ?? '',
    startedAt: attempt.startedAt,
    finishedAt: new Date(),
  });
}

/**
 * The autoresponse activity (docs/autoresponse.md): to a non-spam submission's valid `email`,
 * if the form has an autoresponse (read now), the address did not unsubscribe from the account,
 * no autoresponse of this form went to it within AUTORESPONSE_INTERVAL (claimed atomically),
 * and the account's hourly mail budget has room. Within the interval nothing is recorded (it
 * was not due); unsubscribed or over the budget, a `skipped` record says why. A transient SMTP
 * failure is retried by Temporal under the same delivery id and Message-ID; a 5xx refusal is
 * final. A claim whose mail never went out is given back.
 */
export function createAutoresponseActivities(deps: AutoresponseDeps): AutoresponseActivities {
  return {
    async sendAutoresponse(input) {
      const em = deps.orm.em.fork();
      const notSent = (skipped: string): AutoresponseResult => ({
        sent: false,
        deliveryId: input.deliveryId,
        skipped,
      });
      // One statement: the submission and its form (src/db/sql/workflow-step-reads.ts).
      const read = await selectAutoresponseRow(em, input.submissionId);
      if (!read) return notSent('submission_missing');
      const { submission, form } = read;
      if (submission.isSpam) return notSent('spam');
      if (!form?.autoresponse) return notSent('not_configured');
      const address = submission.specialNormalized?.email?.trim().toLowerCase() ?? '';
      if (!emailSchema.safeParse(address).success) return notSent('no_email');

      const startedAt = new Date();
      const skip = async (reason: string) => {
        await recordAttempt(em, input, {
          status: 'skipped',
          error: reason,
          responseBody: null,
          durationMs: 0,
          startedAt,
        });
        return notSent(reason);
      };
      if (await isUnsubscribed(em, form.accountId, address)) return skip('unsubscribed');
      // A test run is the owner's key at work, with no CAPTCHA and no stranger behind it: it
      // may only mail the account's own people (its users and confirmed recipients).
      if (input.mode === 'test' && !(await confirmedForAccount(em, form.accountId, address)))
        return skip('test_run_unconfirmed_address');
      // Signed from the stored submission, before the claim: a failure here claims nothing.
      const receipt = await deps.receipts.sign({
        formId: form.id,
        submissionId: submission.id,
        receivedAt: submission.createdAt,
        payload: submission.payloadJson,
      });
      // The mail's own manage link (docs/manage-links.md), before the claim as well; none on
      // a test run, which gets no link at ingest either.
      const manageUrl =
        input.mode === 'test'
          ? null
          : await mailManageLink(em, deps.ingestUrl, {
              id: submission.id,
              submitterAccess: form.submitterAccess,
            });
      const send: AutoresponseSend = {
        formId: form.id,
        addressKey: deps.addressKeys.address(address),
        submissionId: submission.id,
        clientKey: submission.sourceIp
          ? deps.addressKeys.client(clientNetwork(submission.sourceIp))
          : null,
      };
      const claim = await claimAutoresponseWithinCaps(em, send, {
        intervalMs: deps.autoresponseIntervalMs,
        ...deps.autoresponseCaps,
      });
      if (claim === 'interval') return notSent('interval');
      if (claim !== 'claimed') return skip(claim);
      const budget = { ...deps, perHour: deps.mailPerHour };
      if (!(await spendMailBudget(em, budget, form.accountId, 1))) {
        await releaseAutoresponse(em, send);
        return skip(MAIL_BUDGET_EXHAUSTED);
      }

      const copyDeps = { ...deps, tokens: deps.unsubscribeTokens };
      const unsubscribe = unsubscribeUrl(copyDeps, form.accountId, address);
      const mail = buildAutoresponseMail({
        to: address,
        settings: form.autoresponse,
        values: {
          formName: form.name,
          name: submission.specialNormalized?.name ?? null,
          payload: submission.payloadJson,
        },
        deliveryId: input.deliveryId,
        senderDomain: deps.mailer.senderDomain,
        unsubscribeUrl: unsubscribe,
        receipt,
        manageUrl,
      });
      const attempt = attemptNumberOf();
      const log = deps.logger.child({
        submissionId: submission.id,
        formId: form.id,
        deliveryId: input.deliveryId,
        attempt,
      });
      const started = performance.now();
      try {
        const receipt = await deps.mailer.send(copyFor(mail, address, unsubscribe));
        await recordAttempt(em, input, {
          status: 'succeeded',
          error: null,
          responseBody: `accepted: ${receipt.accepted.join(', ') || '(none)'}`.slice(0, 4096),
          durationMs: Math.round(performance.now() - started),
          startedAt,
        });
        log.info('autoresponse sent');
        return { sent: true, deliveryId: input.deliveryId };
      } catch (error) {
        const permanent = isPermanentSmtpRejection(error);
        const final = permanent || input.mode === 'test' || attempt >= input.maxAttempts;
        const message = (error as Error).message ?? String(error);
        const reason = permanent ? `SMTP server refused the message: ${message}` : message;
        await recordAttempt(em, input, {
          status: final ? 'failed' : 'pending_retry',
          error: reason,
          responseBody: null,
          durationMs: Math.round(performance.now() - started),
          startedAt,
        });
        log.warn({ err: error, final }, 'autoresponse attempt failed');
        if (!final) throw ApplicationFailure.retryable(reason, DELIVERY_FAILED);
        await releaseAutoresponse(em, send);
        throw ApplicationFailure.nonRetryable(
          reason,
          permanent ? SMTP_REJECTED_FAILURE : DELIVERY_FAILED,
        );
      }
    },
  };
}

/** Whether the address is one of the account's users' or a recipient it confirmed. */
async function confirmedForAccount(em: EntityManager, accountId: string, address: string) {
  const [state] = await recipientStates(em, accountId, [address]);
  return state?.confirmed === true;
}
