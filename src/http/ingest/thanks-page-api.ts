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
import { offeredManageUrl, setManageLinkHeaders } from '../manage/offered-manage-link';

/** A compact JWS of ours is some 400 characters; anything much longer is not one. */
const RECEIPT_MAX_CHARS = 2048;

/**
 * The thank-you page's URL carrying the submission's receipt (docs/receipts.md) and its
 * manage link's token (docs/manage-links.md), when it has them.
 */
export function withReceipt(
  thanksUrl: string,
  receipt: string | null,
  manageToken: string | null = null,
): string {
  const query = new URLSearchParams();
  if (receipt) query.set('receipt', receipt);
  if (manageToken) query.set('manage', manageToken);
  const search = query.toString();
  return search ? `${thanksUrl}?${search}` : thanksUrl;
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
    'the post redirected with, the page offers it as a download (docs/receipts.md); with ' +
    'its `manage` token, it shows the manage link (docs/manage-links.md), `no-store` and ' +
    '`Referrer-Policy: no-referrer`. It counts as a page under `FORM_PAGE_RATE` (past it 429 ' +
    '`rate_limited`).',
  access: 'public',
  server: 'ingest',
  query: z.object({
    receipt: z
      .string()
      .optional()
      .describe(
        "the submission's receipt; offered only when this instance signed it for this form",
      ),
    manage: z
      .string()
      .optional()
      .describe(
        "the submission's manage link as `{submission_id}.{secret}`; shown only when it opens a submission of this form",
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
  const manageUrl = await offeredManageUrl(req.em, ctx.urls.ingest, form.id, query.manage);
  // A page carrying one submitter's receipt stays out of shared caches.
  if (receipt) setNoStore(res);
  if (form.page && form.fields) {
    setFormPageHeaders(res, { captcha: null, successRedirectUrl: null });
    // After the page's headers: its address holds the link's secret, which no referrer takes.
    if (manageUrl) setManageLinkHeaders(res);
    const base = formPageBase(res, form.endpointToken);
    const html = formPageThanks(form.page, base, pageChrome(ctx), receipt, manageUrl);
    return { status: 200, content: html };
  }
  if (manageUrl) setManageLinkHeaders(res);
  const back = req.get('referer') ?? null;
  return { status: 200, content: thanksPage(form.name, back, receipt, manageUrl) };
});
