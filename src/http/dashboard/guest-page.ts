import type { Request, Response } from 'express';
import { takeFlash } from './flash';
import { guestCsrfToken } from './guest-csrf';
import { useDashboardCsp } from './send-page';
import type { TemplateName, Templates } from './templates';
import { renderPage } from './views';

/**
 * A signed-out page (sign-in, sign-up, forgot, reset…) as a defineRoute answer: the
 * dashboard's CSP, the signed-out forms' CSRF token, and any pending flash message.
 */
export async function guestPage<S extends number, T extends TemplateName>(
  req: Request,
  res: Response,
  baseUrl: string,
  page: { status: S; template: T; title: string; altcha?: boolean },
  data: Templates[T],
): Promise<{ status: S; content: string }> {
  await useDashboardCsp(res);
  const chrome = {
    csrfToken: guestCsrfToken(req, res, baseUrl),
    flash: takeFlash(req, res),
    altcha: page.altcha,
  };
  return { status: page.status, content: renderPage(page.template, page.title, chrome, data) };
}

/**
 * One kind of signed-out page (sign-in, sign-up, reset…) as a function of its status and
 * data, with the data every answer of that kind carries.
 */
export function guestPageKind<T extends TemplateName>(
  page: { template: T; title: string; altcha?: boolean },
  always: Partial<Templates[T]> = {},
) {
  return <S extends number>(
    req: Request,
    res: Response,
    baseUrl: string,
    status: S,
    data: Partial<Templates[T]> = {},
  ) =>
    // `always` carries what the template needs on every answer (minPasswordLength).
    guestPage(req, res, baseUrl, { status, ...page }, { ...always, ...data } as Templates[T]);
}
