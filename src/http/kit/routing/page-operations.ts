import type { AnyOperation } from './define-route';
import type { AnyPage, PageDocument } from './define-page';

/** The media type of the signed-out forms' bodies. */
export const FORM_BODY = ['application/x-www-form-urlencoded'];

/** A documented answer that is a page. */
export const htmlPage = (description: string) => ({ description, content: 'text/html' });

type DocumentedPage = AnyPage & { document: PageDocument };

const isDocumented = (page: AnyPage): page is DocumentedPage => page.document !== undefined;

/**
 * A documented page as an operation of the API reference: tag Dashboard, no authentication,
 * its query, and its form (or the body it reads itself), which the page reads, not the API's
 * JSON reader.
 */
export function pageOperation(page: DocumentedPage): AnyOperation {
  if (page.access !== 'guest')
    throw new Error(`${page.method} ${page.path}: only a signed-out page is documented`);
  const { document } = page;
  const body = page.form ? { schema: page.form, required: true } : document.body;
  return {
    method: page.method,
    path: page.path.replace(/:(\w+)/g, '{$1}'),
    operationId: document.operationId,
    tag: 'Dashboard',
    summary: document.summary,
    description: document.description,
    access: 'public',
    query: page.query,
    body: body && { ...body, mediaTypes: FORM_BODY, readByHandler: true },
    responses: document.responses,
    errors: document.errors,
  };
}

/** The operations of the documented pages, in the list's order. */
export const pageOperations = (pages: readonly AnyPage[]): AnyOperation[] =>
  pages.filter(isDocumented).map(pageOperation);
