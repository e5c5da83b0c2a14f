import path from 'node:path';
import express, { type Request, type Response } from 'express';
import type { FormPage } from '../../domain/forms/form-fields';
import { openManageLink, type ManagedSubmission } from '../../domain/manage/managed-submission';
import { INGEST_LIMITS } from '../../domain/submissions/limits';
import type { RequestFacts } from '../../domain/submissions/prepare-submission';
import { HttpError } from '../kit/errors/http-error';
import { answerRefusalsWith } from '../kit/errors/refusal-page';
import { clientAddress } from '../kit/middleware/client-address';
import { runMiddleware } from '../kit/middleware/run-middleware';
import type { RouteContext } from '../kit/routing/define-route';
import { parseOrThrow } from '../kit/routing/validate';
import { pageChrome } from '../ingest/form-page-answers';
import type { PageChrome } from '../ingest/form-page/page-document';
import { setFormPageHeaders } from '../ingest/form-page-headers';
import { jsonSubmissionBody } from '../ingest/ingest-schemas';
import { parseFormBody } from '../ingest/parse-form-body';
import { rateLimitSubject } from '../ingest/rate-limit-key';
import { limitsOf } from '../ingest/rate-limiter';
import { setManageLinkHeaders } from './offered-manage-link';
import { translate } from '../../i18n/catalogue';
import { DEFAULT_LANGUAGE } from '../../i18n/languages';
import { pageLanguage } from '../ingest/form-page/page-text';
import { managePageOf, manageMessagePage } from './manage-view';

// What every manage-link route (manage-api.ts, manage-changes-api.ts) does first: its
// headers, the rate limit, the link opened (or one 404 for every reason), and its pages for
// refusals (docs/manage-links.md).

export type LinkParams = { submission_id: string; secret: string };

export const linkOf = (params: LinkParams) => ({
  submissionId: params.submission_id,
  secret: params.secret,
});

/** The link's own path, same-origin: its pages link and post under it. */
export const basePathOf = (params: LinkParams) => `/s/${params.submission_id}/${params.secret}`;

/** One answer for a wrong secret, an unknown id, spam, access `none` and a deleted row. */
export const linkNotFound = () =>
  new HttpError('not_found', 'this link opens nothing: it is wrong, or its submission is gone');

export const editClosed = () =>
  new HttpError(
    'edit_closed',
    'this submission can no longer be changed: its time to change it has passed, the form has closed, or the form does not allow it',
  );

/**
 * A neutral page for answers before the submission's form is known (a 404): English, as no
 * form says which language to speak.
 */
const PLAIN_PAGE: FormPage = {
  title: translate(DEFAULT_LANGUAGE, 'manage.not_found_title'),
  description: null,
  submit_label: translate(DEFAULT_LANGUAGE, 'manage.edit_submit'),
  success_message: translate(DEFAULT_LANGUAGE, 'manage.edit_saved'),
  accent_color: null,
};

/**
 * A refused manage-link request as a page in the page's language: closed, not found, or the
 * refusal's (English) words.
 */
export const refusalPage = (page: FormPage, chrome: PageChrome) => (error: HttpError) => {
  const language = pageLanguage(page);
  if (error.code === 'edit_closed')
    return manageMessagePage(
      page,
      translate(language, 'manage.edit_closed_title'),
      translate(language, 'manage.edit_closed_body'),
      chrome,
    );
  if (error.code === 'not_found')
    return manageMessagePage(
      page,
      translate(language, 'manage.not_found_title'),
      translate(language, 'manage.not_found_body'),
      chrome,
    );
  return manageMessagePage(page, error.message, (error.errors ?? []).join(' '), chrome);
};

/** The headers of every manage-link answer: the hosted page's CSP, no-store, no referrer. */
export function setManageHeaders(res: Response): void {
  setFormPageHeaders(res, { captcha: null, successRedirectUrl: null });
  setManageLinkHeaders(res);
}

/**
 * Counts the request against MANAGE_LINK_RATE, sets the refusal pages a browser gets, and
 * opens the link: 404 `not_found` when it opens nothing.
 */
export async function openLinkOrNotFound(
  req: Request,
  res: Response,
  ctx: RouteContext,
  params: LinkParams,
): Promise<ManagedSubmission> {
  const chrome = pageChrome(ctx);
  answerRefusalsWith(res, refusalPage(PLAIN_PAGE, chrome));
  limitsOf(ctx).countManageLink(rateLimitSubject(clientAddress(req)));
  const opened = await openManageLink(req.em, linkOf(params), Date.now());
  if (!opened) throw linkNotFound();
  // From here on the refusal pages wear the form's page.
  answerRefusalsWith(res, refusalPage(managePageOf(opened.row), chrome));
  return opened;
}

/** A browser (HTML) rather than a script (JSON), as `Accept` says. */
export const wantsPage = (req: Request) => req.accepts(['html', 'json']) === 'html';

const parseJson = express.json({
  limit: INGEST_LIMITS.jsonBodyBytes,
  strict: false,
  type: () => true,
});

export const FORM_MEDIA_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/**
 * An edit's fields, read as ingest reads them: a form body (no files) or one JSON object,
 * counted against the client's byte budget (INGEST_RATE_LIMIT_BYTES).
 */
export async function readEditBody(
  req: Request,
  res: Response,
  ctx: RouteContext,
): Promise<{ fields: Record<string, unknown>; limits: 'check' | 'checked-while-reading' }> {
  const meter = limitsOf(ctx).countBody(req, rateLimitSubject(clientAddress(req)));
  if (req.is(FORM_MEDIA_TYPES)) {
    const spoolDir = path.join(ctx.config.dataDir, 'uploads');
    const body = await parseFormBody(req, { acceptFiles: false, spoolDir, onReceived: meter });
    await body.discard();
    return { fields: body.fields, limits: 'checked-while-reading' };
  }
  if (req.is(['application/json', 'application/*+json'])) {
    await runMiddleware(parseJson, req, res);
    const body: unknown = req.body;
    const fields = parseOrThrow(
      jsonSubmissionBody,
      Array.isArray(body) ? null : (body ?? null),
      'body',
    );
    return { fields, limits: 'check' };
  }
  throw new HttpError(
    'unsupported_media_type',
    'post the changes as application/x-www-form-urlencoded, multipart/form-data or application/json',
  );
}

/** What the rules know of the request besides its fields. */
export const requestFactsOf = (req: Request): RequestFacts => ({
  receivedAtMs: Date.now(),
  sourceIp: clientAddress(req),
  userAgent: req.get('user-agent') ?? null,
  referrer: req.get('referer') ?? null,
});
