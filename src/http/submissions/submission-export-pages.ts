import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { findAccountForm } from '../../domain/forms/forms';
import {
  exportFieldNames,
  exportSubmissions,
  type ExportRow,
} from '../../domain/submissions/submission-export';
import type { SubmissionFilter } from '../../domain/submissions/submission-queries';
import type { AppContext } from '../../runtime/app-context';
import { definePage } from '../kit/routing/define-page';
import type { PageAudit } from '../kit/routing/page-audit';
import { csvCells, csvColumns, csvStream, jsonStream } from './export-format';
import { sendNotFound } from '../kit/chrome/not-found';
import type { DashboardSession } from '../kit/session/session-guard';
import { filterQuery, parseListFilters } from './submission-display';

const PREVIEW_ROWS = 10;

/** The form and the export's filter (the list page's filters), or null after a 404/400 page. */
async function exportRequest({
  req,
  res,
  params,
  session,
}: {
  req: Request;
  res: Response;
  params: { formId: string };
  session: DashboardSession;
}): Promise<{ filter: SubmissionFilter; token: string; formId: string; query: string } | null> {
  const { accountId } = session;
  const form = await findAccountForm(req.em, accountId, params.formId);
  const filters = parseListFilters(req.query);
  // Spam is exported only to a role that reads it (not a viewer), as the list shows it.
  const refused = filters?.spam && !session.scopes.has('can_read_spam_submissions');
  if (!form || !filters || refused) {
    await sendNotFound(req, res, form ? 'export' : 'form');
    return null;
  }
  const filter = {
    accountId,
    formId: form.id,
    spam: filters.spam,
    q: filters.q || undefined,
    range: filters.range,
  };
  return { filter, token: form.endpointToken, formId: form.id, query: filterQuery(filters) };
}

/**
 * Streams `body` (through `transform`, if any) as a download; a failure ends the answer. The
 * audit entry is committed first: a streamed answer cannot be held back at its end.
 */
async function sendDownload(
  ctx: AppContext,
  res: Response,
  download: { filename: string; type: string; audit: PageAudit; filter: SubmissionFilter },
  streams: [NodeJS.ReadableStream, ...NodeJS.ReadWriteStream[]],
): Promise<void> {
  const { audit, filter } = download;
  const which = [filter.spam ? 'spam' : 'non-spam', filter.q ? 'a search' : '', filter.range ?? '']
    .filter(Boolean)
    .join(', ');
  audit.summary = `${download.type.startsWith('text/csv') ? 'CSV' : 'JSON'} export (${which})`;
  await audit.commit();
  res.attachment(download.filename);
  res.type(download.type); // no-store like every /app answer (dashboard router)
  try {
    await pipeline([...streams, res]);
  } catch (error) {
    // The status line is gone already: the cut connection tells the client it failed.
    ctx.logger.warn({ err: (error as Error).message }, 'submission export stopped');
    res.destroy();
  }
}

/**
 * `/app/forms/{id}/export`: the columns and first rows of the export with the list's
 * filters, and the CSV and JSON downloads (streamed in keyset batches).
 */
export const submissionExportPages = [
  definePage({
    need: 'can_read_submissions',
    method: 'get',
    path: '/app/forms/:formId/export',
    access: 'session',
    template: 'export-preview',
    title: 'Export submissions',
  }).handle(async (page) => {
    const { req, render } = page;
    const found = await exportRequest(page);
    if (!found) return;
    const fieldNames = await exportFieldNames(req.em, found.filter);
    const preview: ExportRow[] = [];
    for await (const row of exportSubmissions(req.em, found.filter, PREVIEW_ROWS)) {
      preview.push(row);
      if (preview.length === PREVIEW_ROWS) break;
    }
    await render({
      formId: found.formId,
      columns: csvColumns(fieldNames),
      rows: preview.map((row) => csvCells(row, fieldNames)),
      links: {
        csv: `/app/forms/${found.formId}/export.csv?${found.query}`,
        json: `/app/forms/${found.formId}/export.json?${found.query}`,
        list: `/app/forms/${found.formId}/submissions?${found.query}`,
      },
    });
  }),

  definePage({
    need: 'can_read_submissions',
    method: 'get',
    path: '/app/forms/:formId/export.csv',
    audit: { action: 'submissions.exported', target: 'form' },
    access: 'session',
  }).handle(async (page, ctx) => {
    const { req, res, audit } = page;
    const found = await exportRequest(page);
    if (!found) return;
    const fieldNames = await exportFieldNames(req.em, found.filter);
    const filename = `formward-${found.token}-submissions.csv`;
    const rows = exportSubmissions(req.em, found.filter);
    await sendDownload(
      ctx,
      res,
      { filename, type: 'text/csv; charset=utf-8', audit, filter: found.filter },
      csvStream(rows, fieldNames),
    );
  }),

  definePage({
    need: 'can_read_submissions',
    method: 'get',
    path: '/app/forms/:formId/export.json',
    audit: { action: 'submissions.exported', target: 'form' },
    access: 'session',
  }).handle(async (page, ctx) => {
    const { req, res, audit } = page;
    const found = await exportRequest(page);
    if (!found) return;
    const filename = `formward-${found.token}-submissions.json`;
    const rows = exportSubmissions(req.em, found.filter);
    const download = { filename, type: 'application/json', audit, filter: found.filter };
    await sendDownload(ctx, res, download, [jsonStream(rows)]);
  }),
];
