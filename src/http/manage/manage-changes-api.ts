import { z } from 'zod';
import { openManageLink } from '../../domain/manage/managed-submission';
import { checkEdit, editOpen, saveEdit } from '../../domain/manage/submission-edits';
import { deleteBySubmitter, deleteOpen } from '../../domain/manage/submitter-deletion';
import { FieldValidationError, HttpError } from '../kit/errors/http-error';
import { answerRefusalsWith } from '../kit/errors/refusal-page';
import { clientAddress } from '../kit/middleware/client-address';
import { defineRoute } from '../kit/routing/define-route';
import { pageChrome } from '../ingest/form-page-answers';
import { fieldErrorsIn } from '../ingest/field-problem-text';
import { gateRefusal, submissionRefused } from '../ingest/ingest-refusals';
import { jsonSubmissionBody } from '../ingest/ingest-schemas';
import { editPage } from './manage-edit-page';
import {
  basePathOf,
  editClosed,
  FORM_MEDIA_TYPES,
  linkNotFound,
  linkOf,
  openLinkOrNotFound,
  readEditBody,
  refusalPage,
  requestFactsOf,
  setManageHeaders,
  wantsPage,
} from './manage-request';
import { negotiateLanguage } from '../../i18n/accept-language';
import { translate } from '../../i18n/catalogue';
import { pageLanguage } from '../ingest/form-page/page-text';
import {
  deleteConfirmPage,
  managedSubmissionSchema,
  managedSubmissionView,
  manageMessagePage,
  managePageOf,
} from './manage-view';

const asLists = (fields: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [
      name,
      (Array.isArray(value) ? value : [value]).map((v) => (typeof v === 'string' ? v : String(v))),
    ]),
  );

const deletedSchema = z
  .object({
    deleted: z.literal(true),
    id: z.string().describe('the submission that was deleted'),
  })
  .meta({ id: 'DeletedSubmission' });

/** The submitter's changes through the manage link: an edit and a delete (docs/manage-links.md). */
export const manageChangeRoutes = [
  defineRoute({
    method: 'post',
    path: '/s/{submission_id}/{secret}',
    operationId: 'editSubmission',
    tag: 'Ingest',
    summary: 'Change a submission through its manage link',
    description:
      'The edit page posts here (form-encoded, like `/f`); a script may post one JSON object. ' +
      "The same rules as ingest: the form's fields and unknown-field policy, the limits on " +
      'names and sizes, 409 `already_submitted` for a unique value another submission holds. ' +
      'Files cannot be changed (they stay). Each accepted edit is a new version (earlier ones ' +
      'are kept: `GET /api/submissions/{id}/versions`); one judged spam (a filled honeypot) is ' +
      'kept as a `spam` version and answers alike, the earlier version staying current. ' +
      'Browsers are redirected (303) to the link; JSON clients get the submission. Outside ' +
      'the access or window: 403 `edit_closed`; past `MAX_SUBMISSION_VERSIONS` versions (50; ' +
      'spam ones count): 409 `limit_reached`. Rate-limited like every manage-link request ' +
      '(`MANAGE_LINK_RATE`; docs/manage-links.md).',
    audit: { exempt: 'a submitter changing their own submission, not an account change' },
    access: 'public',
    server: 'ingest',
    body: {
      schema: jsonSubmissionBody,
      mediaTypes: [...FORM_MEDIA_TYPES, 'application/json'],
      required: true,
      readByHandler: true,
    },
    responses: {
      200: { description: 'saved (for JSON clients)', body: managedSubmissionSchema },
      303: { description: 'saved; back to the link', redirect: true },
    },
    errors: [
      'not_found',
      'edit_closed',
      'validation_failed',
      'validation_failed@400',
      'invalid_payload',
      'invalid_json',
      'payload_too_large',
      'unsupported_media_type',
      'already_submitted',
      'limit_reached',
      'rate_limited',
    ],
    htmlErrors: true,
    onRequest: (_req, res) => setManageHeaders(res),
  }).handle(async ({ req, res, params }, ctx) => {
    const opened = await openLinkOrNotFound(req, res, ctx, params);
    if (!editOpen(opened)) throw editClosed();
    const base = basePathOf(params);
    const { fields, limits } = await readEditBody(req, res, ctx);
    // A refused edit shows the edit page again, with what was posted and why.
    answerRefusalsWith(res, (error) =>
      error.code === 'edit_closed' || error.code === 'not_found'
        ? refusalPage(managePageOf(opened.row), pageChrome(ctx))(error)
        : editPage(opened, base, pageChrome(ctx), {
            values: asLists(fields),
            problem: {
              code: error.code,
              message: error.message,
              details: error.errors ?? [],
              // In the page's language, whatever the request's Accept-Language asked for.
              fieldErrors:
                error instanceof FieldValidationError
                  ? fieldErrorsIn(error.fieldProblems, pageLanguage(managePageOf(opened.row)))
                  : {},
            },
          }),
    );
    const checked = checkEdit(opened, fields, requestFactsOf(req), limits);
    if (!checked.ok)
      throw submissionRefused(checked.problem, negotiateLanguage(req.get('accept-language')));
    const maxVersions = ctx.config.budgets.versionsPerSubmission;
    const saved = await saveEdit(
      req.em,
      linkOf(params),
      checked.edit,
      Date.now(),
      maxVersions,
    ).catch((error: unknown) => {
      throw gateRefusal(error, negotiateLanguage(req.get('accept-language'))) ?? error;
    });
    if (saved.outcome === 'not_found') throw linkNotFound();
    if (saved.outcome === 'closed') throw editClosed();
    if (saved.outcome === 'limit')
      throw new HttpError(
        'limit_reached',
        `this submission has the most versions it may have (MAX_SUBMISSION_VERSIONS: ${saved.max}); it cannot be changed again`,
      );
    // The form's plugins hear of the new version (`submission.updated`); the edit is stored
    // whatever happens here, so a start that fails is logged, not answered.
    if (!saved.spam)
      await ctx.workflows.updated(opened.row.id, saved.version).catch((error: unknown) => {
        ctx.logger.warn(
          { err: (error as Error).message, submissionId: opened.row.id },
          'the delivery of an edit could not start',
        );
      });
    // A JSON post gets JSON unless it asks for a page; a form post gets the page unless not.
    const page = limits === 'check' ? req.accepts(['json', 'html']) === 'html' : wantsPage(req);
    if (page) return { status: 303, redirect: `${base}?saved=1` };
    const now = await openManageLink(req.em, linkOf(params), Date.now());
    if (!now) throw linkNotFound();
    return { status: 200, body: managedSubmissionView(now) };
  }),
  defineRoute({
    method: 'get',
    path: '/s/{submission_id}/{secret}/delete',
    operationId: 'deleteSubmissionPage',
    tag: 'Ingest',
    summary: 'The page confirming a delete',
    description:
      'Asks before the delete, whose button posts to `/s/{submission_id}/{secret}/delete`. ' +
      'A form whose `submitter_access` is not `edit_delete`, or past its window: 403 ' +
      '`edit_closed` (docs/manage-links.md).',
    access: 'public',
    server: 'ingest',
    responses: { 200: { description: 'the page', content: 'text/html' } },
    errors: ['not_found', 'edit_closed', 'rate_limited'],
    htmlErrors: true,
    onRequest: (_req, res) => setManageHeaders(res),
  }).handle(async ({ req, res, params }, ctx) => {
    const opened = await openLinkOrNotFound(req, res, ctx, params);
    if (!deleteOpen(opened)) throw editClosed();
    const page = managePageOf(opened.row);
    return { status: 200, content: deleteConfirmPage(page, basePathOf(params), pageChrome(ctx)) };
  }),
  defineRoute({
    method: 'post',
    path: '/s/{submission_id}/{secret}/delete',
    operationId: 'deleteSubmissionByLink',
    tag: 'Ingest',
    summary: 'Delete a submission through its manage link',
    description:
      'Deletes the submission with its files and versions, as the operator would, and records ' +
      "`submission.deleted` in the form's account's audit log with the submitter as its actor. " +
      'Browsers get a page saying so; JSON clients `{deleted: true, id}`. A form whose ' +
      '`submitter_access` is not `edit_delete`, or past its window: 403 `edit_closed` ' +
      '(docs/manage-links.md).',
    audit: { exempt: 'recorded by the use case itself, with the submitter as its actor' },
    access: 'public',
    server: 'ingest',
    responses: {
      200: { description: 'deleted (a page for browsers)', body: deletedSchema, page: 'text/html' },
    },
    errors: ['not_found', 'edit_closed', 'rate_limited'],
    htmlErrors: true,
    onRequest: (_req, res) => setManageHeaders(res),
  }).handle(async ({ req, res, params }, ctx) => {
    const opened = await openLinkOrNotFound(req, res, ctx, params);
    if (!deleteOpen(opened)) throw editClosed();
    const deleted = await deleteBySubmitter(req.em, linkOf(params), {
      nowMs: Date.now(),
      clientAddress: clientAddress(req),
    });
    if (deleted.outcome === 'not_found') throw linkNotFound();
    if (deleted.outcome === 'closed') throw editClosed();
    // The form's webhooks hear of it (`submission.deleted`, ids only); the delete stands
    // whatever happens here, so a start that fails is logged, not answered.
    await ctx.workflows
      .deleted(opened.row.id, {
        formId: deleted.formId,
        formEndpointToken: deleted.formEndpointToken,
        deletedAt: deleted.deletedAt.toISOString(),
      })
      .catch((error: unknown) => {
        ctx.logger.warn(
          { err: (error as Error).message, submissionId: opened.row.id },
          'the delivery of a delete could not start',
        );
      });
    if (!wantsPage(req)) return { status: 200, body: { deleted: true, id: opened.row.id } };
    const page = managePageOf(opened.row);
    const language = pageLanguage(page);
    const html = manageMessagePage(
      page,
      translate(language, 'manage.deleted_title'),
      translate(language, 'manage.deleted_body'),
      pageChrome(ctx),
    );
    return { status: 200, content: html };
  }),
];
