import express from 'express';
import type { IngestForm } from '../../domain/forms/form-cache';
import { findFormByToken } from '../../domain/forms/forms';
import { INGEST_LIMITS } from '../../domain/submissions/limits';
import { formPageBase, servesPage } from './form-page-answers';
import { thanksPageRoute, withReceipt } from './thanks-page-api';
import { TEST_RUN_START_HOLD } from '../../domain/submissions/test-submission';
import { CAPTCHA_BEFORE_FILES, captchaGate } from './captcha-gate';
import { captchaFailed } from './ingest-refusals';
import { formUrls } from '../forms/form-urls';
import { HttpError } from '../kit/errors/http-error';
import { autocompleteScript } from './autocomplete-script';
import { answerPreflight, setIngestCors } from './cors';
import { parseFormBody } from './parse-form-body';
import { requireTestRunKey } from './test-run-key';
import { captchaWidget } from './captcha-widget';
import { link } from '../kit/answers/links';
import { defineRoute, type RouteContext } from '../kit/routing/define-route';
import { runMiddleware } from '../kit/middleware/run-middleware';
import { htmlFormSubmission, ingestQuery, jsonSubmissionBody } from './ingest-schemas';
import { parseOrThrow } from '../kit/routing/validate';
import { ingestResultSchema } from './ingest-result';
import { testDeliveriesView } from './test-deliveries';
import { accept, acceptingForm, spoolDirOf, unavailableWithResend } from './accept-submission';

const TEST_RUN_TIMEOUT_MS = 60_000;

/** Bytes of a JSON body as read, for the byte rate limit when no Content-Length came. */
const jsonBodyBytes = new WeakMap<object, number>();

const parseJson = express.json({
  limit: INGEST_LIMITS.jsonBodyBytes,
  strict: false,
  type: () => true,
  verify: (req, _res, body) => void jsonBodyBytes.set(req, body.length),
});

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
    const accepted = await accept(
      req,
      ctx,
      form,
      { fields: body.fields, files: body.files, limits: 'checked-while-reading' },
      { captcha },
    )
      .catch((error: unknown) => unavailableWithResend(req, ctx, error, body))
      .finally(() => body.discard());
    const { id, receipt, manageUrl } = accepted;
    if (req.accepts(['html', 'json']) === 'json') {
      const links = resultLinks(ctx, form, id);
      return { status: 200, body: { ok: true, id, receipt, manage_url: manageUrl, links } };
    }
    return {
      status: 302,
      // A hosted page's thank-you page stays where the page is: on the ingest host or on the
      // form's custom domain (docs/form-pages.md, docs/custom-domains.md). It offers the
      // receipt as a download (docs/receipts.md) and shows the manage link
      // (docs/manage-links.md); the owner's success_redirect_url gets neither.
      redirect:
        form.successRedirectUrl ??
        withReceipt(
          servesPage(form) || res.locals.formPageBase
            ? `${formPageBase(res, form.endpointToken)}/thanks`
            : formUrls(ctx.urls, form.endpointToken).thanksUrl,
          receipt,
          accepted.manageToken,
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
    const { id, receipt, manageUrl } = await accept(
      req,
      ctx,
      form,
      { fields: payload, files: [], limits: 'check' },
      testRun ? { captchaExempt: true, start: TEST_RUN_START_HOLD, test: true } : {},
    );
    const links = resultLinks(ctx, form, id);
    const stored = { ok: true as const, id, receipt, manage_url: manageUrl };
    if (!testRun) return { status: 200, body: { ...stored, links } };
    const result = await ctx.workflows.runAndWait(id, TEST_RUN_TIMEOUT_MS);
    const deliveries = testDeliveriesView(result.deliveries);
    return { status: 200, body: { ...stored, test: true, deliveries, links } };
  }),
  preflight('/json/{endpoint_token}', 'preflightJson', 'JSON'),
];

/** `POST /f/{endpoint_token}` and `POST /json/{endpoint_token}`: src/http/kit/routing/direct-dispatch.ts. */
export const ingestPosts = ingestRoutes.filter((route) => route.method === 'post');
