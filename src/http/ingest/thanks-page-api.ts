import { z } from 'zod';
import { HttpError } from '../kit/errors/http-error';
import { setNoStore } from '../kit/middleware/no-store';
import { formPageBase, pageChrome } from './form-page-answers';
import { setFormPageHeaders } from './form-page-headers';
import { thanksPage } from './thanks-page';
import { defineRoute, type RouteContext } from '../kit/routing/define-route';
import { formPageThanks } from './form-page/thanks-page';
import type { OfferedReceipt } from './receipt-download';
import { clientAddress } from '../kit/middleware/client-address';
import { rateLimitSubject } from './rate-limit-key';
import { limitsOf } from './rate-limiter';

/** A compact JWS of ours is some 400 characters; anything much longer is not one. */
const RECEIPT_MAX_CHARS = 2048;

/** The thank-you page's URL carrying the submission's receipt (docs/receipts.md). */
export function withReceipt(thanksUrl: string, receipt: string | null): string {
  return receipt ? `${thanksUrl}?receipt=${encodeURIComponent(receipt)}` : thanksUrl;
}

/** The receipt of the query when this instance signed it for this form; else none is offered. */
async function offeredReceipt(
  ctx: RouteContext,
  formId: string,
  receipt: string | undefined,
): Promise<OfferedReceipt | null> {
  if (!receipt || receipt.length > RECEIPT_MAX_CHARS) return null;
  const claims = await ctx.receipts.verify(receipt);
  if (!claims || claims.form_id !== formId) return null;
  return { submissionId: claims.submission_id, receipt };
}

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
    '(docs/form-pages.md); otherwise a default page naming the form. With the `receipt` ' +
    'the post redirected with, the page offers it as a download (docs/receipts.md). It counts ' +
    'as a page under `FORM_PAGE_RATE` (past it 429 `rate_limited`).',
  access: 'public',
  server: 'ingest',
  query: z.object({
    receipt: z
      .string()
      .optional()
      .describe(
        "the submission's receipt; offered only when this instance signed it for this form",
      ),
  }),
  responses: { 200: { description: 'the page', content: 'text/html' } },
  errors: ['not_found', 'rate_limited'],
}).handle(async ({ req, res, params, query }, ctx) => {
  // Each GET may verify a receipt: counted with the form pages, and the form read from the cache.
  limitsOf(ctx).countPageView(rateLimitSubject(clientAddress(req)));
  const form = await ctx.forms.byToken(() => req.em, params.endpoint_token);
  if (!form) throw new HttpError('not_found', 'no form has this endpoint token');
  const receipt = await offeredReceipt(ctx, form.id, query.receipt);
  // A page carrying one submitter's receipt stays out of shared caches.
  if (receipt) setNoStore(res);
  if (form.page && form.fields) {
    setFormPageHeaders(res, { captcha: null, successRedirectUrl: null });
    const base = formPageBase(res, form.endpointToken);
    return { status: 200, content: formPageThanks(form.page, base, pageChrome(ctx), receipt) };
  }
  return { status: 200, content: thanksPage(form.name, req.get('referer') ?? null, receipt) };
});
