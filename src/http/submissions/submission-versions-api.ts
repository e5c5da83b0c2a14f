import { z } from 'zod';
import {
  listSubmissionVersions,
  type SubmissionVersionRow,
} from '../../domain/manage/submission-versions';
import { listEnvelopeSchema, listAnswer } from '../kit/answers/envelope';
import { dateTime } from '../kit/answers/fields';
import { LIST_HEADERS } from '../kit/answers/headers';
import { viewsWithinBudget } from '../kit/answers/list-byte-budget';
import { budgetKeyset, cursorListQuery, cursorPage } from '../kit/answers/list-cursor';
import { MAX_PER_PAGE, pageMetaAndLinks } from '../kit/answers/pagination';
import { defineRoute } from '../kit/routing/define-route';
import { findReadableSubmission } from './submission-access';

const versionSchema = z
  .object({
    version: z.number().int().min(1).describe('1: as first received; one more each edit'),
    status: z
      .enum(['current', 'superseded', 'spam'])
      .describe(
        '`current`: the payload the submission shows now; `superseded`: an earlier one, kept; `spam`: an edit judged spam, never made current',
      ),
    created_at: dateTime('when this version was received'),
    payload: z.record(z.string(), z.unknown()).describe('the fields of this version'),
    spam_reason: z.string().nullable().describe('why a `spam` version was judged so'),
  })
  .meta({ id: 'SubmissionVersion' });

const versionListEnvelope = listEnvelopeSchema(
  'SubmissionVersionListEnvelope',
  'versions',
  versionSchema,
);

const versionView = (row: SubmissionVersionRow) => ({
  version: row.version,
  status: row.status,
  created_at: new Date(row.created_at).toISOString(),
  payload: row.payload_json,
  spam_reason: row.spam_reason,
});

/** `GET /api/submissions/{id}/versions`: the versions its submitter's edits made. */
export const submissionVersionRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/submissions/{id}/versions',
    operationId: 'listSubmissionVersions',
    tag: 'Submissions',
    summary: "A submission's versions",
    description:
      'Every version of the submission, oldest first: version 1 as received, then one for each ' +
      'edit its submitter made through the manage link (docs/manage-links.md), earlier ones ' +
      `kept. One page at a time (at most ${MAX_PER_PAGE} a page), also cut short where its ` +
      "versions would pass the answer's byte budget (`LIST_MAX_BYTES`; `meta.truncated`, " +
      '`meta.max_bytes`); its `next` link then carries a `cursor`.',
    access: 'can_read_submissions',
    query: cursorListQuery,
    responses: {
      200: {
        description: 'one page of versions',
        body: versionListEnvelope,
        headers: LIST_HEADERS,
      },
    },
    errors: ['not_found'],
  }).handle(async ({ req, params, query }, ctx) => {
    const submission = await findReadableSubmission(req, params.id);
    const { cursor } = query;
    const page = cursorPage(query);
    const { rows, total, more } = await listSubmissionVersions(req.em, submission, {
      ...page,
      afterVersion: cursor ? Number(cursor.id) : null,
    });
    const maxBytes = ctx.config.listMaxBytes;
    const { views, cut } = viewsWithinBudget(rows, versionView, maxBytes);
    const lastVersion = views[views.length - 1]?.version;
    const last =
      lastVersion === undefined ? undefined : { createdMicros: '0', id: String(lastVersion) };
    const keyset = budgetKeyset({ page, cursor }, { last, cut, more }, maxBytes);
    const self = `${ctx.urls.base}/api/submissions/${submission.id}/versions`;
    const list = pageMetaAndLinks(self, new URLSearchParams(), page, total, keyset);
    return listAnswer('versions', views, list);
  }),
];
