import path from 'node:path';
import express, { type Request, type Response } from 'express';
import { formPostingDomains, originAllowed } from '../../domain/forms/allowed-domains';
import type { IngestForm } from '../../domain/forms/form-cache';
import { findFormByToken } from '../../domain/forms/forms';
import { FileStoreUnavailableError } from '../../domain/files/file-store';
import { FileQuotaExceededError } from '../../domain/submissions/file-quota';
import { INGEST_LIMITS } from '../../domain/submissions/limits';
import {
  isConnectionError,
  isSearchIndexTooLarge,
  retryOnConnectionError,
} from '../../domain/database-errors';
import { DatabaseUnavailableError, prefersHtml } from '../kit/middleware/errors';
import {
  formPageBase,
  offerPageAgain,
  pageChrome,
  postedFromOwnPage,
  servesPage,
  type PageAgain,
} from './form-page-answers';
import { thanksPageRoute, withReceipt } from './thanks-page-api';
import {
  checkSubmission,
  prepareSubmission,
  type SubmissionToCheck,
} from '../../domain/submissions/prepare-submission';
import { storeSubmission, type StartHold } from '../../domain/submissions/store-submission';
import { setSpanAttributes } from '../../tracing/trace-hooks';
import { TEST_RUN_START_HOLD } from '../../domain/submissions/test-submission';
import { CAPTCHA_BEFORE_FILES, captchaGate, type CaptchaGate } from './captcha-gate';
import { captchaFailed, formClosed, gateRefusal } from './ingest-refusals';
import { outsideWindow } from '../../domain/submissions/submission-gate';
import { fileStorageUnavailable } from '../kit/errors/file-storage-unavailable';
import { formUrls } from '../forms/form-urls';
import { HttpError } from '../kit/errors/http-error';
import { autocompleteScript } from './autocomplete-script';
import { clientAddress } from '../kit/middleware/client-address';
import { submissionRefused } from './ingest-refusals';
import { negotiateLanguage } from '../../i18n/accept-language';
import { answerPreflight, setIngestCors } from './cors';
import { parseFormBody, type ParsedFormBody } from './parse-form-body';
import { rateLimitSubject } from './rate-limit-key';
import { requireTestRunKey } from './test-run-key';
import { limitsOf } from './rate-limiter';
import { captchaWidget } from './captcha-widget';
import { link } from '../kit/answers/links';
import { defineRoute, type RouteContext } from '../kit/routing/define-route';
import { runMiddleware } from '../kit/middleware/run-middleware';
import { htmlFormSubmission, ingestQuery, jsonSubmissionBody } from './ingest-schemas';
import { parseOrThrow } from '../kit/routing/validate';
import { ingestResultSchema } from './ingest-result';
import { testDeliveriesView } from './test-deliveries';

const TEST_RUN_TIMEOUT_MS = 60_000;

/** Bytes of a JSON body as read, for the byte rate limit when no Content-Length came. */
const jsonBodyBytes = new WeakMap<object, number>();

const parseJson = express.json({
  limit: INGEST_LIMITS.jsonBodyBytes,
  strict: false,
  type: () => true,
  verify: (req, _res, body) => void jsonBodyBytes.set(req, body.length),
});

/**
 * Form checks shared by both endpoints, in the order a caller can fix them, and the rate
 * limits; `meterBody` counts a body without Content-Length while it is read.
 */
async function acceptingForm(
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
 * prepareSubmission) and stores the submission, committed before we answer; returns its id
 * and its signed receipt.
 */
async function accept(
  req: Request,
  ctx: RouteContext,
  form: IngestForm,
  body: Pick<SubmissionToCheck, 'fields' | 'files' | 'limits'>,
  options: { captchaExempt?: boolean; start?: StartHold; captcha?: CaptchaGate } = {},
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
  const submission = await storeSubmission(
    () => req.em,
    prepared,
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
    const refusal = gateRefusal(error);
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
  return { id: submission.id, receipt };
}

/**
 * The database stayed away past the retry budget: a browser gets a page that posts the same
 * fields again (read from the body now if they were not yet), anyone else the plain 503.
 */
async function unavailableWithResend(
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
const spoolDirOf = (ctx: RouteContext) => path.join(ctx.config.dataDir, 'uploads');

const resultLinks = (ctx: RouteContext, form: IngestForm, submissionId: string) => [
  link('submission', `${ctx.urls.base}/api/submissions/${submissionId}`),
  link('form', `${ctx.urls.base}/api/forms/${form.id}`),
];

const FORM_MEDIA_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];
const INGEST_ERRORS = [
  'validation_failed',
  'invalid_payload',
  'domain_not_allowed',
  'not_found',
  'not_active',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'captcha_failed',
  'form_closed',
  'already_submitted',
] as const;

const preflight = <P extends string>(path: P, operationId: string, what: string) =>
  defineRoute({
    method: 'options',
    path,
    operationId,
    tag: 'Ingest',
    summary: `CORS preflight for posting ${what} from a script`,
    access: 'public',
    server: 'ingest',
    responses: { 204: { description: 'the CORS headers for this origin' } },
    errors: [],
  }).handle(({ req, res }) => {
    answerPreflight(req, res);
    return { status: 204 };
  });

/** `/f/{token}` (HTML forms) and `/json/{token}` (JSON clients): no authentication. */
export const ingestRoutes = [
  defineRoute({
    method: 'post',
    path: '/f/{endpoint_token}',
    operationId: 'submitForm',
    tag: 'Ingest',
    summary: 'Post an HTML form',
    description:
      'The `action` of an HTML form. Browsers are redirected (302) to the thank-you page or ' +
      "to the form's `success_redirect_url`; a client whose `Accept` prefers JSON gets the " +
      'IngestResult instead. A filled `_hp` stores the submission as spam and answers exactly ' +
      'like success. Errors are an HTML page for browsers and JSON otherwise; a form body ' +
      'that cannot be read at all is 400 `validation_failed`. A form with a `captcha` needs ' +
      "its widget's field (422 `captcha_failed` without a passing one; docs/captcha.md). " +
      'A closed form with `limits` is 403 `form_closed`, a repeated unique value 409 ' +
      '`already_submitted` (docs/form-limits.md).',
    audit: { exempt: 'ingest of a submission by the public, not an account change' },
    access: 'public',
    server: 'ingest',
    body: {
      schema: htmlFormSubmission,
      mediaTypes: FORM_MEDIA_TYPES,
      required: true,
      readByHandler: true,
    },
    responses: {
      302: {
        description: 'stored; go to the thank-you page or the success_redirect_url',
        redirect: true,
        headers: { Location: 'the thank-you page or success_redirect_url' },
      },
      200: {
        description: 'stored (when `Accept` prefers application/json)',
        body: ingestResultSchema,
      },
    },
    errors: [...INGEST_ERRORS, 'validation_failed@400'],
    htmlErrors: true,
    onRequest: setIngestCors,
  }).handle(async ({ req, res }, ctx) => {
    const { form, meterBody, pageAgain } = await acceptingForm(req, ctx, res).catch(
      (error: unknown) => unavailableWithResend(req, ctx, error),
    );
    if (!req.is(FORM_MEDIA_TYPES)) {
      throw new HttpError(
        'unsupported_media_type',
        'post the form as application/x-www-form-urlencoded or multipart/form-data',
      );
    }
    // With a CAPTCHA, no file is written before it passed (docs/captcha.md).
    const captcha = captchaGate(req, ctx, form, false);
    const body = await parseFormBody(req, {
      acceptFiles: form.acceptFiles,
      spoolDir: spoolDirOf(ctx),
      onReceived: meterBody,
      ...(form.captcha && form.acceptFiles
        ? {
            beforeFiles: (fields) => {
              pageAgain?.keep(fields, false); // a refusal here loses the fields otherwise
              return captcha.beforeFiles(fields);
            },
            beforeFilesRefusal: () => captchaFailed(CAPTCHA_BEFORE_FILES),
          }
        : {}),
    });
    pageAgain?.keep(body.fields, body.files.length > 0);
    const { id, receipt } = await accept(
      req,
      ctx,
      form,
      { fields: body.fields, files: body.files, limits: 'checked-while-reading' },
      { captcha },
    )
      .catch((error: unknown) => unavailableWithResend(req, ctx, error, body))
      .finally(() => body.discard());
    if (req.accepts(['html', 'json']) === 'json')
      return { status: 200, body: { ok: true, id, receipt, links: resultLinks(ctx, form, id) } };
    return {
      status: 302,
      // A hosted page's thank-you page stays where the page is: on the ingest host or on the
      // form's custom domain (docs/form-pages.md, docs/custom-domains.md). It offers the
      // receipt as a download (docs/receipts.md); the owner's success_redirect_url gets none.
      redirect:
        form.successRedirectUrl ??
        withReceipt(
          servesPage(form) || res.locals.formPageBase
            ? `${formPageBase(res, form.endpointToken)}/thanks`
            : formUrls(ctx.urls, form.endpointToken).thanksUrl,
          receipt,
        ),
    };
  }),
  preflight('/f/{endpoint_token}', 'preflightForm', 'a form'),
  thanksPageRoute,
  defineRoute({
    method: 'get',
    path: '/f/{endpoint_token}/autocomplete.js',
    operationId: 'autocompleteScript',
    tag: 'Ingest',
    summary: "The form's helper script",
    access: 'public',
    server: 'ingest',
    responses: {
      200: {
        description: 'JavaScript, cacheable for 5 minutes',
        content: 'application/javascript',
      },
    },
    errors: ['not_found'],
  }).handle(async ({ req, params }, ctx) => {
    const form = await findFormByToken(req.em, params.endpoint_token);
    if (!form) throw new HttpError('not_found', 'no form has this endpoint token');
    const urls = formUrls(ctx.urls, form.endpointToken);
    const widget = captchaWidget(form.captcha ?? null, urls);
    return {
      status: 200,
      content: autocompleteScript(form.endpointToken, urls.submissionUrl, widget),
      headers: { 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' },
    };
  }),
  defineRoute({
    method: 'post',
    path: '/json/{endpoint_token}',
    operationId: 'submitJson',
    tag: 'Ingest',
    summary: 'Post a submission as JSON',
    description:
      'One JSON object of fields (an array or scalar is refused with 422). With `?test=true` ' +
      "the form's plugin deliveries run once, synchronously, and `deliveries` reports each; " +
      "it needs `Authorization: Bearer <API_KEY>` with a key of the form's account that has " +
      '`can_create_forms` (401 without a valid key, 403 without the scope), and no CAPTCHA. ' +
      "A form with a `captcha` otherwise needs its widget's field (422 `captcha_failed`). " +
      "A refusal by the form's `fields` is 422 `validation_failed` with English `errors` and " +
      "`field_errors` by field name, in the supported language the request's `Accept-Language` " +
      'asks for (English without one; docs/languages.md). ' +
      'A closed form with `limits` is 403 `form_closed`, a repeated unique value 409 ' +
      '`already_submitted` (docs/form-limits.md).',
    audit: { exempt: 'ingest of a submission by the public, not an account change' },
    access: 'public',
    server: 'ingest',
    query: ingestQuery,
    body: {
      schema: jsonSubmissionBody,
      mediaTypes: ['application/json'],
      required: true,
      readByHandler: true,
    },
    responses: { 200: { description: 'stored', body: ingestResultSchema } },
    errors: [...INGEST_ERRORS, 'invalid_json', 'unauthorized', 'invalid_api_key', 'forbidden'],
    onRequest: setIngestCors,
  }).handle(async ({ req, res, query }, ctx) => {
    const { form, meterBody } = await acceptingForm(req, ctx);
    if (query.test === 'true') await requireTestRunKey(req, form);
    if (!req.is(['application/json', 'application/*+json'])) {
      throw new HttpError('unsupported_media_type', 'post the submission as application/json');
    }
    await runMiddleware(parseJson, req, res);
    meterBody?.(jsonBodyBytes.get(req) ?? 0);
    const payload = parseOrThrow(
      jsonSubmissionBody,
      Array.isArray(req.body) ? null : (req.body ?? null),
      'body',
    );
    const testRun = query.test === 'true';
    // A test run by the owner's key (checked above) needs no CAPTCHA.
    const { id, receipt } = await accept(
      req,
      ctx,
      form,
      { fields: payload, files: [], limits: 'check' },
      testRun ? { captchaExempt: true, start: TEST_RUN_START_HOLD } : {},
    );
    const links = resultLinks(ctx, form, id);
    if (!testRun) return { status: 200, body: { ok: true, id, receipt, links } };
    const result = await ctx.workflows.runAndWait(id, TEST_RUN_TIMEOUT_MS);
    const deliveries = testDeliveriesView(result.deliveries);
    return { status: 200, body: { ok: true, id, receipt, test: true, deliveries, links } };
  }),
  preflight('/json/{endpoint_token}', 'preflightJson', 'JSON'),
];

/** `POST /f/{endpoint_token}` and `POST /json/{endpoint_token}`: src/http/kit/routing/direct-dispatch.ts. */
export const ingestPosts = ingestRoutes.filter((route) => route.method === 'post');
