import path from 'node:path';
import type { Request, Response } from 'express';
import { formPostingDomains, originAllowed } from '../../domain/forms/allowed-domains';
import type { IngestForm } from '../../domain/forms/form-cache';
import { FileStoreUnavailableError } from '../../domain/files/file-store';
import { FileQuotaExceededError } from '../../domain/submissions/file-quota';
import {
  isConnectionError,
  isSearchIndexTooLarge,
  retryOnConnectionError,
} from '../../domain/database-errors';
import { manageToken, manageUrl, newManageSecret } from '../../domain/manage/manage-secret';
import { DatabaseUnavailableError, prefersHtml } from '../kit/middleware/errors';
import { offerPageAgain, pageChrome, postedFromOwnPage, type PageAgain } from './form-page-answers';
import {
  checkSubmission,
  prepareSubmission,
  type SubmissionToCheck,
} from '../../domain/submissions/prepare-submission';
import { storeSubmission, type StartHold } from '../../domain/submissions/store-submission';
import { setSpanAttributes } from '../../tracing/trace-hooks';
import { captchaGate, type CaptchaGate } from './captcha-gate';
import { formClosed, gateRefusal, submissionRefused } from './ingest-refusals';
import { negotiateLanguage } from '../../i18n/accept-language';
import { outsideWindow } from '../../domain/submissions/submission-gate';
import { fileStorageUnavailable } from '../kit/errors/file-storage-unavailable';
import { HttpError } from '../kit/errors/http-error';
import { clientAddress } from '../kit/middleware/client-address';
import { parseFormBody, type ParsedFormBody } from './parse-form-body';
import { rateLimitSubject } from './rate-limit-key';
import { limitsOf } from './rate-limiter';
import type { RouteContext } from '../kit/routing/define-route';

// What both ingest endpoints (ingest-api.ts) do with a post: the form's checks and rate
// limits before the body, then the rules, the store and the receipt after it.

/**
 * Form checks shared by both endpoints, in the order a caller can fix them, and the rate
 * limits; `meterBody` counts a body without Content-Length while it is read.
 */
export async function acceptingForm(
  req: Request,
  ctx: RouteContext,
  res?: Response,
): Promise<{
  form: IngestForm;
  meterBody?: (bytes: number) => void;
  pageAgain?: PageAgain | null;
}> {
  // A database restart of a few seconds is waited out here and in storeSubmission.
  const form = await retryOnConnectionError(() =>
    ctx.forms.byToken(() => req.em, String(req.params.endpoint_token)),
  );
  if (!form) throw new HttpError('not_found', 'no form has this endpoint token');
  if (!form.isActive) throw new HttpError('not_active', 'this form is not accepting submissions');
  if (
    !originAllowed(formPostingDomains(form), req.get('origin'), req.get('referer')) &&
    !postedFromOwnPage(form, req, ctx.urls.ingest)
  ) {
    throw new HttpError(
      'domain_not_allowed',
      'this form does not accept submissions from this site',
    );
  }
  // From here on a hosted page's browser gets the page again on a refusal (docs/form-pages.md).
  const pageAgain = res && prefersHtml(req) ? offerPageAgain(res, form, pageChrome(ctx)) : null;
  const subject = rateLimitSubject(clientAddress(req));
  try {
    // Outside its window a gated form is refused before its body is read (the rest of its
    // gates are decided with the insert, insertGatedSubmission).
    const closed = outsideWindow(form.limits, Date.now());
    if (closed) throw formClosed(closed);
    limitsOf(ctx).countPost(subject, form.id);
    return { form, meterBody: limitsOf(ctx).countBody(req, subject), pageAgain };
  } catch (error) {
    // Refused before the body was read: read its fields still, so the page keeps them.
    await pageAgain?.readRefusedBody(req, spoolDirOf(ctx));
    throw error;
  }
}

/**
 * Applies the ingest rules (checkSubmission, then the CAPTCHA's verdict, then
 * prepareSubmission) and stores the submission, committed before we answer; returns its id,
 * its signed receipt and, when the form gives submitters access, its manage link (the only
 * time its secret is known: docs/manage-links.md).
 */
export async function accept(
  req: Request,
  ctx: RouteContext,
  form: IngestForm,
  body: Pick<SubmissionToCheck, 'fields' | 'files' | 'limits'>,
  options: {
    captchaExempt?: boolean;
    start?: StartHold;
    captcha?: CaptchaGate;
    /** A `?test=true` run by the owner's key: no manage link. */
    test?: boolean;
  } = {},
) {
  const gate = options.captcha ?? captchaGate(req, ctx, form, options.captchaExempt ?? false);
  const captcha = gate.take(body.fields);
  const receivedAtMs = Date.now();
  const checked = checkSubmission({
    ...body,
    fields: captcha.fields,
    form: { id: form.id, accountId: form.accountId },
    rules: form.fields ? { fields: form.fields, unknownFields: form.unknownFields } : null,
    request: {
      receivedAtMs,
      sourceIp: clientAddress(req),
      userAgent: req.get('user-agent') ?? null,
      referrer: req.get('referer') ?? null,
    },
  });
  if (!checked.ok)
    throw submissionRefused(checked.problem, negotiateLanguage(req.get('accept-language')));
  // The CAPTCHA is verified once the fields passed, not before: an answer is good once at its
  // provider, so a post refused for its fields keeps its answer for the next try and its
  // refusal (validation_failed, not captcha_failed), and waits for no provider (up to 5 s).
  // Before the insert: a refused answer stores nothing (captcha_failed is thrown here); an
  // unverified one is a fact prepareSubmission turns into spam. A multipart body with files
  // was verified at its first file already (beforeFiles), and that verdict stands.
  const prepared = prepareSubmission({ ...checked.submission, captcha: await captcha.verdict() });
  // With submitter access on, the manage link's secret (docs/manage-links.md): its hash is one
  // more column of the row, its secret answered once below. A filled honeypot gets one too, so
  // its answer looks like any other (the link then opens nothing: spam is a 404).
  const manage = form.submitterAccess !== 'none' && !options.test ? newManageSecret() : null;
  const submission = await storeSubmission(
    () => req.em,
    { ...prepared, manageKeyHash: manage?.hash ?? null },
    {
      quota: ctx.config.fileQuota,
      store: ctx.fileStore,
      writeSlots: ctx.uploadWrites,
      url: (submissionId, fileId) =>
        `${ctx.urls.base}/api/submissions/${submissionId}/files/${fileId}`,
    },
    // A form with limits takes the gated path; all others keep the group commit.
    { start: options.start, writer: ctx.submissionWriter, gated: Boolean(form.limits) },
  ).catch((error: unknown) => {
    const refusal = gateRefusal(error, negotiateLanguage(req.get('accept-language')));
    if (refusal) throw refusal;
    if (error instanceof FileQuotaExceededError)
      throw new HttpError('payload_too_large', error.message);
    if (error instanceof FileStoreUnavailableError) throw fileStorageUnavailable(ctx.logger, error);
    if (isSearchIndexTooLarge(error))
      throw new HttpError(
        'payload_too_large',
        'the submission has too many distinct words to index for search; send less text',
      );
    throw error;
  });
  setSpanAttributes({ 'formward.submission_id': submission.id, 'formward.form_id': form.id });
  // After the commit: the receipt names what was stored (docs/receipts.md). The submission
  // is stored whatever happens here, so a signing failure (no key readable yet) answers
  // success without a receipt rather than an error a client would retry.
  const receipt = await ctx.receipts
    .sign({
      formId: form.id,
      submissionId: submission.id,
      receivedAt: prepared.receivedAt,
      payload: submission.payload,
    })
    .catch((error: unknown) => {
      ctx.logger.warn({ err: error, submissionId: submission.id }, 'receipt not signed');
      return null;
    });
  return {
    id: submission.id,
    receipt,
    manageUrl: manage ? manageUrl(ctx.urls.ingest, submission.id, manage.secret) : null,
    manageToken: manage ? manageToken(submission.id, manage.secret) : null,
  };
}

/**
 * The database stayed away past the retry budget: a browser gets a page that posts the same
 * fields again (read from the body now if they were not yet), anyone else the plain 503.
 */
export async function unavailableWithResend(
  req: Request,
  ctx: RouteContext,
  error: unknown,
  body?: ParsedFormBody,
): Promise<never> {
  if (!isConnectionError(error)) throw error;
  const read =
    body ??
    (await parseFormBody(req, { acceptFiles: true, spoolDir: spoolDirOf(ctx) }).catch(() => null));
  await read?.discard();
  throw new DatabaseUnavailableError({
    fields: read?.fields ?? {},
    hadFiles: (read?.files.length ?? 0) > 0,
  });
}

/** Where file parts wait while a multipart body is read. */
export const spoolDirOf = (ctx: RouteContext) => path.join(ctx.config.dataDir, 'uploads');
