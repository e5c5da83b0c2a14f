import type { Request, Response } from 'express';
import { sameOrigin } from '../../domain/forms/allowed-domains';
import type { FormField, FormPage } from '../../domain/forms/form-fields';
import type { IngestForm } from '../../domain/forms/form-cache';
import { FieldValidationError, FormClosedAnswer, type HttpError } from '../kit/errors/http-error';
import { fieldErrorsIn } from './field-problem-text';
import { pageLanguage } from './form-page/page-text';
import { answerRefusalsWith } from '../kit/errors/refusal-page';
import { captchaWidget } from './captcha-widget';
import type { PageProblem } from './form-page/error-summary';
import { formPage } from './form-page/form-page';
import { formPageClosed } from './form-page/closed-page';
import type { PageChrome } from './form-page/page-document';
import { setFormPageHeaders } from './form-page-headers';
import { parseFormBody } from './parse-form-body';

type PageForm = Pick<IngestForm, 'page' | 'fields' | 'captcha' | 'successRedirectUrl' | 'limits'>;
export type ServedForm = PageForm & { page: FormPage; fields: FormField[] };

/** What every hosted page's footer needs of the configuration. */
export const pageChrome = (ctx: { config: { abuseContact: string | null } }): PageChrome => ({
  abuseContact: ctx.config.abuseContact,
});

/** A form is served as a page when it has both a page and a field list (docs/form-pages.md). */
export const servesPage = <F extends PageForm>(form: F): form is F & ServedForm =>
  form.page !== null && form.fields !== null;

/**
 * A form with `allowed_domains` still takes posts from its own hosted page on the ingest
 * host (docs/form-pages.md): the post's `Origin` (or `Referer`) is the ingest URL's origin.
 */
export function postedFromOwnPage(form: PageForm, req: Request, ingestUrl: string): boolean {
  return servesPage(form) && sameOrigin(req.get('origin'), req.get('referer'), ingestUrl);
}

/**
 * Where a form's page lives, as a same-origin path: `/f/{token}`, or the path host routing
 * set for a custom domain (`res.locals.formPageBase`, `/{slug}`). The page posts to it and
 * its challenge, ALTCHA script and thank-you page are under it.
 */
export function formPageBase(res: Response, token: string): string {
  const base: unknown = res.locals.formPageBase;
  return typeof base === 'string' && base.startsWith('/') ? base : `/f/${token}`;
}

/** Posted values as lists, whatever their count. */
const asLists = (fields: Record<string, string | string[]>) =>
  Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [name, Array.isArray(value) ? value : [value]]),
  );

/** The page's markup, with the values to show and the refusal to explain (if any). */
export function renderFormPage(
  form: ServedForm,
  base: string,
  shown: { values: Record<string, string[]>; problem: PageProblem | null; hadFiles: boolean },
  chrome: PageChrome,
): string {
  return formPage({
    page: form.page,
    fields: form.fields,
    base,
    captcha: captchaWidget(form.captcha ?? null, {
      challengeUrl: `${base}/challenge`,
      altchaScriptUrl: `${base}/altcha.js`,
    }),
    ...shown,
    chrome,
  });
}

/** A hosted page's post in progress: what was read of it, to show again if it is refused. */
export type PageAgain = {
  form: ServedForm;
  base: string;
  chrome: PageChrome;
  values: Record<string, string[]>;
  hadFiles: boolean;
  /** Keeps the posted fields (files are never kept) for a page shown again. */
  keep(fields: Record<string, string | string[]>, hadFiles: boolean): void;
  /** Reads the fields of a body not read yet (a refusal came first); its files go nowhere. */
  readRefusedBody(req: Request, spoolDir: string): Promise<void>;
};

/**
 * For a post to `/f/{token}` of a form with a page: from here on a refusal is answered to a
 * browser with the page again (errorHandler calls the refusal page set here:
 * answerRefusalsWith). Null for other forms.
 */
export function offerPageAgain(
  res: Response,
  form: IngestForm,
  chrome: PageChrome,
): PageAgain | null {
  if (!servesPage(form)) return null;
  const again: PageAgain = {
    form,
    chrome,
    base: formPageBase(res, form.endpointToken),
    values: {},
    hadFiles: false,
    keep(fields, hadFiles) {
      again.values = asLists(fields);
      again.hadFiles = hadFiles;
    },
    async readRefusedBody(req, spoolDir) {
      const body = await parseFormBody(req, {
        acceptFiles: true,
        spoolDir,
        beforeFiles: async () => 'drain',
      }).catch(() => null);
      if (body) again.keep(body.fields, false);
    },
  };
  answerRefusalsWith(res, (error) => formPageAgain(res, again, error));
  return again;
}

/**
 * The answer to a refused post of a hosted page, for a browser: the page again with the
 * refusal at the top, each field's message beside it and the values kept (escaped), with the
 * page's headers and `no-store` (it holds what the person typed).
 */
function formPageAgain(res: Response, again: PageAgain, error: HttpError): string {
  setFormPageHeaders(res, again.form);
  res.setHeader('Cache-Control', 'no-store');
  // A closed form (docs/form-limits.md) shows its closed message, not the form again.
  if (error.code === 'form_closed') {
    const reason = error instanceof FormClosedAnswer ? error.reason : 'closed';
    const closed = { reason, limits: again.form.limits };
    return formPageClosed(again.form.page, closed, again.chrome);
  }
  const problem: PageProblem = {
    code: error.code,
    message: error.message,
    details: error.errors ?? [],
    // Said in the page's language, whatever the request's Accept-Language asked for.
    fieldErrors:
      error instanceof FieldValidationError
        ? fieldErrorsIn(error.fieldProblems, pageLanguage(again.form.page))
        : {},
  };
  return renderFormPage(
    again.form,
    again.base,
    {
      values: again.values,
      problem,
      hadFiles: again.hadFiles,
    },
    again.chrome,
  );
}
