import type { Response } from 'express';
import type { HttpError } from './http-error';

const REFUSAL_PAGE = 'refusalPage';

/** The HTML a route answers a browser it refuses, in place of errorHandler's plain page. */
export type RefusalPage = (error: HttpError) => string;

/**
 * From here on, errorHandler answers a refusal of this request to a browser with `page` (a
 * hosted form page's post shows the page again: src/http/ingest/form-page-answers.ts). The
 * kit holds the hook so that it never imports an area.
 */
export function answerRefusalsWith(res: Response, page: RefusalPage): void {
  res.locals[REFUSAL_PAGE] = page;
}

/** The refusal page this request set, if any. */
export function refusalPageOf(res: Response): RefusalPage | undefined {
  return res.locals[REFUSAL_PAGE] as RefusalPage | undefined;
}
