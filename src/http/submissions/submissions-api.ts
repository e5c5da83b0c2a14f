import type { Request } from 'express';
import type { Principal } from '../../domain/accounts/principal';
import { FileStoreUnavailableError, StoredFileMissingError } from '../../domain/files/file-store';
import { findAccountForm } from '../../domain/forms/forms';
import { findSubmissionFile } from '../../domain/submissions/submission-queries';
import { envelope, listAnswer } from '../kit/answers/envelope';
import { encodeCursor } from '../kit/answers/list-cursor';
import { submissionListPage } from './submission-list';
import { fileStorageUnavailable } from '../kit/errors/file-storage-unavailable';
import { notFound } from '../kit/errors/http-error';
import { MAX_PER_PAGE, pageMetaAndLinks, toPage } from '../kit/answers/pagination';
import { defineRoute, type RouteContext } from '../kit/routing/define-route';
import { LIST_HEADERS } from '../kit/answers/headers';
import { submissionListQuery, type SubmissionListQuery } from './submissions-schemas';
import { findReadableSubmission } from './submission-access';
import { submissionEnvelope, submissionListEnvelope, submissionView } from './submission-view';

async function listPage(
  input: { req: Request; query: SubmissionListQuery; principal: Principal },
  ctx: RouteContext,
  spam: boolean,
) {
  const { req, query, principal } = input;
  let formId: string | undefined;
  if (query.form_id && query.form_id !== 'all') {
    const form = await findAccountForm(req.em, principal.accountId, query.form_id);
    if (!form) throw notFound('form');
    formId = form.id;
  }
  const { cursor } = query;
  const maxBytes = ctx.config.listMaxBytes;
  const { rows, total, cut, page, next } = await submissionListPage(
    req.em,
    { accountId: principal.accountId, spam, formId, q: query.q || undefined, range: query.range },
    { page: toPage(query), cursor },
    maxBytes,
  );
  const params = new URLSearchParams();
  if (query.form_id) params.set('form_id', query.form_id);
  if (query.q) params.set('q', query.q);
  params.set('range', query.range);
  const path = spam ? '/api/submissions/spam' : '/api/submissions';
  // Once a page is cut, or the request came with a cursor, the list goes on by keyset.
  const keyset =
    cursor || cut
      ? {
          self: cursor && encodeCursor(cursor),
          next,
          ...(cut && { maxBytes }),
        }
      : undefined;
  const list = pageMetaAndLinks(`${ctx.urls.base}${path}`, params, page, total, keyset);
  const views = rows.map((row) => submissionView(row, ctx.urls, principal));
  return listAnswer('submissions', views, list);
}

const listRoute = (spam: boolean) =>
  defineRoute({
    method: 'get',
    path: spam ? '/api/submissions/spam' : '/api/submissions',
    operationId: spam ? 'listSpamSubmissions' : 'listSubmissions',
    tag: 'Submissions',
    summary: spam ? 'List spam submissions' : 'List submissions',
    description:
      `${spam ? 'Spam' : 'Non-spam'} submissions of the account, newest first, one page at a ` +
      `time (at most ${MAX_PER_PAGE} a page). \`range\` defaults to \`24h\`; \`all\` removes the ` +
      "time limit. A page is also cut short where its items would pass the answer's byte " +
      'budget (`LIST_MAX_BYTES`; `meta.truncated`, `meta.max_bytes`); its `next` link then ' +
      'carries a `cursor` that continues right after the last item returned.',
    access: spam ? 'can_read_spam_submissions' : 'can_read_submissions',
    query: submissionListQuery,
    responses: {
      200: {
        description: 'one page of submissions',
        body: submissionListEnvelope,
        headers: LIST_HEADERS,
      },
    },
    errors: ['not_found'],
  }).handle((input, ctx) => listPage(input, ctx, spam));

/** `/api/submissions`: the non-spam and spam lists, one submission, and its uploaded files. */
export const submissionRoutes = [
  listRoute(false),
  listRoute(true),
  defineRoute({
    method: 'get',
    path: '/api/submissions/{id}',
    operationId: 'getSubmission',
    tag: 'Submissions',
    summary: 'Read a submission',
    description:
      'The full submission. A spam submission is 404 to keys without ' +
      '`can_read_spam_submissions`.',
    access: 'can_read_submissions',
    responses: { 200: { description: 'the submission', body: submissionEnvelope } },
    errors: ['not_found'],
  }).handle(async ({ req, params, principal }, ctx) => {
    const view = submissionView(await findReadableSubmission(req, params.id), ctx.urls, principal);
    return { status: 200, body: envelope('submission', view, view.links) };
  }),
  defineRoute({
    method: 'get',
    path: '/api/submissions/{id}/files/{file_id}',
    operationId: 'downloadSubmissionFile',
    tag: 'Submissions',
    summary: 'Download an uploaded file',
    description: 'The bytes as uploaded, as an attachment with the original file name.',
    access: 'can_read_submissions',
    responses: {
      200: {
        description: 'the file',
        content: '*/*',
        headers: { 'Content-Disposition': 'attachment; filename="…"' },
      },
    },
    errors: ['not_found'],
  }).handle(async ({ req, res, params }, ctx) => {
    const row = await findReadableSubmission(req, params.id);
    if (!/^\d{1,18}$/.test(params.file_id)) throw notFound('file');
    const file = await findSubmissionFile(req.em, row.id, params.file_id);
    if (!file) throw notFound('file');
    const content = await ctx.fileStore
      .open(req.em, { id: file.id, storageKey: file.storageKey ?? null })
      .catch((error: unknown) => {
        if (error instanceof StoredFileMissingError) throw notFound('file');
        if (error instanceof FileStoreUnavailableError)
          throw fileStorageUnavailable(ctx.logger, error);
        throw error;
      });
    // attachment() guesses a type from the file name, so the stored type is set after it.
    res.attachment(file.filename);
    return {
      status: 200,
      content,
      headers: {
        'Content-Type': file.contentType,
        'Content-Length': String(file.size),
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
      },
    };
  }),
];
