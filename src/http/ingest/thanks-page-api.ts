import { findFormByToken } from '../../domain/forms/forms';
import { HttpError } from '../kit/errors/http-error';
import { formPageBase, pageChrome } from './form-page-answers';
import { setFormPageHeaders } from './form-page-headers';
import { thanksPage } from './thanks-page';
import { defineRoute } from '../kit/routing/define-route';
import { formPageThanks } from './form-page/thanks-page';

/** `GET /f/{token}/thanks`, one of the ingest routes (src/http/ingest/ingest-api.ts). */
export const thanksPageRoute = defineRoute({
  method: 'get',
  path: '/f/{endpoint_token}/thanks',
  operationId: 'thanksPage',
  tag: 'Ingest',
  summary: 'The thank-you page',
  description:
    'Where browsers land after posting when the form has no `success_redirect_url`: for a ' +
    "form with a hosted page, the page's `success_message` in the page's style " +
    '(docs/form-pages.md); otherwise a default page naming the form.',
  access: 'public',
  server: 'ingest',
  responses: { 200: { description: 'the page', content: 'text/html' } },
  errors: ['not_found'],
}).handle(async ({ req, res, params }, ctx) => {
  const form = await findFormByToken(req.em, params.endpoint_token);
  if (!form) throw new HttpError('not_found', 'no form has this endpoint token');
  if (form.page && form.fields) {
    setFormPageHeaders(res, { captcha: null, successRedirectUrl: null });
    const base = formPageBase(res, form.endpointToken);
    return { status: 200, content: formPageThanks(form.page, base, pageChrome(ctx)) };
  }
  return { status: 200, content: thanksPage(form.name, req.get('referer') ?? null) };
});
