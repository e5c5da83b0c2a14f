import { HttpError } from '../kit/errors/http-error';
import { clientAddress } from '../kit/middleware/client-address';
import { formPageBase, pageChrome, servesPage, type ServedForm } from './form-page-answers';
import { formPageCacheOf } from './form-page-cache';
import { setFormPageHeaders } from './form-page-headers';
import { rateLimitSubject } from './rate-limit-key';
import { limitsOf } from './rate-limiter';
import { defineRoute } from '../kit/routing/define-route';
import { closedNow } from '../../domain/submissions/submission-gate';
import { formPageClosed } from './form-page/closed-page';

/** A query parameter's first value, as Express reads `?a=1&a=2`. */
const firstValue = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Array.isArray(value) ? firstValue(value[0]) : undefined;

/**
 * Hidden fields take their value from the query parameter of the same name (as Tally does):
 * `?utm_source=newsletter` fills a hidden `utm_source`. Other fields are never filled from
 * the URL.
 */
function hiddenValuesFromQuery(form: ServedForm, query: Record<string, unknown>) {
  const values: Record<string, string> = {};
  for (const field of form.fields) {
    if (field.type !== 'hidden') continue;
    const value = firstValue(query[field.name]);
    if (value !== undefined) values[field.name] = value;
  }
  return values;
}

/** `GET /f/{token}`: the form's hosted page (docs/form-pages.md). */
export const formPageRoutes = [
  defineRoute({
    method: 'get',
    path: '/f/{endpoint_token}',
    operationId: 'formPage',
    tag: 'Ingest',
    summary: "The form's hosted page",
    description:
      'For a form with both `page` and `fields` (its `page_url`): the form as an HTML page that ' +
      'works without JavaScript and posts to the same URL. A hidden field takes its value from ' +
      'the query parameter of the same name. A failed post shows the page again with each ' +
      'message beside its field; success goes to the `success_redirect_url` or to ' +
      '`/f/{endpoint_token}/thanks`, which shows the `success_message` (docs/form-pages.md). ' +
      'A form without a page answers 404 `not_found`, an inactive one 404 `not_active`. ' +
      'While a form with `limits` is closed (outside its window or past its count) the page ' +
      'shows its closed message instead of the form (docs/form-limits.md). ' +
      'Each client network (IPv4 address, IPv6 /64) may open `FORM_PAGE_RATE` pages a minute ' +
      'across forms: past it 429 `rate_limited` with `Retry-After`.',
    access: 'public',
    server: 'ingest',
    responses: { 200: { description: 'the page', content: 'text/html' } },
    errors: ['not_found', 'not_active', 'rate_limited'],
  }).handle(async ({ req, res, params }, ctx) => {
    limitsOf(ctx).countPageView(rateLimitSubject(clientAddress(req)));
    const form = await ctx.forms.byToken(() => req.em, params.endpoint_token);
    if (!form) throw new HttpError('not_found', 'no form has this endpoint token');
    if (!servesPage(form)) throw new HttpError('not_found', 'this form has no page');
    if (!form.isActive) throw new HttpError('not_active', 'this form is not accepting submissions');
    setFormPageHeaders(res, form);
    const closed = await closedNow(req.em, form, Date.now());
    if (closed) {
      const html = formPageClosed(
        form.page,
        { reason: closed.reason, limits: form.limits },
        pageChrome(ctx),
      );
      return { status: 200, content: html, headers: { 'Cache-Control': 'no-cache' } };
    }
    const html = formPageCacheOf(ctx).page(
      form,
      formPageBase(res, form.endpointToken),
      hiddenValuesFromQuery(form, req.query),
      pageChrome(ctx),
    );
    // Changes to the form show at once; the page itself holds nothing private.
    return { status: 200, content: html, headers: { 'Cache-Control': 'no-cache' } };
  }),
];
