import { z } from 'zod';
import { editOpen } from '../../domain/manage/submission-edits';
import { defineRoute } from '../kit/routing/define-route';
import { pageChrome } from '../ingest/form-page-answers';
import { editPage, storedValues } from './manage-edit-page';
import {
  basePathOf,
  editClosed,
  openLinkOrNotFound,
  setManageHeaders,
  wantsPage,
} from './manage-request';
import { translate } from '../../i18n/catalogue';
import { pageLanguage } from '../ingest/form-page/page-text';
import {
  managedSubmissionPage,
  managedSubmissionSchema,
  managedSubmissionView,
  managePageOf,
} from './manage-view';

const LINK_DESCRIPTION =
  'A wrong secret, an unknown or deleted submission, a spam one, or a form whose ' +
  '`submitter_access` is `none`: all 404 `not_found`, alike. Each client network (IPv4 ' +
  'address, IPv6 /64) may make `MANAGE_LINK_RATE` requests a minute to manage links: past ' +
  'it 429 `rate_limited` with `Retry-After`. Answers are `no-store`, `Referrer-Policy: ' +
  'no-referrer` and `X-Robots-Tag: noindex` (docs/manage-links.md).';

/** `GET /s/{id}/{secret}` and its edit page: the submitter's manage link (docs/manage-links.md). */
export const manageRoutes = [
  defineRoute({
    method: 'get',
    path: '/s/{submission_id}/{secret}',
    operationId: 'manageSubmission',
    tag: 'Ingest',
    summary: 'What a manage link shows',
    description:
      "The submission as stored, for the person who sent it (the link of the IngestResult's " +
      '`manage_url`): a page, or JSON with `Accept: application/json`, saying whether it may ' +
      'still be changed or deleted. ' +
      LINK_DESCRIPTION,
    access: 'public',
    server: 'ingest',
    query: z.object({
      saved: z.literal('1').optional().describe('`1`: the page says the changes were saved'),
    }),
    responses: {
      200: {
        description: 'the submission (a page for browsers)',
        body: managedSubmissionSchema,
        page: 'text/html',
      },
    },
    errors: ['not_found', 'rate_limited'],
    htmlErrors: true,
    onRequest: (_req, res) => setManageHeaders(res),
  }).handle(async ({ req, res, params, query }, ctx) => {
    const opened = await openLinkOrNotFound(req, res, ctx, params);
    if (!wantsPage(req)) return { status: 200, body: managedSubmissionView(opened) };
    const language = pageLanguage(managePageOf(opened.row));
    const notice = query.saved ? translate(language, 'manage.edit_saved') : null;
    const html = managedSubmissionPage(opened, basePathOf(params), pageChrome(ctx), notice);
    return { status: 200, content: html };
  }),
  defineRoute({
    method: 'get',
    path: '/s/{submission_id}/{secret}/edit',
    operationId: 'manageSubmissionEditPage',
    tag: 'Ingest',
    summary: 'The page to change a submission',
    description:
      "The form's hosted page filled with the stored values, posting to the link (its file " +
      'fields left out: files cannot be changed). A form whose `submitter_access` is not ' +
      '`edit` or `edit_delete`, or past its `edit_until` or `limits.closes_at`: 403 ' +
      '`edit_closed`, a page saying so. ' +
      LINK_DESCRIPTION,
    access: 'public',
    server: 'ingest',
    responses: { 200: { description: 'the page', content: 'text/html' } },
    errors: ['not_found', 'edit_closed', 'rate_limited'],
    htmlErrors: true,
    onRequest: (_req, res) => setManageHeaders(res),
  }).handle(async ({ req, res, params }, ctx) => {
    const opened = await openLinkOrNotFound(req, res, ctx, params);
    if (!editOpen(opened)) throw editClosed();
    const values = storedValues(opened.row.payload_json);
    const html = editPage(opened, basePathOf(params), pageChrome(ctx), { values, problem: null });
    return { status: 200, content: html };
  }),
];
